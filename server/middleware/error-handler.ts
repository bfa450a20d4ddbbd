import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../../adapters/node/pg-errors.js';
import { ERROR_CODES, isKitError, type ServerErrorCode } from '../../core/errors/index.js';
import { hasPublicDetails } from '../services/service-result.js';

/** Seconds a client is told to wait when the database is unreachable (PostgreSQL restarts in a few seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Statuses of errors thrown by Koa itself or its libraries (`ctx.throw`, http-errors) mapped to Kit codes. */
const STATUS_CODES: Readonly<Record<number, ServerErrorCode>> = Object.freeze({
  400: 'invalid_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
});

function classify(err: unknown): { code: ServerErrorCode; message: string } {
  if (isKitError(err) && ERROR_CODES[err.code].status !== null) return { code: err.code as ServerErrorCode, message: err.message };
  if (isDatabaseUnavailable(err)) return { code: 'service_unavailable', message: 'The database is unavailable; retry shortly.' };
  const status = (err as { status?: unknown; expose?: unknown } | null)?.status;
  if (typeof status === 'number' && STATUS_CODES[status] && (err as { expose?: unknown }).expose === true) {
    const code = STATUS_CODES[status]!;
    return { code, message: ERROR_CODES[code].message };
  }
  return { code: 'internal_error', message: ERROR_CODES.internal_error.message };
}

/** Only what is safe to log about an unexpected error: no request data, no driver `detail` with values. */
function loggable(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err };
  return { type: err.name, message: err.message, code: (err as { code?: unknown }).code, stack: err.stack };
}

/**
 * The one place errors become HTTP (STYLE.md): every failure answers `{ error: { code, message, request_id } }`
 * with the code's status. Unknown errors become `internal_error` with a generic message and are logged with
 * the request id; rate-limit refusals get Retry-After and RateLimit headers; an unreachable database answers
 * `503 service_unavailable` with Retry-After.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const { code, message } = classify(err);
      const requestId = String(ctx.state.requestId ?? '');
      if (code === 'internal_error') logger.error({ request_id: requestId, err: loggable(err) }, 'unhandled error');
      if (code === 'service_unavailable') {
        // Expected during an outage, one line per request: the cause without its stack.
        const e = err as { name?: unknown; code?: unknown; message?: unknown };
        logger.warn({ request_id: requestId, err: { type: e.name, code: e.code, message: e.message } }, 'database unavailable');
        ctx.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      }
      const details = isKitError(err) ? err.details : undefined;
      if ((code === 'rate_limited' || code === 'quota_exceeded') && details && typeof details.retry_after === 'number') {
        ctx.set('Retry-After', String(details.retry_after));
        if (details.ratelimit_limit !== undefined) {
          ctx.set('RateLimit', `limit=${details.ratelimit_limit}, remaining=${details.ratelimit_remaining}, reset=${details.ratelimit_reset}`);
        }
      }
      ctx.status = ERROR_CODES[code].status;
      ctx.body = { error: { code, message, request_id: requestId, ...(hasPublicDetails(err) && { details: err.details }) } };
    }
  };
}
