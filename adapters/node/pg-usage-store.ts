import type { Knex } from 'knex';
import type { UsageGroupBy, UsageStorePort, UsageTotals } from '../../core/ports/usage-store.port.js';

const GROUP_EXPRESSIONS: Readonly<Record<UsageGroupBy, string>> = Object.freeze({
  day: "to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')",
  key: 'key_id',
  model: 'model',
  mode: 'mode',
});

type SummaryRow = { grp: string | null; requests: number; input_tokens: number; output_tokens: number; refusals: number };

/** Usage-event storage on PostgreSQL or PGlite through knex. */
export function createPgUsageStore(knex: Knex): UsageStorePort {
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
        .onConflict('request_id')
        .ignore()
        .returning('id');
      return rows.length > 0 ? 'recorded' : 'duplicate';
    },

    async summarize(orgId, range) {
      const group = GROUP_EXPRESSIONS[range.groupBy];
      const { rows } = (await knex.raw(
        `select ${group} as grp, count(*)::int8 as requests,
                coalesce(sum(input_tokens), 0)::int8 as input_tokens,
                coalesce(sum(output_tokens), 0)::int8 as output_tokens,
                count(*) filter (where refused)::int8 as refusals
           from usage_events
          where org_id = ? and created_at >= ? and created_at < ?
          group by 1 order by 1 nulls first`,
        [orgId, range.from, range.to],
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

    async tokensUsed(orgId, from, to) {
      const row = await knex('usage_events')
        .where({ org_id: orgId })
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .first(knex.raw('coalesce(sum(input_tokens + output_tokens), 0)::int8 as n'));
      return Number((row as { n: number }).n);
    },
  };
}
