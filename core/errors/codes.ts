/**
 * The one table of Kit's error codes (CONTRACT §5): each code's HTTP status and default message.
 * SDK-side codes have `status: null`: they never travel over HTTP, they reach `onError` / `on('error')`.
 */
export const ERROR_CODES = Object.freeze({
  invalid_request: { status: 400, message: 'The request is malformed or has an invalid field.' },
  unauthenticated: { status: 401, message: 'Authentication is required.' },
  invalid_api_key: { status: 401, message: 'The API key is unknown, malformed, revoked or expired.' },
  session_required: { status: 401, message: 'A valid session is required: solve the bot challenge at POST /v1/session.' },
  challenge_failed: { status: 403, message: 'The bot-challenge solution is wrong, expired or was already used.' },
  forbidden: { status: 403, message: 'You are not allowed to do this.' },
  origin_not_allowed: { status: 403, message: 'This key does not allow requests from this origin.' },
  ip_not_allowed: { status: 403, message: "This key's IP allowlist does not contain the caller." },
  not_found: { status: 404, message: 'Not found.' },
  method_not_allowed: { status: 405, message: 'This method is not allowed on this path.' },
  conflict: { status: 409, message: 'The request conflicts with the current state.' },
  precondition_failed: { status: 412, message: 'The record changed since you read it (If-Match does not match its ETag); read it again.' },
  payload_too_large: { status: 413, message: "The request is larger than the plan's limits." },
  unsupported_media_type: { status: 415, message: 'The body must be application/json.' },
  precondition_required: { status: 428, message: 'Send If-Match with the ETag you read, so a concurrent change is not overwritten.' },
  rate_limited: { status: 429, message: 'Too many requests; retry later.' },
  quota_exceeded: { status: 429, message: "The plan's monthly token quota is used up." },
  internal_error: { status: 500, message: 'Something went wrong on our side.' },
  upstream_unavailable: { status: 502, message: 'The inference backend failed or timed out.' },
  billing_unavailable: { status: 503, message: 'Billing is not configured on this server.' },
  service_unavailable: { status: 503, message: 'The service is temporarily unavailable; retry shortly.' },
  // SDK-side codes (CONTRACT §5, last paragraph).
  invalid_config: { status: null, message: 'Kit.init was given an invalid option.' },
  context_unavailable: { status: null, message: 'The page content could not be read.' },
  webgpu_unavailable: { status: null, message: 'WebGPU is not available on this device.' },
  model_load_failed: { status: null, message: 'The local model could not be loaded.' },
  network_error: { status: null, message: 'The service could not be reached.' },
} as const);

export type ErrorCode = keyof typeof ERROR_CODES;
/** Codes a server may answer with (they have an HTTP status). */
export type ServerErrorCode = { [C in ErrorCode]: (typeof ERROR_CODES)[C]['status'] extends number ? C : never }[ErrorCode];
/** Codes raised only inside the SDK. */
export type SdkErrorCode = Exclude<ErrorCode, ServerErrorCode>;

/** True when `code` is one of Kit's codes (e.g. when reading an error body from the network). */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CODES, code);
}

/** HTTP status of a server code; SDK-side codes map to 500 because they should never reach HTTP. */
export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status ?? 500;
}
