import { KitError, isErrorCode, isKitError, type ErrorCode, type ErrorDetails } from '../../core/errors/index.js';
import type { HttpResponse } from '../../core/ports/http-transport.port.js';

/**
 * Maps a non-2xx answer to the KitError the SDK raises (CONTRACT §5): the body's `{ error: { code, message,
 * request_id } }` when it has one; otherwise (a proxy's HTML page, an empty 502) a code guessed from the status.
 * `rate_limited` / `quota_exceeded` carry `details.retry_after_seconds` from `Retry-After` (or the `RateLimit` header).
 */
export function responseError(response: HttpResponse, bodyText: string): KitError {
  let code: ErrorCode = codeForStatus(response.status);
  let message: string | undefined;
  let requestId = response.headers['request-id'] ?? null;
  try {
    const error = (JSON.parse(bodyText) as { error?: { code?: unknown; message?: unknown; request_id?: unknown } }).error;
    if (isErrorCode(error?.code)) code = error.code;
    if (typeof error?.message === 'string') message = error.message;
    if (typeof error?.request_id === 'string') requestId = error.request_id;
  } catch {
    // not JSON: keep the status-based code
  }
  const details: Record<string, string | number> = {};
  if (requestId) details.request_id = requestId;
  const retryAfter = retryAfterSeconds(response.headers);
  if (retryAfter !== undefined && response.status === 429) details.retry_after_seconds = retryAfter;
  return new KitError(code, message, { details: details as ErrorDetails });
}

/** Wraps whatever a transport threw when the service could not be reached. */
export function networkError(cause: unknown): KitError {
  if (isKitError(cause)) return cause;
  return new KitError('network_error', undefined, { cause });
}

/**
 * Seconds to wait, from `Retry-After` (delta-seconds or an HTTP date, RFC 9110 §10.2.3) or, when a cross-origin
 * response hides it, from the `RateLimit` header's reset (`t=` in the IETF draft, `reset=` in its earlier form).
 */
export function retryAfterSeconds(headers: Readonly<Record<string, string>>): number | undefined {
  const value = headers['retry-after']?.trim();
  if (value) {
    if (/^\d+$/.test(value)) return Number(value);
    const date = Date.parse(value);
    if (Number.isFinite(date)) return Math.max(0, Math.ceil((date - Date.now()) / 1000));
  }
  const reset = /(?:^|[;,\s])(?:t|reset)=(\d+)/.exec(headers['ratelimit'] ?? '');
  return reset ? Number(reset[1]) : undefined;
}

function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400: return 'invalid_request';
    case 401: return 'unauthenticated';
    case 403: return 'forbidden';
    case 404: return 'not_found';
    case 405: return 'method_not_allowed';
    case 409: return 'conflict';
    case 413: return 'payload_too_large';
    case 415: return 'unsupported_media_type';
    case 429: return 'rate_limited';
    // A gateway's own 502/503/504 page (no Kit error body) means the service itself was not reached.
    case 502: case 503: case 504: return 'network_error';
    default: return 'internal_error';
  }
}
