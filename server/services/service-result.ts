import { KitError, ok, type ErrorDetails, type Ok, type ServerErrorCode } from '../../core/errors/index.js';

/** An expected refusal of a service, carrying the contract code and a message safe to show. */
export interface ServiceFailure {
  readonly ok: false;
  readonly code: ServerErrorCode;
  readonly reason: string;
  readonly details?: ErrorDetails;
  /** The details are part of the answer's body (`error.details`), not only the server's own use (headers, logs). */
  readonly publicDetails?: boolean;
}

/** What a service method returns: a value, or a refusal (never thrown; routes unwrap it). */
export type ServiceResult<T> = Ok<T> | ServiceFailure;

/** A refusal value. */
export function refuse(code: ServerErrorCode, reason: string, details?: ErrorDetails, options: { public?: boolean } = {}): ServiceFailure {
  if (details === undefined) return { ok: false, code, reason };
  return options.public ? { ok: false, code, reason, details, publicDetails: true } : { ok: false, code, reason, details };
}

export { ok };

/** Errors whose details the error middleware writes into the body as `error.details` (see `hasPublicDetails`). */
const PUBLIC_DETAILS = new WeakSet<KitError>();

/** True when `err` carries details meant for the caller (e.g. the key cap's `max_keys` / `active_keys`). */
export function hasPublicDetails(err: unknown): err is KitError & { details: ErrorDetails } {
  return err instanceof KitError && err.details !== undefined && PUBLIC_DETAILS.has(err);
}

/** The value of a result, or the refusal thrown as a KitError for the error middleware. */
export function unwrap<T>(result: ServiceResult<T>): T {
  if (result.ok) return result.value;
  if (result.details === undefined) throw new KitError(result.code, result.reason);
  const error = new KitError(result.code, result.reason, { details: result.details });
  if (result.publicDetails) PUBLIC_DETAILS.add(error);
  throw error;
}
