import type { Knex } from 'knex';
import type { ReplayStorePort } from '../../core/ports/replay-store.port.js';

/** Options of the database replay store. */
export interface PgReplayStoreOptions {
  /** How often (ms) one process deletes expired claims, off the request path. Default 300 000. */
  readonly sweepEveryMs?: number;
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
  /** Told when the background sweep fails (it never fails a claim). */
  readonly onSweepError?: (err: unknown) => void;
}

/**
 * One-time tokens in the `challenge_claims` table, shared by every replica on the database: one statement claims a
 * token, and re-claims it only when its earlier claim has expired, so two replicas racing on one solution get
 * exactly one `true`.
 */
export function createPgReplayStore(knex: Knex, options: PgReplayStoreOptions = {}): ReplayStorePort {
  const sweepEveryMs = options.sweepEveryMs ?? 300_000;
  const now = options.now ?? Date.now;
  let lastSweep = now();

  return {
    async claimOnce(id, expiresAt) {
      const t = now();
      if (t - lastSweep >= sweepEveryMs) {
        lastSweep = t;
        knex('challenge_claims').where('expires_at', '<', new Date(t)).delete().catch((err: unknown) => options.onSweepError?.(err));
      }
      const { rows } = (await knex.raw(
        `insert into challenge_claims (id, expires_at) values (?, ?)
         on conflict (id) do update set expires_at = excluded.expires_at where challenge_claims.expires_at <= ?
         returning id`,
        [id, expiresAt, new Date(t)],
      )) as { rows: unknown[] };
      return rows.length === 1;
    },
  };
}
