import { KitError, ok, type ErrorDetails, type Ok, type ServerErrorCode } from '../../core/errors/index.js';

/** An expected refusal of a service, carrying the contract code and a message safe to show. */
export interface ServiceFailure {
  readonly ok: false;
  readonly code: ServerErrorCode;
  readonly reason: string;
  readonly details?: ErrorDetails;
}

/** What a service method returns: a value, or a refusal (never thrown; routes unwrap it). */
export type ServiceResult<T> = Ok<T> | ServiceFailure;

/** A refusal value. */
export function refuse(code: ServerErrorCode, reason: string, details?: ErrorDetails): ServiceFailure {
  return details === undefined ? { ok: false, code, reason } : { ok: false, code, reason, details };
}

export { ok };

/** The value of a result, or the refusal thrown as a KitError for the error middleware. */
export function unwrap<T>(result: ServiceResult<T>): T {
  if (result.ok) return result.value;
  throw new KitError(result.code, result.reason, result.details === undefined ? undefined : { details: result.details });
}
