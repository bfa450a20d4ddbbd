import type { Knex } from 'knex';
import { ensureUsagePartitions } from './migrations/0004-usage-partitions.js';
import type { UsageGroupBy, UsageStorePort, UsageTotals } from '../../core/ports/usage-store.port.js';

// The group of a rollup row and of a raw row, as the same type so the two can be summed together.
const ROLLUP_GROUP: Readonly<Record<UsageGroupBy, string>> = Object.freeze({ day: 'day', key: "nullif(key_id, '')", model: 'model', mode: 'mode' });
const RAW_GROUP: Readonly<Record<UsageGroupBy, string>> = Object.freeze({ day: "(created_at at time zone 'UTC')::date", key: 'key_id', model: 'model', mode: 'mode' });

type SummaryRow = { grp: string | null; requests: number; input_tokens: number; output_tokens: number; refusals: number };

const DAY_MS = 86_400_000;
const dayOf = (d: Date): string => d.toISOString().slice(0, 10);

/** Rows rolled into `usage_daily` per statement. */
export const ROLLUP_BATCH = 5_000;

/**
 * Moves settled rows not yet counted into the daily rollup, in one statement: the rows are marked `rolled` and their
 * sums added to `usage_daily` in the same transaction, so a report (one snapshot) counts each row exactly once —
 * through the rollup or as a raw row. `skip locked` lets several replicas roll at once without waiting on each other.
 */
const ROLLUP_SQL = `with m as (
    update usage_events set rolled = true
     where id in (select id from usage_events where not rolled and state <> 'reserved' order by id limit ? for update skip locked)
    returning org_id, created_at, key_id, model, mode, input_tokens, output_tokens, refused
  ),
  ins as (
    insert into usage_daily (org_id, day, key_id, model, mode, requests, input_tokens, output_tokens, refusals)
    select org_id, (created_at at time zone 'UTC')::date, coalesce(key_id, ''), model, mode,
           count(*), sum(input_tokens), sum(output_tokens), count(*) filter (where refused)
      from m group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
    on conflict (org_id, day, key_id, model, mode) do update set
      requests = usage_daily.requests + excluded.requests,
      input_tokens = usage_daily.input_tokens + excluded.input_tokens,
      output_tokens = usage_daily.output_tokens + excluded.output_tokens,
      refusals = usage_daily.refusals + excluded.refusals
    returning 1
  )
  select (select count(*) from m) as n, (select count(*) from ins) as groups`;

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
      // Whole UTC days inside [from, to) come from the rollup (plus their rows not rolled yet); the partial days at
      // the edges come from the rows themselves. Rows still reserved (chats in flight) are not reported yet.
      const firstDay = new Date(Math.ceil(range.from.getTime() / DAY_MS) * DAY_MS);
      const endDay = new Date(Math.floor(range.to.getTime() / DAY_MS) * DAY_MS);
      const hasDays = firstDay.getTime() < endDay.getTime();
      const rollup = ROLLUP_GROUP[range.groupBy];
      const raw = RAW_GROUP[range.groupBy];
      const rawColumns = `${raw} as grp, 1 as requests, input_tokens, output_tokens, case when refused then 1 else 0 end as refusals`;
      const parts: string[] = [];
      const bindings: Knex.RawBinding[] = [];
      if (hasDays) {
        parts.push(`select ${rollup} as grp, requests, input_tokens, output_tokens, refusals from usage_daily where org_id = ? and day >= cast(? as date) and day < cast(? as date)`);
        bindings.push(orgId, dayOf(firstDay), dayOf(endDay));
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
          group by r.grp order by r.grp nulls first`,
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
        await ensureUsagePartitions(knex, new Date());
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
