import type { Knex } from 'knex';
import type { ExportRecord, OrgExportPort } from '../../core/ports/org-export.port.js';

const iso = (d: Date | null | undefined): string | null => (d ? new Date(d).toISOString() : null);
/** Rows per chunk of the question log. */
const CHUNK = 2_000;

/**
 * The organisation's data as records, table by table (issue 13 §4): the organisation, members (email, name, role —
 * no password hashes), keys (no hashes; publishable values, which are public), pending invitations (no tokens),
 * assistant and logging settings, usage per day, question counts per day, and every logged question and vote.
 */
export function createPgOrgExport(knex: Knex): OrgExportPort {
  return {
    async *records(orgId): AsyncGenerator<ExportRecord> {
      const org = await knex('organizations').where({ id: orgId }).first('id', 'name', 'tier', 'created_at');
      if (!org) return;
      yield { type: 'organization', id: org.id, name: org.name, tier: org.tier, created_at: iso(org.created_at) };
      const members = await knex('memberships as m').join('users as u', 'u.id', 'm.user_id').where({ 'm.org_id': orgId }).orderBy('m.joined_at').select('u.id', 'u.email', 'u.name', 'm.role', 'm.joined_at');
      for (const m of members) yield { type: 'member', user_id: m.id, email: m.email, name: m.name, role: m.role, joined_at: iso(m.joined_at) };
      const invitations = await knex('invitations').where({ org_id: orgId }).orderBy('created_at').select('id', 'email', 'role', 'expires_at', 'accepted_at', 'created_at');
      for (const i of invitations) yield { type: 'invitation', id: i.id, email: i.email, role: i.role, expires_at: iso(i.expires_at), accepted_at: iso(i.accepted_at), created_at: iso(i.created_at) };
      const keys = await knex('api_keys').where({ org_id: orgId }).orderBy('created_at').select('id', 'kind', 'name', 'prefix', 'last4', 'value', 'allowed_origins', 'ip_allowlist', 'created_at', 'created_by', 'last_used_at', 'expires_at', 'revoked_at');
      for (const k of keys) {
        yield {
          type: 'key', id: k.id, kind: k.kind, name: k.name, prefix: k.prefix, last4: k.last4, ...(k.value ? { value: k.value } : {}),
          allowed_origins: k.allowed_origins, ip_allowlist: k.ip_allowlist, created_at: iso(k.created_at), created_by: k.created_by,
          last_used_at: iso(k.last_used_at), expires_at: iso(k.expires_at), revoked_at: iso(k.revoked_at),
        };
      }
      for (const s of await knex('assistant_settings').where({ org_id: orgId }).orderBy('scope').select('scope', 'settings', 'version', 'updated_at', 'updated_by')) {
        yield { type: 'assistant_settings', scope: s.scope === '*' ? 'organization' : s.scope, settings: s.settings, version: s.version, updated_at: iso(s.updated_at), updated_by: s.updated_by };
      }
      const logging = await knex('question_logging').where({ org_id: orgId }).first();
      if (logging) yield { type: 'question_logging', mode: logging.mode, retention_days: logging.retention_days, keep_query_string: logging.keep_query_string, notice: logging.notice, updated_at: iso(logging.updated_at) };
      const { rows: usage } = (await knex.raw(
        `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, key_id, mode, model, count(*)::int8 as requests,
                sum(input_tokens)::int8 as input_tokens, sum(output_tokens)::int8 as output_tokens, count(*) filter (where refused)::int8 as refusals
           from usage_events where org_id = ? group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
        [orgId],
      )) as { rows: Array<Record<string, unknown>> };
      for (const u of usage) yield { type: 'usage_day', ...u };
      const counts = await knex('question_daily').where({ org_id: orgId }).orderBy(['day', 'key_id', 'page', 'mode', 'outcome']).select(knex.raw("to_char(day, 'YYYY-MM-DD') as day"), 'key_id', 'page', 'mode', 'outcome', 'questions');
      for (const c of counts) yield { type: 'question_count', day: c.day, key_id: c.key_id || null, page: c.page || null, mode: c.mode, outcome: c.outcome, questions: c.questions };
      let after: { created_at: Date; id: string } | null = null;
      for (;;) {
        const q = knex('question_log').where({ org_id: orgId });
        if (after) q.whereRaw('(created_at, id) > (?, ?)', [after.created_at, after.id]);
        const rows = await q.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(CHUNK).select('id', 'key_id', 'message_id', 'conversation_id', 'created_at', 'page_url', 'mode', 'model', 'outcome', 'error_code', 'question', 'answer', 'citations', 'latency_ms', 'source', 'rating', 'comment', 'rated_at');
        for (const r of rows) {
          if (r.question === null) yield { type: 'vote', message_id: r.message_id, key_id: r.key_id, rating: r.rating, rated_at: iso(r.rated_at) };
          else yield { type: 'question', ...r, created_at: iso(r.created_at), rated_at: iso(r.rated_at) };
        }
        if (rows.length < CHUNK) break;
        const last = rows[rows.length - 1]!;
        after = { created_at: last.created_at, id: last.id };
      }
    },
  };
}
