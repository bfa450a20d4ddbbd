import type { Middleware } from 'koa';
import { KitError } from '../../core/errors/index.js';

/** Paths a load balancer probes; never refused here. */
const PROBES = new Set(['/healthz', '/readyz']);

/**
 * Behind a trusted proxy every connection comes from the proxy, so the per-address connection cap of
 * http-server.ts cannot see clients: this caps the requests in flight per client IP (X-Forwarded-For, as
 * KIT_TRUST_PROXY trusts it) instead. Over the cap: 429 `rate_limited` with `Retry-After: 1`. `max` 0 = off.
 */
export function inflightLimit(max: number): Middleware {
  const inflight = new Map<string, number>();
  return async (ctx, next) => {
    if (max <= 0 || PROBES.has(ctx.path)) return next();
    const ip = ctx.ip;
    const count = (inflight.get(ip) ?? 0) + 1;
    if (count > max) {
      throw new KitError('rate_limited', 'Too many requests in flight from this address; retry later.', { details: { retry_after: 1 } });
    }
    inflight.set(ip, count);
    try {
      await next();
    } finally {
      const left = (inflight.get(ip) ?? 1) - 1;
      if (left <= 0) inflight.delete(ip);
      else inflight.set(ip, left);
    }
  };
}
