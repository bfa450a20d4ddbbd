import type { RateLimiterPort, RateLimitState } from '../../core/ports/rate-limiter.port.js';

/** Most buckets kept before the oldest are dropped (a flood of distinct keys must not grow memory without bound). */
const MAX_BUCKETS = 100_000;

/**
 * Fixed-window counters in this process's memory: exact under any burst (one synchronous increment per hit), no
 * database round trip, but per replica — N replicas allow N × the limit. For flood guards that must cost less
 * than what they guard (`GET /config`); limits that must hold across replicas use the database
 * (pg-rate-limiter.ts).
 */
export function createMemoryRateLimiter(options: { maxBuckets?: number } = {}): RateLimiterPort {
  const maxBuckets = options.maxBuckets ?? MAX_BUCKETS;
  const windows = new Map<string, { start: number; end: number; count: number }>();

  const current = (bucket: string, windowSeconds: number, now: Date) => {
    const size = windowSeconds * 1000;
    const start = Math.floor(now.getTime() / size) * size;
    let w = windows.get(bucket);
    if (!w || w.start !== start) {
      if (w) windows.delete(bucket);
      w = { start, end: start + size, count: 0 };
      if (windows.size >= maxBuckets) {
        for (const [key, old] of windows) if (old.end <= now.getTime()) windows.delete(key);
        // Still full: drop the oldest (Map keeps insertion order).
        for (const key of windows.keys()) {
          if (windows.size < maxBuckets) break;
          windows.delete(key);
        }
      }
      windows.set(bucket, w);
    }
    return w;
  };
  const state = (count: number, limit: number, end: number, counted: boolean): RateLimitState => ({
    allowed: counted ? count <= limit : count < limit,
    count,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt: new Date(end),
  });

  return {
    async hit(bucket, limit, windowSeconds, now) {
      const w = current(bucket, windowSeconds, now);
      w.count += 1;
      return state(w.count, limit, w.end, true);
    },
    async peek(bucket, limit, windowSeconds, now) {
      const w = current(bucket, windowSeconds, now);
      return state(w.count, limit, w.end, false);
    },
    async undo(bucket, windowSeconds, now) {
      const w = current(bucket, windowSeconds, now);
      if (w.count > 0) w.count -= 1;
    },
  };
}
