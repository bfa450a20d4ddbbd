import type { Knex } from 'knex';
import type { RateLimiterPort, RateLimitState } from '../../core/ports/rate-limiter.port.js';

/** How often (ms) one process deletes expired counters; default 60 s. */
const CLEANUP_EVERY_MS = 60_000;

function windowOf(now: Date, windowSeconds: number): { start: Date; end: Date } {
  const size = windowSeconds * 1000;
  const start = Math.floor(now.getTime() / size) * size;
  return { start: new Date(start), end: new Date(start + size) };
}

function state(count: number, limit: number, resetAt: Date, counted: boolean): RateLimitState {
  return { allowed: counted ? count <= limit : count < limit, count, limit, remaining: Math.max(0, limit - count), resetAt };
}

/**
 * Fixed-window counters in the `rate_limits` table: one upsert per hit, so every replica sharing the
 * database sees the same counts.
 */
export function createPgRateLimiter(knex: Knex, options: { cleanupEveryMs?: number } = {}): RateLimiterPort {
  const cleanupEveryMs = options.cleanupEveryMs ?? CLEANUP_EVERY_MS;
  let lastCleanup = 0;

  return {
    async hit(bucket, limit, windowSeconds, now) {
      const { start, end } = windowOf(now, windowSeconds);
      if (now.getTime() - lastCleanup >= cleanupEveryMs) {
        lastCleanup = now.getTime();
        await knex('rate_limits').where('expires_at', '<', now).delete();
      }
      const { rows } = (await knex.raw(
        `insert into rate_limits (bucket, window_start, count, expires_at) values (?, ?, 1, ?)
         on conflict (bucket, window_start) do update set count = rate_limits.count + 1
         returning count`,
        [bucket, start, end],
      )) as { rows: Array<{ count: number }> };
      return state(Number(rows[0]!.count), limit, end, true);
    },

    async peek(bucket, limit, windowSeconds, now) {
      const { start, end } = windowOf(now, windowSeconds);
      const row = await knex('rate_limits').where({ bucket, window_start: start }).first<{ count: number } | undefined>('count');
      return state(Number(row?.count ?? 0), limit, end, false);
    },

    async undo(bucket, windowSeconds, now) {
      const { start } = windowOf(now, windowSeconds);
      await knex('rate_limits').where({ bucket, window_start: start }).andWhere('count', '>', 0).decrement('count', 1);
    },
  };
}
