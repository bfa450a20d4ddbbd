export { ERROR_CODES, httpStatusOf, isErrorCode, type ErrorCode, type ServerErrorCode, type SdkErrorCode } from './codes.js';
export { KitError, isKitError, type ErrorDetails } from './kit-error.js';
export { ok, fail, type Ok, type Fail, type Result } from './result.js';
