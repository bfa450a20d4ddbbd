import type { RateLimitState } from '../../core/ports/rate-limiter.port.js';
import { refuse, type ServiceFailure } from './service-result.js';

/**
 * A `rate_limited` refusal whose details become the Retry-After and RateLimit headers
 * (draft-ietf-httpapi-ratelimit-headers: `RateLimit: limit=…, remaining=…, reset=…`).
 */
export function rateLimited(state: RateLimitState, now: Date, message: string): ServiceFailure {
  const reset = Math.max(1, Math.ceil((state.resetAt.getTime() - now.getTime()) / 1000));
  return refuse('rate_limited', message, { retry_after: reset, ratelimit_limit: state.limit, ratelimit_remaining: 0, ratelimit_reset: reset });
}
