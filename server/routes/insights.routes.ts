import { Readable } from 'node:stream';
import { z } from 'zod';
import { QUESTION_OUTCOMES, type LoggedQuestion } from '../../core/insights/index.js';
import type { CoverageGap, QuestionGroup } from '../../core/ports/question-log.port.js';
import { defineRoute, type Route } from '../http/route.js';
import { listOf, pageQuery, prefixedId, Timestamp } from '../http/schemas.js';
import type { InsightsService } from '../services/insights-service.js';
import { unwrap } from '../services/service-result.js';

const Instant = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: 'must be an ISO 8601 date (2026-01-31) or date-time (2026-01-31T12:00:00Z)' })
  .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v))
  .optional();
const Outcome = z
  .enum(QUESTION_OUTCOMES)
  .meta({ description: '`answered`; `not_found`: the engine ran but found no answer in the pages and said so (Kit\'s built-in extractive engine; model engines never report it); `refused`: the grounding gate found the question off-topic; `error`.' });
const Mode = z.enum(['local', 'remote', 'extractive']);
const ConversationId = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a conversation id') });

const filterFields = {
  from: Instant.meta({ description: 'Asked at or after (inclusive).' }),
  to: Instant.meta({ description: 'Asked before (exclusive).' }),
  key_id: prefixedId('key').optional(),
  outcome: Outcome.optional(),
  mode: Mode.optional(),
  // NUL cannot be stored or searched in PostgreSQL text: refused here, not by the database mid-export (a 200 cut off).
  page: z.string().max(2_048, 'must be at most 2048 characters').refine((s) => !s.includes('\u0000'), 'must not contain NUL characters').optional().meta({ description: 'A page URL exactly as logged (without its query string unless the organization keeps them).' }),
  rating: z.enum(['up', 'down']).optional(),
  q: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').refine((s) => !s.includes('\u0000'), 'must not contain NUL characters').optional().meta({ description: 'Words that must all occur in the question (whole words, any case).' }),
};

const QuestionView = z
  .strictObject({
    id: z.string(),
    message_id: z.string().meta({ description: 'What feedback refers to: the `/chat` request id, or the SDK\'s message id for answers made in the browser.' }),
    conversation_id: z.string(),
    key_id: z.string().nullable(),
    created_at: Timestamp,
    page_url: z.string().nullable(),
    mode: Mode,
    model: z.string().nullable(),
    outcome: Outcome,
    error_code: z.string().nullable(),
    question: z.string().meta({ description: 'As stored: secrets and personal data masked ([REDACTED:EMAIL] …).' }),
    answer: z.string().nullable().meta({ description: 'Only with logging mode `full` (masked the same way).' }),
    citations: z.array(z.strictObject({ url: z.string(), title: z.string() })),
    latency_ms: z.number().int().nullable(),
    source: z.enum(['server', 'sdk']),
    feedback: z.strictObject({ rating: z.enum(['up', 'down']), comment: z.string().nullable(), created_at: Timestamp }).nullable(),
  })
  .meta({ id: 'LoggedQuestion' });

const GroupFields = {
  question: z.string().meta({ description: 'The newest question of the group (questions group by lower-cased text without punctuation).' }),
  count: z.number().int(),
  answered: z.number().int(),
  not_found: z.number().int().meta({ description: 'Answered with "not found on the page" (outcome `not_found`).' }),
  refused: z.number().int(),
  errors: z.number().int(),
  thumbs_up: z.number().int(),
  thumbs_down: z.number().int(),
  last_asked_at: Timestamp,
};
const TopQuestion = z.strictObject(GroupFields).meta({ id: 'TopQuestion' });
const CoverageGapView = z
  .strictObject({ ...GroupFields, pages: z.array(z.strictObject({ url: z.string().nullable(), count: z.number().int() })).meta({ description: 'Where it was refused, not found or voted down, most first (up to 5 pages), over the same days as the counts.' }) })
  .meta({ id: 'CoverageGap' });

export function questionView(q: LoggedQuestion): z.infer<typeof QuestionView> {
  return {
    id: q.id,
    message_id: q.messageId,
    conversation_id: q.conversationId,
    key_id: q.keyId,
    created_at: q.createdAt.toISOString(),
    page_url: q.pageUrl,
    mode: q.mode,
    model: q.model,
    outcome: q.outcome,
    error_code: q.errorCode,
    question: q.question,
    answer: q.answer,
    citations: q.citations.map((c) => ({ url: c.url, title: c.title })),
    latency_ms: q.latencyMs,
    source: q.source,
    feedback: q.rating ? { rating: q.rating, comment: q.comment, created_at: (q.ratedAt ?? q.createdAt).toISOString() } : null,
  };
}

const groupView = (g: QuestionGroup) => ({
  question: g.example,
  count: g.total,
  answered: g.answered,
  not_found: g.notFound,
  refused: g.refused,
  errors: g.errors,
  thumbs_up: g.thumbsUp,
  thumbs_down: g.thumbsDown,
  last_asked_at: g.lastSeenAt.toISOString(),
});

const CSV_COLUMNS = ['id', 'created_at', 'conversation_id', 'message_id', 'key_id', 'page_url', 'mode', 'model', 'outcome', 'error_code', 'question', 'answer', 'citations', 'latency_ms', 'rating', 'comment'] as const;

/**
 * One CSV field (RFC 4180). Text that a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) gets
 * a leading apostrophe: logged questions are written by strangers (OWASP "CSV injection").
 */
export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

async function* csvLines(rows: AsyncIterable<LoggedQuestion>): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  for await (const q of rows) {
    const v = questionView(q);
    const record: Record<(typeof CSV_COLUMNS)[number], unknown> = {
      ...v,
      citations: v.citations.map((c) => c.url).join(' '),
      rating: v.feedback?.rating ?? null,
      comment: v.feedback?.comment ?? null,
    };
    yield `${CSV_COLUMNS.map((c) => csvField(record[c])).join(',')}\r\n`;
  }
}

/** The question log and its insights for an organisation's members. */
export function insightsRoutes(insights: InsightsService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/questions',
      operationId: 'listQuestions',
      summary: 'List and search logged questions',
      description: 'Newest first. Only questions logged while question logging was on (redacted or full) are listed. Filters combine with AND.',
      tags: ['Insights'],
      auth: { kind: 'jwt', permission: 'insights:read' },
      query: pageQuery('qst').extend(filterFields),
      responses: { 200: { description: 'A page of questions.', schema: listOf(QuestionView) } },
      async handler({ auth, query }) {
        const { limit, starting_after, key_id, q, ...rest } = query;
        const page = unwrap(await insights.list(auth, { ...rest, keyId: key_id, search: q }, { limit, startingAfter: starting_after }));
        return { status: 200, body: { data: page.data.map(questionView), has_more: page.hasMore } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/questions/export',
      operationId: 'exportQuestions',
      summary: 'Download logged questions as CSV',
      description: `The same filters as the list; every matching question, newest first, streamed. Columns: ${CSV_COLUMNS.join(', ')}. Text a spreadsheet would run as a formula starts with an apostrophe.`,
      tags: ['Insights'],
      auth: { kind: 'jwt', permission: 'insights:read' },
      query: z.object(filterFields),
      responses: { 200: { description: 'CSV (RFC 4180, UTF-8, CRLF).', contentType: 'text/csv', schema: z.string() } },
      async handler({ auth, query, ctx }) {
        const { key_id, q, ...rest } = query;
        ctx.status = 200;
        ctx.type = 'text/csv; charset=utf-8';
        ctx.set('Content-Disposition', 'attachment; filename="kit-questions.csv"');
        ctx.set('Cache-Control', 'no-store');
        ctx.body = Readable.from(csvLines(insights.stream(auth, { ...rest, keyId: key_id, search: q })));
        return undefined;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/questions/{id}',
      operationId: 'getQuestion',
      summary: 'One logged question',
      tags: ['Insights'],
      auth: { kind: 'jwt', permission: 'insights:read' },
      params: z.object({ id: prefixedId('qst') }),
      responses: { 200: { description: 'The question.', schema: QuestionView } },
      async handler({ auth, params }) {
        return { status: 200, body: questionView(unwrap(await insights.get(auth, params.id))) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/conversations/{id}',
      operationId: 'getConversation',
      summary: "A conversation's logged questions, oldest first",
      tags: ['Insights'],
      auth: { kind: 'jwt', permission: 'insights:read' },
      params: ConversationId,
      responses: { 200: { description: 'The questions.', schema: z.strictObject({ id: z.string(), data: z.array(QuestionView) }).meta({ id: 'Conversation' }) } },
      async handler({ auth, params }) {
        const rows = unwrap(await insights.conversation(auth, params.id));
        return { status: 200, body: { id: params.id, data: rows.map(questionView) } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/conversations/{id}',
      operationId: 'deleteConversation',
      summary: 'Delete a conversation from the log',
      description: 'Deletes its questions, answers, votes and comments at once (a visitor\'s erasure request). Daily counts, which hold no text, stay.',
      tags: ['Insights'],
      auth: { kind: 'jwt', permission: 'insights:delete' },
      params: ConversationId,
      responses: { 204: { description: 'Deleted.' } },
      async handler({ auth, params }) {
        unwrap(await insights.deleteConversation(auth, params.id));
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/insights/top-questions',
      operationId: 'getTopQuestions',
      summary: 'The most asked questions',
      description: 'Grouped by normalised text (lower case, punctuation and spacing ignored). Without `from`, `to` or `key_id`: over every question still retained. With them: over whole UTC days — from the start of `from`\'s day to the end of the day before `to`, or of `to`\'s own day when `to` is not midnight (as `/insights/daily` counts) — summed from per-day summaries kept as questions are logged, rated and deleted. `last_seen_at` is the newest question of the group in those days; `example` its newest question retained.',
      tags: ['Insights'],
      auth: { kind: 'jwt', permission: 'insights:read' },
      query: z.object({ from: filterFields.from, to: filterFields.to, key_id: filterFields.key_id, limit: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(20) }),
      responses: { 200: { description: 'Most asked first.', schema: z.strictObject({ data: z.array(TopQuestion) }) } },
      async handler({ auth, query }) {
        const rows = unwrap(await insights.topQuestions(auth, { from: query.from, to: query.to, keyId: query.key_id, limit: query.limit }));
        return { status: 200, body: { data: rows.map(groupView) } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/insights/coverage-gaps',
      operationId: 'getCoverageGaps',
      summary: 'Questions the assistant could not answer well, with where they were asked',
      description: 'Groups with refusals (the grounding gate found the question off-topic), answers that found nothing on the page (`not_found`) or thumbs down, most first (by their sum), each with the pages it was asked on: the content to add or fix. `from`, `to` and `key_id` select whole UTC days as for top questions.',
      tags: ['Insights'],
      auth: { kind: 'jwt', permission: 'insights:read' },
      query: z.object({ from: filterFields.from, to: filterFields.to, key_id: filterFields.key_id, limit: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(20) }),
      responses: { 200: { description: 'Largest gaps first.', schema: z.strictObject({ data: z.array(CoverageGapView) }) } },
      async handler({ auth, query }) {
        const rows = unwrap(await insights.coverageGaps(auth, { from: query.from, to: query.to, keyId: query.key_id, limit: query.limit }));
        return { status: 200, body: { data: rows.map((g: CoverageGap) => ({ ...groupView(g), pages: g.pages.map((p) => ({ url: p.url, count: p.count })) })) } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/insights/daily',
      operationId: 'getDailyInsights',
      summary: 'Questions per day by mode and outcome, and feedback per day',
      description: 'Counted with question logging off too (no text is needed to count). Days are UTC; `from` defaults to 30 days before `to` (default now); at most 400 days.',
      tags: ['Insights'],
      auth: { kind: 'jwt', permission: 'insights:read' },
      query: z.object({ from: filterFields.from, to: filterFields.to, key_id: filterFields.key_id }),
      responses: {
        200: {
          description: 'Rows only for days with questions or votes.',
          schema: z
            .strictObject({
              from: Timestamp,
              to: Timestamp,
              questions: z.array(z.strictObject({ day: z.string(), mode: Mode, outcome: Outcome, questions: z.number().int() })),
              feedback: z.array(z.strictObject({ day: z.string(), up: z.number().int(), down: z.number().int() })),
            })
            .meta({ id: 'DailyInsights' }),
        },
      },
      async handler({ auth, query }) {
        const d = unwrap(await insights.daily(auth, { from: query.from, to: query.to, keyId: query.key_id }));
        return { status: 200, body: { from: d.from.toISOString(), to: d.to.toISOString(), questions: [...d.questions], feedback: [...d.feedback] } };
      },
    }),
  ];
}
