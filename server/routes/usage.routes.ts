import { z } from 'zod';
import type { UsageService } from '../services/usage-service.js';
import { DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS } from '../services/usage-service.js';
import { unwrap } from '../services/service-result.js';
import { defineRoute, type Route } from '../http/route.js';
import { Timestamp } from '../http/schemas.js';

const Instant = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: 'must be an ISO 8601 date (2026-01-31) or date-time (2026-01-31T12:00:00Z)' })
  .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v))
  .optional();

const Totals = { requests: z.number().int(), input_tokens: z.number().int(), output_tokens: z.number().int(), refusals: z.number().int() };
const GROUP_FIELD = { day: 'day', key: 'key_id', model: 'model', mode: 'mode' } as const;

const UsageReport = z
  .strictObject({
    from: Timestamp,
    to: Timestamp,
    group_by: z.enum(['day', 'key', 'model', 'mode']),
    total: z.strictObject(Totals),
    breakdown: z.array(
      z.object({ ...Totals, day: z.string().optional(), key_id: z.string().nullable().optional(), model: z.string().optional(), mode: z.string().optional() }).meta({
        description: 'Totals plus the group: `day` (UTC, YYYY-MM-DD), `key_id`, `model` or `mode`. Groups without requests are omitted.',
      }),
    ),
  })
  .meta({ id: 'UsageReport' });

/** GET /usage. */
export function usageRoutes(usage: UsageService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/usage',
      operationId: 'getUsage',
      summary: 'Token usage and its breakdown',
      description: `Requests in [from, to): \`to\` defaults to now, \`from\` to midnight UTC ${DEFAULT_USAGE_DAYS} days before \`to\`'s day; at most ${MAX_USAGE_DAYS} days. Refusals count as requests and in \`refusals\`.`,
      tags: ['Usage'],
      auth: { kind: 'jwt', permission: 'usage:read' },
      query: z.object({ from: Instant, to: Instant, group_by: z.enum(['day', 'key', 'model', 'mode']).default('day') }),
      responses: { 200: { description: 'The report.', schema: UsageReport } },
      async handler({ auth, query }) {
        const report = unwrap(await usage.report(auth, { from: query.from, to: query.to, groupBy: query.group_by }));
        const field = GROUP_FIELD[query.group_by];
        const totals = (t: { requests: number; inputTokens: number; outputTokens: number; refusals: number }) => ({
          requests: t.requests,
          input_tokens: t.inputTokens,
          output_tokens: t.outputTokens,
          refusals: t.refusals,
        });
        return {
          status: 200,
          body: {
            from: report.from.toISOString(),
            to: report.to.toISOString(),
            group_by: query.group_by,
            total: totals(report.total),
            breakdown: report.breakdown.map((row) => ({ [field]: row.group, ...totals(row) })),
          },
        };
      },
    }),
  ];
}
