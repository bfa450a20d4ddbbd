import type { Knex } from 'knex';

/** What one `/chat` admission counted and read, for the caller to compare with the plan. */
export interface ChatCounts {
  /** Requests of this key in the current minute, this one included. */
  readonly keyCount: number;
  /** Requests of this session in the current minute, this one included; null without a session. */
  readonly sessionCount: number | null;
  /** Input plus output tokens the organisation used this calendar month (UTC), before this request. */
  readonly tokensThisMonth: number;
  /** End of the current one-minute window. */
  readonly windowResetAt: Date;
}

/** Counts a `/chat` request against its per-minute windows and reads the month's token total. */
export interface ChatLimiter {
  count(request: { readonly orgId: string; readonly keyId: string; readonly sessionId: string | null; readonly now: Date }): Promise<ChatCounts>;
}

/** Options of the PostgreSQL chat limiter. */
export interface PgChatLimiterOptions {
  /** How often (ms) one process deletes expired counters, off the request path. Default 60 000. */
  readonly sweepEveryMs?: number;
  readonly onSweepError?: (err: unknown) => void;
}

const WINDOW_MS = 60_000;

/** First day of `now`'s month (UTC) as the `date` the usage_monthly table keys on. */
export function monthOf(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/**
 * The hot-path check of `/chat` in ONE round trip: a statement whose data-modifying CTEs count the key's and the
 * session's fixed one-minute windows in `rate_limits` (the same table and windows as the part-1 limiter) and read the
 * organisation's month total from `usage_monthly` (kept by a trigger on usage_events). Every replica sharing the
 * database sees the same counts; the upserts serialise on their rows, so no two replicas admit the same slot.
 */
export function createPgChatLimiter(knex: Knex, options: PgChatLimiterOptions = {}): ChatLimiter {
  const sweepEveryMs = options.sweepEveryMs ?? 60_000;
  let lastSweep = 0;
  const upsert = `insert into rate_limits (bucket, window_start, count, expires_at) values (?, ?, 1, ?)
    on conflict (bucket, window_start) do update set count = rate_limits.count + 1 returning count`;
  const withSession = `with k as (${upsert}), s as (${upsert})
    select (select count from k) as key_count, (select count from s) as session_count,
           coalesce((select input_tokens + output_tokens from usage_monthly where org_id = ? and month = ?), 0)::int8 as tokens`;
  const keyOnly = `with k as (${upsert})
    select (select count from k) as key_count, null as session_count,
           coalesce((select input_tokens + output_tokens from usage_monthly where org_id = ? and month = ?), 0)::int8 as tokens`;

  return {
    async count({ orgId, keyId, sessionId, now }) {
      const t = now.getTime();
      const start = new Date(Math.floor(t / WINDOW_MS) * WINDOW_MS);
      const end = new Date(start.getTime() + WINDOW_MS);
      if (t - lastSweep >= sweepEveryMs) {
        lastSweep = t;
        knex('rate_limits').where('expires_at', '<', now).delete().catch((err: unknown) => options.onSweepError?.(err));
      }
      const month = monthOf(now);
      const { rows } = (await (sessionId === null
        ? knex.raw(keyOnly, [`chat:key:${keyId}`, start, end, orgId, month])
        : knex.raw(withSession, [`chat:key:${keyId}`, start, end, `chat:session:${sessionId}`, start, end, orgId, month]))) as {
        rows: Array<{ key_count: number; session_count: number | null; tokens: number }>;
      };
      const row = rows[0]!;
      return {
        keyCount: Number(row.key_count),
        sessionCount: row.session_count === null ? null : Number(row.session_count),
        tokensThisMonth: Number(row.tokens),
        windowResetAt: end,
      };
    },
  };
}
