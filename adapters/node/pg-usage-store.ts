import type { Knex } from 'knex';
import { ensureUsagePartitions } from './migrations/0004-usage-partitions.js';
import type { UsageGroupBy, UsageStorePort, UsageTotals } from '../../core/ports/usage-store.port.js';

type SummaryRow = { grp: string | null; requests: number; input_tokens: number; output_tokens: number; refusals: number };

const DAY_MS = 86_400_000;
const dayOf = (d: Date): string => d.toISOString().slice(0, 10);
const monthStart = (d: Date, add = 0): Date => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1));

/** Rows rolled up per statement. */
export const ROLLUP_BATCH = 5_000;

const SUMS = 'count(*), sum(input_tokens), sum(output_tokens), count(*) filter (where refused)';
const ADD = `requests = {t}.requests + excluded.requests, input_tokens = {t}.input_tokens + excluded.input_tokens,
      output_tokens = {t}.output_tokens + excluded.output_tokens, refusals = {t}.refusals + excluded.refusals`;

/**
 * Moves settled rows not yet counted into the three rollups, in one statement: the rows are marked `rolled` and their
 * sums added to `usage_daily`, `usage_daily_keys` and `usage_monthly_keys` in the same transaction, so a report (one
 * snapshot) counts each row exactly once — through a rollup or as a raw row. `skip locked` lets several replicas roll
 * at once without waiting on each other; rows go in key order so two replicas' upserts cannot deadlock often.
 */
const ROLLUP_SQL = `with m as (
    update usage_events set rolled = true
     where id in (select id from usage_events where not rolled and state <> 'reserved' order by id limit ? for update skip locked)
    returning org_id, created_at, key_id, model, mode, input_tokens, output_tokens, refused
  ),
  d as (
    insert into usage_daily (org_id, day, model, mode, requests, input_tokens, output_tokens, refusals)
    select org_id, (created_at at time zone 'UTC')::date, model, mode, ${SUMS} from m group by 1, 2, 3, 4 order by 1, 2, 3, 4
    on conflict (org_id, day, model, mode) do update set ${ADD.replaceAll('{t}', 'usage_daily')}
    returning 1
  ),
  dk as (
    insert into usage_daily_keys (org_id, day, key_id, requests, input_tokens, output_tokens, refusals)
    select org_id, (created_at at time zone 'UTC')::date, coalesce(key_id, ''), ${SUMS} from m group by 1, 2, 3 order by 1, 2, 3
    on conflict (org_id, day, key_id) do update set ${ADD.replaceAll('{t}', 'usage_daily_keys')}
    returning 1
  ),
  mk as (
    insert into usage_monthly_keys (org_id, month, key_id, requests, input_tokens, output_tokens, refusals)
    select org_id, date_trunc('month', created_at at time zone 'UTC')::date, coalesce(key_id, ''), ${SUMS} from m group by 1, 2, 3 order by 1, 2, 3
    on conflict (org_id, month, key_id) do update set ${ADD.replaceAll('{t}', 'usage_monthly_keys')}
    returning 1
  )
  select (select count(*) from m) as n, (select count(*) from d) + (select count(*) from dk) + (select count(*) from mk) as groups`;

const RAW_GROUP: Readonly<Record<UsageGroupBy, string>> = Object.freeze({ day: "(created_at at time zone 'UTC')::date", key: 'key_id', model: 'model', mode: 'mode' });
const COLUMNS = 'requests, input_tokens, output_tokens, refusals';
const NEGATED = '-requests, -input_tokens, -output_tokens, -refusals';

/**
 * The parts of a report over whole UTC days [firstDay, endDay) from the rollups. Day, model and mode read
 * `usage_daily` (a few rows a day). Keys read `usage_monthly_keys` for each month the range covers, and for a month
 * it covers only in part, `usage_daily_keys` for its days inside the range — or, when most of the month is inside,
 * the month minus its days outside (so a report never sums more than half a month of per-key days).
 */
function rollupParts(orgId: string, firstDay: Date, endDay: Date, groupBy: UsageGroupBy): { sql: string[]; bindings: Knex.RawBinding[] } {
  const sql: string[] = [];
  const bindings: Knex.RawBinding[] = [];
  if (groupBy !== 'key') {
    const grp = groupBy === 'day' ? 'day' : groupBy;
    sql.push(`select ${grp} as grp, ${COLUMNS} from usage_daily where org_id = ? and day >= cast(? as date) and day < cast(? as date)`);
    bindings.push(orgId, dayOf(firstDay), dayOf(endDay));
    return { sql, bindings };
  }
  const days = (from: Date, to: Date, sign: 'plus' | 'minus') => {
    if (from.getTime() >= to.getTime()) return;
    sql.push(`select nullif(key_id, '') as grp, ${sign === 'plus' ? COLUMNS : NEGATED} from usage_daily_keys where org_id = ? and day >= cast(? as date) and day < cast(? as date)`);
    bindings.push(orgId, dayOf(from), dayOf(to));
  };
  for (let m = monthStart(firstDay); m.getTime() < endDay.getTime(); m = monthStart(m, 1)) {
    const next = monthStart(m, 1);
    const from = new Date(Math.max(m.getTime(), firstDay.getTime()));
    const to = new Date(Math.min(next.getTime(), endDay.getTime()));
    const inside = to.getTime() - from.getTime();
    if (inside * 2 <= next.getTime() - m.getTime() && inside < next.getTime() - m.getTime()) {
      days(from, to, 'plus');
      continue;
    }
    sql.push(`select nullif(key_id, '') as grp, ${COLUMNS} from usage_monthly_keys where org_id = ? and month = cast(? as date)`);
    bindings.push(orgId, dayOf(m));
    days(m, from, 'minus');
    days(to, next, 'minus');
  }
  return { sql, bindings };
}

/** Usage-event storage on PostgreSQL or PGlite through knex. */
export function createPgUsageStore(knex: Knex): UsageStorePort {
  let partitionsCheckedAt = 0;
  return {
    async record(event) {
      const rows = await knex('usage_events')
        .insert({
          org_id: event.orgId,
          key_id: event.keyId,
          mode: event.mode,
          model: event.model,
          input_tokens: event.inputTokens,
          output_tokens: event.outputTokens,
          refused: event.refused,
          request_id: event.requestId,
          created_at: event.createdAt,
        })
        .onConflict()
        .ignore()
        .returning('id');
      return rows.length > 0 ? 'recorded' : 'duplicate';
    },

    async summarize(orgId, range) {
      // Whole UTC days inside [from, to) come from the rollups (plus their rows not rolled yet); the partial days at
      // the edges come from the rows themselves. Rows still reserved (chats in flight) are not reported yet.
      const firstDay = new Date(Math.ceil(range.from.getTime() / DAY_MS) * DAY_MS);
      const endDay = new Date(Math.floor(range.to.getTime() / DAY_MS) * DAY_MS);
      const hasDays = firstDay.getTime() < endDay.getTime();
      const raw = RAW_GROUP[range.groupBy];
      const rawColumns = `${raw} as grp, 1 as requests, input_tokens, output_tokens, case when refused then 1 else 0 end as refusals`;
      const parts: string[] = [];
      const bindings: Knex.RawBinding[] = [];
      if (hasDays) {
        const rolled = rollupParts(orgId, firstDay, endDay, range.groupBy);
        parts.push(...rolled.sql);
        bindings.push(...rolled.bindings);
        parts.push(`select ${rawColumns} from usage_events where org_id = ? and not rolled and state <> 'reserved' and created_at >= ? and created_at < ?`);
        bindings.push(orgId, firstDay, endDay);
        if (range.from.getTime() < firstDay.getTime()) {
          parts.push(`select ${rawColumns} from usage_events where org_id = ? and state <> 'reserved' and created_at >= ? and created_at < ?`);
          bindings.push(orgId, range.from, firstDay);
        }
        if (endDay.getTime() < range.to.getTime()) {
          parts.push(`select ${rawColumns} from usage_events where org_id = ? and state <> 'reserved' and created_at >= ? and created_at < ?`);
          bindings.push(orgId, endDay, range.to);
        }
      } else {
        parts.push(`select ${rawColumns} from usage_events where org_id = ? and state <> 'reserved' and created_at >= ? and created_at < ?`);
        bindings.push(orgId, range.from, range.to);
      }
      const grp = range.groupBy === 'day' ? "to_char(grp, 'YYYY-MM-DD')" : 'grp';
      const { rows } = (await knex.raw(
        `select ${grp} as grp, sum(requests)::int8 as requests, sum(input_tokens)::int8 as input_tokens,
                sum(output_tokens)::int8 as output_tokens, sum(refusals)::int8 as refusals
           from (${parts.join(' union all ')}) r
          group by r.grp having sum(requests) <> 0 order by r.grp nulls first`,
        bindings,
      )) as { rows: SummaryRow[] };
      const breakdown = rows.map((r) => ({
        group: r.grp,
        requests: Number(r.requests),
        inputTokens: Number(r.input_tokens),
        outputTokens: Number(r.output_tokens),
        refusals: Number(r.refusals),
      }));
      const total: UsageTotals = breakdown.reduce(
        (t, r) => ({
          requests: t.requests + r.requests,
          inputTokens: t.inputTokens + r.inputTokens,
          outputTokens: t.outputTokens + r.outputTokens,
          refusals: t.refusals + r.refusals,
        }),
        { requests: 0, inputTokens: 0, outputTokens: 0, refusals: 0 },
      );
      return { total, breakdown };
    },

    async rollUp() {
      if (Date.now() - partitionsCheckedAt > 3_600_000) {
        // PostgreSQL's monthly partitions: the next months exist before their first row arrives.
        partitionsCheckedAt = Date.now();
        // A month whose rows already sit in the default partition cannot get its own (PostgreSQL refuses): those rows
        // stay in the default partition, and the rollup below must go on regardless.
        await ensureUsagePartitions(knex, new Date()).catch(() => undefined);
      }
      let total = 0;
      for (;;) {
        let n: number;
        try {
          const { rows } = (await knex.raw(ROLLUP_SQL, [ROLLUP_BATCH])) as { rows: Array<{ n: number }> };
          n = Number(rows[0]!.n);
        } catch (err) {
          if ((err as { code?: string }).code === '40P01') continue; // two replicas' upserts met in opposite orders
          throw err;
        }
        total += n;
        if (n < ROLLUP_BATCH) return total;
      }
    },

    async tokensUsed(orgId, from, to) {
      const row = await knex('usage_events')
        .where({ org_id: orgId })
        .whereNot({ state: 'reserved' })
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .first(knex.raw('coalesce(sum(input_tokens + output_tokens), 0)::int8 as n'));
      return Number((row as { n: number }).n);
    },
  };
}
