import type { Knex } from 'knex';
import type { LoggedQuestion, QuestionMode, QuestionOutcome } from '../../core/insights/index.js';
import type { CoverageGap, QuestionFilter, QuestionGroup, QuestionLogPort } from '../../core/ports/question-log.port.js';
import type { Citation } from '../../core/sources.js';
import { embeddedWorkerOf } from './knex-database.js';

interface Row {
  id: string;
  org_id: string;
  key_id: string | null;
  message_id: string;
  conversation_id: string;
  created_at: Date;
  page_url: string | null;
  mode: QuestionMode;
  model: string | null;
  outcome: QuestionOutcome;
  error_code: string | null;
  question: string;
  answer: string | null;
  citations: Citation[] | string;
  latency_ms: number | null;
  source: 'server' | 'sdk';
  rating: 'up' | 'down' | null;
  comment: string | null;
  rated_at: Date | null;
}

interface GroupRow {
  question_hash: string;
  example: string;
  total: number;
  answered: number;
  not_found: number;
  refused: number;
  errors: number;
  thumbs_up: number;
  thumbs_down: number;
  last_seen_at: Date;
}

const COLUMNS = ['id', 'org_id', 'key_id', 'message_id', 'conversation_id', 'created_at', 'page_url', 'mode', 'model', 'outcome', 'error_code', 'question', 'answer', 'citations', 'latency_ms', 'source', 'rating', 'comment', 'rated_at'];
/** Rows per chunk when streaming an export. */
const STREAM_CHUNK = 2_000;

/** The logged rows of a batch, from one JSON parameter. */
const BATCH_ROWS = `jsonb_to_recordset(?::jsonb) as v(id text, org_id text, key_id text, message_id text, conversation_id text, created_at timestamptz,
                page_url text, mode text, model text, outcome text, error_code text, question text, question_hash text, answer text,
                citations jsonb, latency_ms int, source text)`;
/** Only questions of keys still live (a key deleted meanwhile deleted its rows: none may come back). */
const LIVE_KEY = 'v.key_id is null or exists (select 1 from api_keys k where k.id = v.key_id and k.revoked_at is null)';
const INSERT_QUESTIONS = `insert into question_log as l (id, org_id, key_id, message_id, conversation_id, created_at, page_url, mode, model, outcome, error_code,
                                question, question_hash, answer, citations, latency_ms, source)
 select v.id, v.org_id, v.key_id, v.message_id, v.conversation_id, v.created_at, v.page_url, v.mode, v.model, v.outcome, v.error_code,
        v.question, v.question_hash, v.answer, coalesce(v.citations, '[]'::jsonb), v.latency_ms, v.source
   from ${BATCH_ROWS}
  where ${LIVE_KEY}
 on conflict (org_id, message_id) do nothing`;
/**
 * A visitor's vote stored before its question (a row without `question`) takes the question's facts. Run over the
 * whole batch when the insert wrote fewer rows than it was given: only vote-only rows match.
 */
const COMPLETE_VOTES = `update question_log as l set
   conversation_id = v.conversation_id, created_at = v.created_at, page_url = v.page_url, mode = v.mode, model = v.model, outcome = v.outcome,
   error_code = v.error_code, question = v.question, question_hash = v.question_hash, answer = v.answer,
   citations = coalesce(v.citations, '[]'::jsonb), latency_ms = v.latency_ms, source = v.source
  from ${BATCH_ROWS}
 where l.org_id = v.org_id and l.message_id = v.message_id and l.question is null and (${LIVE_KEY})
 returning l.id`;

const toQuestion = (r: Row): LoggedQuestion => ({
  id: r.id,
  orgId: r.org_id,
  keyId: r.key_id,
  messageId: r.message_id,
  conversationId: r.conversation_id,
  createdAt: new Date(r.created_at),
  pageUrl: r.page_url,
  mode: r.mode,
  model: r.model,
  outcome: r.outcome,
  errorCode: r.error_code,
  question: r.question,
  answer: r.answer,
  citations: typeof r.citations === 'string' ? (JSON.parse(r.citations) as Citation[]) : r.citations,
  latencyMs: r.latency_ms,
  source: r.source,
  rating: r.rating,
  comment: r.comment,
  ratedAt: r.rated_at ? new Date(r.rated_at) : null,
});

const toGroup = (r: GroupRow): QuestionGroup => ({
  questionHash: r.question_hash,
  example: r.example,
  total: Number(r.total),
  answered: Number(r.answered),
  notFound: Number(r.not_found),
  refused: Number(r.refused),
  errors: Number(r.errors),
  thumbsUp: Number(r.thumbs_up),
  thumbsDown: Number(r.thumbs_down),
  lastSeenAt: new Date(r.last_seen_at),
});

const day = (d: Date): string => d.toISOString().slice(0, 10);
/** The first UTC day not before `d`'s instant, so [from, to) in days covers the same instants as in time. */
const dayCeil = (d: Date): string => day(new Date(Math.ceil(d.getTime() / 86_400_000) * 86_400_000));

/**
 * Runs one self-contained statement (its own transaction; never call it inside a knex transaction) and returns the
 * number of rows it wrote: on the embedded
 * database as a named prepared statement queued straight in its worker thread (parsed and planned once per thread,
 * see PgliteWorkerClient.queryPrepared), on PostgreSQL through knex.
 */
function createStatementRunner(knex: Knex): (name: string, sql: string, bindings: readonly Knex.Value[]) => Promise<number> {
  const worker = embeddedWorkerOf(knex);
  const texts = new Map<string, string>();
  return async (name, sql, bindings) => {
    if (!worker) return ((await knex.raw(sql, [...bindings])) as { rowCount: number | null }).rowCount ?? 0;
    let text = texts.get(name);
    if (text === undefined) {
      let n = 0;
      text = sql.replace(/\?/g, () => `$${++n}`);
      texts.set(name, text);
    }
    return (await worker.queryPrepared(name, text, bindings)).affectedRows ?? 0;
  };
}

/** Question log, counts and group summaries on PostgreSQL or PGlite through knex. */
export function createPgQuestionLogStore(knex: Knex): QuestionLogPort {
  const run = createStatementRunner(knex);
  function filtered(orgId: string, filter: QuestionFilter): Knex.QueryBuilder {
    const q = knex<Row>('question_log').where({ org_id: orgId }).whereNotNull('question');
    if (filter.from) q.where('created_at', '>=', filter.from);
    if (filter.to) q.where('created_at', '<', filter.to);
    if (filter.keyId) q.where({ key_id: filter.keyId });
    if (filter.outcome) q.where({ outcome: filter.outcome });
    if (filter.mode) q.where({ mode: filter.mode });
    if (filter.page) q.where({ page_url: filter.page });
    if (filter.rating) q.where({ rating: filter.rating });
    if (filter.conversationId) q.where({ conversation_id: filter.conversationId });
    if (filter.search) q.whereRaw("search @@ plainto_tsquery('simple', ?)", [filter.search]);
    return q;
  }

  async function page(orgId: string, filter: QuestionFilter, limit: number, after: { createdAt: Date; id: string } | null): Promise<Row[]> {
    const q = filtered(orgId, filter);
    if (after) q.whereRaw('(created_at, id) < (?, ?)', [after.createdAt, after.id]);
    return (await q.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit).select(COLUMNS)) as Row[];
  }

  /**
   * Groups over whole UTC days (`from`'s day through the day before `to`'s end, as `daily`), summed from the per-day
   * summary; the example text is the group's newest question (from `question_groups`).
   */
  async function dayGroups(orgId: string, query: { from?: Date | undefined; to?: Date | undefined; keyId?: string | undefined }, gapsOnly: boolean, limit: number): Promise<GroupRow[]> {
    const where: string[] = ['org_id = ?'];
    const args: Knex.Value[] = [orgId];
    if (query.from) where.push('day >= ?'), args.push(day(query.from));
    if (query.to) where.push('day < ?'), args.push(dayCeil(query.to));
    if (query.keyId) where.push('key_id = ?'), args.push(query.keyId);
    // A gap's score is `question_groups.gaps` (migration 0009): refused + not found + thumbs down.
    const score = gapsOnly ? 'sum(refused) + sum(not_found) + sum(thumbs_down)' : 'sum(total)';
    const { rows } = (await knex.raw(
      `with top as (
         select question_hash, sum(total)::int8 as total, sum(answered)::int8 as answered, sum(not_found)::int8 as not_found, sum(refused)::int8 as refused, sum(errors)::int8 as errors,
                sum(thumbs_up)::int8 as thumbs_up, sum(thumbs_down)::int8 as thumbs_down, max(last_seen_at) as last_seen_at, ${score} as score
           from question_day_groups where ${where.join(' and ')}
          group by question_hash having ${score} > 0
          order by score desc, question_hash limit ?)
       select top.*, g.example from top join question_groups g on g.org_id = ? and g.question_hash = top.question_hash
        order by top.score desc, top.question_hash`,
      [...args, limit, orgId],
    )) as { rows: GroupRow[] };
    return rows;
  }

  const filtersGiven = (q: { from?: Date | undefined; to?: Date | undefined; keyId?: string | undefined }) => q.from !== undefined || q.to !== undefined || q.keyId !== undefined;

  return {
    async insertQuestions(entries) {
      if (entries.length === 0) return 0;
      const seen = new Set<string>();
      const rows = [];
      for (const e of entries) {
        const id = `${e.orgId}\u0000${e.messageId}`;
        if (seen.has(id)) continue;
        seen.add(id);
        rows.push({
          id: e.id, org_id: e.orgId, key_id: e.keyId, message_id: e.messageId, conversation_id: e.conversationId, created_at: e.createdAt.toISOString(),
          page_url: e.pageUrl, mode: e.mode, model: e.model, outcome: e.outcome, error_code: e.errorCode, question: e.question, question_hash: e.questionHash,
          answer: e.answer, citations: e.citations, latency_ms: e.latencyMs, source: e.source,
        });
      }
      // New questions in one INSERT … DO NOTHING (only the insert trigger runs); answers rated before their question
      // arrived left a vote-only row, completed by a second statement when there are any (migration 0008).
      const payload = JSON.stringify(rows);
      const inserted = await run('kit_question_log_insert_v2', INSERT_QUESTIONS, [payload]);
      if (inserted === rows.length) return inserted;
      const { rows: completed } = (await knex.raw(COMPLETE_VOTES, [payload])) as { rows: unknown[] };
      return inserted + completed.length;
    },

    async addCounts(counts) {
      if (counts.length === 0) return;
      const sums = new Map<string, { org_id: string; day: string; key_id: string; page: string; mode: string; outcome: string; questions: number }>();
      for (const c of counts) {
        const row = { org_id: c.orgId, day: c.day, key_id: c.keyId ?? '', page: c.page ?? '', mode: c.mode, outcome: c.outcome, questions: 0 };
        const id = [row.org_id, row.day, row.key_id, row.page, row.mode, row.outcome].join('\u0000');
        const sum = sums.get(id) ?? row;
        sum.questions += c.questions;
        sums.set(id, sum);
      }
      // The counts and their totals without the page (what the daily chart reads) in one statement.
      await knex.raw(
        `with v as (
           select v.org_id, v.day, v.key_id, v.page, v.mode, v.outcome, v.questions
             from jsonb_to_recordset(?::jsonb) as v(org_id text, day date, key_id text, page text, mode text, outcome text, questions int)
            where v.key_id = '' or exists (select 1 from api_keys k where k.id = v.key_id and k.revoked_at is null)),
         d as (
           insert into question_daily as d (org_id, day, key_id, page, mode, outcome, questions)
           select org_id, day, key_id, page, mode, outcome, questions from v
           on conflict (org_id, day, key_id, page, mode, outcome) do update set questions = d.questions + excluded.questions)
         insert into question_daily_totals as t (org_id, day, key_id, mode, outcome, questions)
         select org_id, day, key_id, mode, outcome, sum(questions) from v group by 1, 2, 3, 4, 5
         on conflict (org_id, day, key_id, mode, outcome) do update set questions = t.questions + excluded.questions`,
        [JSON.stringify([...sums.values()])],
      );
    },

    async rate({ orgId, keyId, messageId, rating, comment, at, newId }) {
      const { rows } = (await knex.raw(
        `insert into question_log as l (id, org_id, key_id, message_id, conversation_id, created_at, rating, comment, rated_at)
         select ?, ?, ?, ?, ?, ?, ?, ?, ?
          where ?::text is null or exists (select 1 from api_keys k where k.id = ? and k.revoked_at is null)
         on conflict (org_id, message_id) do update set rating = excluded.rating, comment = excluded.comment, rated_at = excluded.rated_at
         returning (l.question is not null) as logged`,
        [newId, orgId, keyId, messageId, messageId, at, rating, comment, at, keyId, keyId],
      )) as { rows: Array<{ logged: boolean }> };
      if (rows.length === 0) return 'unchanged';
      return rows[0]!.logged ? 'rated_question' : 'stored_vote';
    },

    async list(orgId, filter, request) {
      let after: { createdAt: Date; id: string } | null = null;
      if (request.startingAfter !== undefined) {
        const cursor = await knex<Row>('question_log').where({ org_id: orgId, id: request.startingAfter }).whereNotNull('question').first('created_at', 'id');
        if (!cursor) return 'bad_cursor';
        after = { createdAt: cursor.created_at, id: cursor.id };
      }
      const rows = await page(orgId, filter, request.limit + 1, after);
      return { data: rows.slice(0, request.limit).map(toQuestion), hasMore: rows.length > request.limit };
    },

    async get(orgId, id) {
      const row = (await knex<Row>('question_log').where({ org_id: orgId, id }).whereNotNull('question').first(COLUMNS)) as Row | undefined;
      return row ? toQuestion(row) : null;
    },

    async *stream(orgId, filter) {
      let after: { createdAt: Date; id: string } | null = null;
      for (;;) {
        const rows = await page(orgId, filter, STREAM_CHUNK, after);
        for (const r of rows) yield toQuestion(r);
        if (rows.length < STREAM_CHUNK) return;
        const last = rows[rows.length - 1]!;
        after = { createdAt: last.created_at, id: last.id };
      }
    },

    async deleteConversation(orgId, conversationId) {
      // Counted before deleting, in one transaction: knex-pglite answers a DELETE on a table with statement triggers with
      // a raw result object instead of the row count.
      return knex.transaction(async (trx) => {
        const where = { org_id: orgId, conversation_id: conversationId };
        const row = (await trx('question_log').where(where).count<{ n: number }[]>({ n: '*' }))[0]!;
        if (Number(row.n) > 0) await trx('question_log').where(where).delete();
        return Number(row.n);
      });
    },

    async topQuestions(orgId, query) {
      if (filtersGiven(query)) return (await dayGroups(orgId, query, false, query.limit)).map(toGroup);
      const rows = (await knex('question_groups')
        .where({ org_id: orgId })
        .where('total', '>', 0)
        .orderBy([{ column: 'total', order: 'desc' }, { column: 'question_hash', order: 'asc' }])
        .limit(query.limit)
        .select('question_hash', 'example', 'total', 'answered', 'not_found', 'refused', 'errors', 'thumbs_up', 'thumbs_down', 'last_seen_at')) as GroupRow[];
      return rows.map(toGroup);
    },

    async coverageGaps(orgId, query) {
      const filtered = filtersGiven(query);
      const groups = filtered
        ? (await dayGroups(orgId, query, true, query.limit)).map(toGroup)
        : ((await knex('question_groups')
            .where({ org_id: orgId })
            .where('gaps', '>', 0)
            .orderBy([{ column: 'gaps', order: 'desc' }, { column: 'question_hash', order: 'asc' }])
            .limit(query.limit)
            .select('question_hash', 'example', 'total', 'answered', 'not_found', 'refused', 'errors', 'thumbs_up', 'thumbs_down', 'last_seen_at')) as GroupRow[]).map(toGroup);
      if (groups.length === 0) return [];
      // Pages from the summaries: all-time ones without filters, else the per-day ones over the same whole days.
      const where: string[] = [];
      const args: Knex.Value[] = [];
      if (query.from) where.push('and p.day >= ?'), args.push(day(query.from));
      if (query.to) where.push('and p.day < ?'), args.push(dayCeil(query.to));
      if (query.keyId) where.push('and p.key_id = ?'), args.push(query.keyId);
      const source = filtered
        ? `select p.page, sum(p.n)::int8 as n from question_day_gap_pages p
            where p.org_id = ? and p.question_hash = g.question_hash ${where.join(' ')} group by p.page`
        : 'select p.page, p.n::int8 as n from question_gap_pages p where p.org_id = ? and p.question_hash = g.question_hash';
      const { rows } = (await knex.raw(
        `select g.question_hash, t.page, t.n from unnest(?::text[]) as g(question_hash)
         cross join lateral (select s.page, s.n from (${source}) s where s.n > 0 order by s.n desc, s.page limit ?) t`,
        [groups.map((g) => g.questionHash), orgId, ...args, query.pagesPerGap],
      )) as { rows: Array<{ question_hash: string; page: string; n: number }> };
      const pages = new Map<string, Array<{ url: string | null; count: number }>>();
      for (const r of rows) pages.set(r.question_hash, [...(pages.get(r.question_hash) ?? []), { url: r.page === '' ? null : r.page, count: Number(r.n) }]);
      return groups.map((g): CoverageGap => ({ ...g, pages: pages.get(g.questionHash) ?? [] }));
    },

    async daily(orgId, range) {
      const q = knex('question_daily_totals')
        .where({ org_id: orgId })
        .where('day', '>=', day(range.from))
        .where('day', '<', dayCeil(range.to));
      if (range.keyId) q.where({ key_id: range.keyId });
      const rows = (await q
        .groupByRaw('1, 2, 3')
        .orderByRaw('1, 2, 3')
        .select(knex.raw("to_char(day, 'YYYY-MM-DD') as day"), 'mode', 'outcome', knex.raw('sum(questions)::int8 as questions'))) as Array<{ day: string; mode: QuestionMode; outcome: QuestionOutcome; questions: number }>;
      return rows.map((r) => ({ day: r.day, mode: r.mode, outcome: r.outcome, questions: Number(r.questions) }));
    },

    async dailyFeedback(orgId, range) {
      const q = knex('question_day_votes')
        .where({ org_id: orgId })
        .where('day', '>=', day(range.from))
        .where('day', '<', dayCeil(range.to));
      if (range.keyId) q.where({ key_id: range.keyId });
      const rows = (await q
        .groupByRaw('1')
        .having(knex.raw('sum(up) + sum(down) > 0'))
        .orderByRaw('1')
        .select(knex.raw("to_char(day, 'YYYY-MM-DD') as day"), knex.raw('sum(up)::int8 as up'), knex.raw('sum(down)::int8 as down'))) as Array<{ day: string; up: number; down: number }>;
      return rows.map((r) => ({ day: r.day, up: Number(r.up), down: Number(r.down) }));
    },

    async purge(now, { defaultDays, countDays, batch }) {
      let questions = 0;
      for (;;) {
        // Ids first, then the delete (see deleteConversation for why the DELETE's own count is not used). The shortest
        // possible retention (1 day) bounds the index scan; each organisation's own retention is applied per row.
        const { rows } = (await knex.raw(
          `select q.id from question_log q left join question_logging s on s.org_id = q.org_id
            where q.created_at < ?::timestamptz - interval '1 day'
              and q.created_at < ?::timestamptz - make_interval(days => coalesce(s.retention_days, ?))
            limit ?`,
          [now, now, defaultDays, batch],
        )) as { rows: Array<{ id: string }> };
        if (rows.length > 0) await knex('question_log').whereIn('id', rows.map((r) => r.id)).delete();
        questions += rows.length;
        if (rows.length < batch) break;
      }
      const before = day(new Date(now.getTime() - countDays * 86_400_000));
      const stale = (await knex('question_daily').where('day', '<', before).count<{ n: number }[]>({ n: '*' }))[0]!;
      if (Number(stale.n) > 0) await knex('question_daily').where('day', '<', before).delete();
      await knex('question_daily_totals').where('day', '<', before).delete();
      const counts = Number(stale.n);
      return { questions, counts };
    },
  };
}
