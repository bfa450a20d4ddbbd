import type { Knex } from 'knex';
import type { Ledger } from './load.js';

/** What the database holds against what the server acknowledged. Every number should be 0 but `extraChats`. */
export interface LedgerCheck {
  /** Acknowledged writes absent from the database. */
  readonly lostSignups: number;
  readonly lostKeys: number;
  readonly lostChats: number;
  /** Rows pointing at nothing, or organisations nobody belongs to (a signup writes all three in one transaction). */
  readonly orphans: number;
  /** Usage rows of chats whose answer never came (allowed up to the unacknowledged chats). */
  readonly extraChats: number;
  readonly unacknowledgedChats: number;
  /** Organisation-months whose `org_meters.used` totals differ from the sum of their settled `usage_events` rows. */
  readonly monthlyMismatches: number;
  /** Acknowledged writes checked. */
  readonly checked: { signups: number; keys: number; chats: number };
}

/** True when the check found nothing wrong (extra usage rows bounded by the chats in flight at the kills). */
export function ledgerHolds(c: LedgerCheck): boolean {
  return c.lostSignups === 0 && c.lostKeys === 0 && c.lostChats === 0 && c.orphans === 0 && c.monthlyMismatches === 0 && c.extraChats <= c.unacknowledgedChats;
}

async function present(knex: Knex, table: string, column: string, ids: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = (await knex(table).whereIn(column, ids.slice(i, i + 500)).select(column)) as Array<Record<string, string>>;
    for (const row of rows) found.add(row[column]!);
  }
  return found;
}

/** Compares the database (opened while the server is down, or shared with it) with the ledger. */
export async function checkLedger(knex: Knex, ledger: Ledger): Promise<LedgerCheck> {
  const users = await present(knex, 'users', 'id', ledger.signups.map((s) => s.userId));
  const orgs = await present(knex, 'organizations', 'id', ledger.signups.map((s) => s.orgId));
  const members = new Set(
    ((await knex('memberships').whereIn('user_id', ledger.signups.map((s) => s.userId)).select('org_id', 'user_id')) as Array<{ org_id: string; user_id: string }>).map((m) => `${m.org_id}/${m.user_id}`),
  );
  const lostSignups = ledger.signups.filter((s) => !users.has(s.userId) || !orgs.has(s.orgId) || !members.has(`${s.orgId}/${s.userId}`)).length;
  const keys = await present(knex, 'api_keys', 'id', ledger.keys.map((k) => k.id));
  const lostKeys = ledger.keys.filter((k) => !keys.has(k.id)).length;
  const chats = await present(knex, 'usage_events', 'request_id', ledger.chats.map((c) => c.requestId));
  const lostChats = ledger.chats.filter((c) => !chats.has(c.requestId)).length;

  const chaosOrgs = [...new Set(ledger.signups.map((s) => s.orgId))];
  const count = async (sql: string, bindings: readonly unknown[] = []): Promise<number> => Number(((await knex.raw(sql, bindings as Knex.RawBinding[])) as { rows: Array<{ n: number }> }).rows[0]!.n);
  const orphans =
    (await count('select count(*) as n from memberships m where not exists (select 1 from users u where u.id = m.user_id) or not exists (select 1 from organizations o where o.id = m.org_id)')) +
    (await count('select count(*) as n from organizations o where not exists (select 1 from memberships m where m.org_id = o.id)')) +
    (await count('select count(*) as n from api_keys k where not exists (select 1 from organizations o where o.id = k.org_id)')) +
    (await count('select count(*) as n from usage_events e where not exists (select 1 from organizations o where o.id = e.org_id)'));

  const acknowledged = new Set(ledger.chats.map((c) => c.requestId));
  let extraChats = 0;
  for (let i = 0; i < chaosOrgs.length; i += 500) {
    const rows = (await knex('usage_events').whereIn('org_id', chaosOrgs.slice(i, i + 500)).select('request_id')) as Array<{ request_id: string }>;
    extraChats += rows.filter((r) => !acknowledged.has(r.request_id)).length;
  }
  // The monthly totals the quota reads: `org_meters.used` (settled tokens per organisation and month, since the
  // reservation of #11.1) must equal the sum of the settled usage rows; before it, `usage_monthly` kept by a trigger.
  const meters = (await knex.schema.hasTable('org_meters')) && (await knex.schema.hasColumn('usage_events', 'state'));
  const monthlyMismatches = meters
    ? await count(`
    select count(*) as n from (
      select coalesce(e.org_id, m.org_id) as org_id
        from (select org_id, date_trunc('month', created_at at time zone 'UTC')::date as month, sum(input_tokens + output_tokens) as used
                from usage_events where state = 'settled' group by 1, 2) e
        full join org_meters m on m.org_id = e.org_id and m.month = e.month
       where coalesce(e.used, 0) <> coalesce(m.used, 0)) mismatched`)
    : await count(`
    select count(*) as n from (
      select coalesce(e.org_id, m.org_id) as org_id
        from (select org_id, date_trunc('month', created_at at time zone 'UTC')::date as month, count(*) as requests,
                     sum(input_tokens) as input_tokens, sum(output_tokens) as output_tokens
                from usage_events group by 1, 2) e
        full join usage_monthly m on m.org_id = e.org_id and m.month = e.month
       where coalesce(e.requests, 0) <> coalesce(m.requests, 0)
          or coalesce(e.input_tokens, 0) <> coalesce(m.input_tokens, 0)
          or coalesce(e.output_tokens, 0) <> coalesce(m.output_tokens, 0)) mismatched`);
  return {
    lostSignups,
    lostKeys,
    lostChats,
    orphans,
    extraChats,
    unacknowledgedChats: ledger.unacknowledged.chats,
    monthlyMismatches,
    checked: { signups: ledger.signups.length, keys: ledger.keys.length, chats: ledger.chats.length },
  };
}
