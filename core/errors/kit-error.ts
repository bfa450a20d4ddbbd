import { ERROR_CODES, httpStatusOf, type ErrorCode } from './codes.js';

/** Safe, structured extras an error may carry (never secrets, passwords, tokens or page text). */
export type ErrorDetails = Readonly<Record<string, string | number | boolean | null | readonly string[]>>;

/**
 * The single error class of Kit. Thrown for broken I/O and refused input at a boundary;
 * expected outcomes inside core are values (see result.ts), not throws.
 */
export class KitError extends Error {
  override readonly name = 'KitError';
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;

  constructor(code: ErrorCode, message?: string, options?: { details?: ErrorDetails; cause?: unknown }) {
    super(message ?? ERROR_CODES[code].message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options?.details;
  }

  /** The HTTP status for this error's code. */
  get status(): number {
    return httpStatusOf(this.code);
  }

  /** The `{ code, message }` pair the SDK hands to `onError`. */
  toJSON(): { code: ErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** True for a KitError, including one from another copy of the module (e.g. across bundles). */
export function isKitError(err: unknown): err is KitError {
  return err instanceof KitError || (typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'KitError' && typeof (err as { code?: unknown }).code === 'string');
}
