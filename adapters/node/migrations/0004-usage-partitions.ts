import type { Knex } from 'knex';

const isPostgres = (knex: Knex): boolean => (knex.client as { config?: { client?: unknown } }).config?.client === 'pg';

/** `usage_events_y2026m03` for March 2026. */
export function partitionName(monthStart: Date): string {
  return `usage_events_y${monthStart.getUTCFullYear()}m${String(monthStart.getUTCMonth() + 1).padStart(2, '0')}`;
}

const monthStart = (d: Date, add = 0): Date => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1));

/**
 * Creates the monthly partitions of `usage_events` from `from`'s month through `months` months after `now`'s, when
 * the table is partitioned (PostgreSQL after migration 0004) and they are missing. Idempotent; cheap when they exist.
 */
export async function ensureUsagePartitions(knex: Knex, now: Date, months = 2, from: Date = now): Promise<string[]> {
  if (!isPostgres(knex)) return [];
  const { rows } = (await knex.raw(
    "select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent where p.relname = 'usage_events'",
  )) as { rows: Array<{ relname: string }> };
  const partitioned = (await knex.raw("select 1 from pg_partitioned_table t join pg_class c on c.oid = t.partrelid where c.relname = 'usage_events'")) as { rows: unknown[] };
  if (partitioned.rows.length === 0) return [];
  const existing = new Set(rows.map((r) => r.relname));
  const created: string[] = [];
  for (let m = monthStart(from); m.getTime() <= monthStart(now, months).getTime(); m = monthStart(m, 1)) {
    const name = partitionName(m);
    if (existing.has(name)) continue;
    try {
      await knex.raw(`create table if not exists ${name} partition of usage_events for values from ('${m.toISOString()}') to ('${monthStart(m, 1).toISOString()}') with (fillfactor = 90)`);
      created.push(name);
    } catch {
      // That month's rows already sit in the default partition (PostgreSQL refuses the new one); the next months still get theirs.
    }
  }
  return created;
}

/**
 * PostgreSQL only: `usage_events` becomes a table partitioned by month on `created_at` (issue 12.3), so its indexes
 * stay the size of one month, inserts cost the same at any table size, and old months can be detached or dropped
 * in one statement. Rows are copied into the new table inside the migration's transaction; expect about 10 s per
 * million rows (docs/scaling.md). A default partition catches rows outside the prepared months; the server adds the
 * next months' partitions ahead of time. The request id is unique per (org_id, created_at, request_id), as before the
 * migration (0003) — that index includes the partition key, as PostgreSQL requires. The embedded PGlite
 * keeps the plain table (one process, one disk: the rollups keep its reports cheap).
 */
export const usagePartitions = {
  name: '0004-usage-partitions',
  async up(knex: Knex): Promise<void> {
    if (!isPostgres(knex)) return;
    await knex.raw(`
      create table usage_events_partitioned (
        id bigint not null default nextval('usage_events_id_seq'),
        org_id text not null references organizations (id) on delete cascade,
        key_id text references api_keys (id) on delete set null,
        mode text not null,
        model text not null,
        input_tokens integer not null,
        output_tokens integer not null,
        refused boolean not null,
        request_id text not null,
        created_at timestamptz not null,
        state text not null default 'settled',
        reserved_tokens integer not null default 0,
        expires_at timestamptz,
        rolled boolean not null default false,
        constraint usage_events_mode_check check (mode in ('remote', 'local')),
        constraint usage_events_tokens_check check (input_tokens >= 0 and output_tokens >= 0),
        constraint usage_events_state_check check (state in ('reserved', 'settled', 'expired')),
        primary key (id, created_at)
      ) partition by range (created_at)`);
    await knex.raw('create table usage_events_default partition of usage_events_partitioned default with (fillfactor = 90)');
    const { rows } = (await knex.raw('select min(created_at) as first from usage_events')) as { rows: Array<{ first: Date | null }> };
    const now = new Date();
    const first = rows[0]?.first ? new Date(rows[0].first) : now;
    for (let m = monthStart(first < now ? first : now); m.getTime() <= monthStart(now, 2).getTime(); m = monthStart(m, 1)) {
      await knex.raw(`create table ${partitionName(m)} partition of usage_events_partitioned for values from ('${m.toISOString()}') to ('${monthStart(m, 1).toISOString()}') with (fillfactor = 90)`);
    }
    await knex.raw(`insert into usage_events_partitioned (id, org_id, key_id, mode, model, input_tokens, output_tokens, refused, request_id, created_at, state, reserved_tokens, expires_at, rolled)
      select id, org_id, key_id, mode, model, input_tokens, output_tokens, refused, request_id, created_at, state, reserved_tokens, expires_at, rolled from usage_events`);
    await knex.raw('alter sequence usage_events_id_seq owned by usage_events_partitioned.id');
    await knex.raw('drop table usage_events');
    await knex.raw('alter table usage_events_partitioned rename to usage_events');
    await knex.raw('alter table usage_events rename constraint usage_events_partitioned_pkey to usage_events_pkey');
    await knex.raw('create unique index usage_events_org_created_request_unique on usage_events (org_id, created_at, request_id)');
    await knex.raw('create index usage_events_unrolled_idx on usage_events (org_id, created_at) where not rolled');
  },
  async down(knex: Knex): Promise<void> {
    if (!isPostgres(knex)) return;
    await knex.raw('alter table usage_events rename to usage_events_partitioned');
    await knex.raw(`
      create table usage_events (
        id bigint primary key default nextval('usage_events_id_seq'),
        org_id text not null references organizations (id) on delete cascade,
        key_id text references api_keys (id) on delete set null,
        mode text not null, model text not null, input_tokens integer not null, output_tokens integer not null,
        refused boolean not null, request_id text not null unique, created_at timestamptz not null,
        state text not null default 'settled', reserved_tokens integer not null default 0, expires_at timestamptz,
        rolled boolean not null default false,
        constraint usage_events_mode_check2 check (mode in ('remote', 'local')),
        constraint usage_events_tokens_check2 check (input_tokens >= 0 and output_tokens >= 0),
        constraint usage_events_state_check2 check (state in ('reserved', 'settled', 'expired')))`);
    await knex.raw('insert into usage_events select * from usage_events_partitioned');
    await knex.raw('alter sequence usage_events_id_seq owned by usage_events.id');
    await knex.raw('drop table usage_events_partitioned');
    await knex.raw('create index usage_events_org_id_created_at_index on usage_events (org_id, created_at)');
    await knex.raw('create index usage_events_org_id_key_id_created_at_index on usage_events (org_id, key_id, created_at)');
    await knex.raw('create index usage_events_unrolled_idx on usage_events (org_id, created_at) where not rolled');
  },
};
