import { expect } from 'chai';
import type { Knex } from 'knex';
import { migrateToLatest } from '../../../adapters/node/migrations/index.js';
import { createPgQuestionLogStore } from '../../../adapters/node/pg-question-log-store.js';
import type { QuestionLogEntry, QuestionLogPort } from '../../../core/ports/question-log.port.js';
import { newId } from '../../../server/ids.js';
import { newQuestionId } from '../../../server/services/question-log-service.js';
import { describeOnEachDatabase } from '../../support/databases.js';

/**
 * Migration 0007's per-day summaries (with 0009's `not_found` counts and gaps) against the log itself: after logging, votes (before and after their question),
 * a conversation's deletion, a key's deletion and the retention purge, (1) every summary table equals the same
 * aggregate computed from `question_log` / `question_daily`, and (2) top questions, coverage gaps and the daily counts
 * (read from the summaries) equal a query on the raw tables over the same whole UTC days.
 */
describeOnEachDatabase('insight day summaries', (db) => {
  const DAY = 86_400_000;
  const base = Date.UTC(2026, 9, 1);
  let knex: Knex;
  let store: QuestionLogPort;
  let orgId: string;
  let keys: string[];
  let rand: () => number;

  before(async () => {
    knex = db().knex;
    await migrateToLatest(knex);
    store = createPgQuestionLogStore(knex);
    orgId = newId('org');
    await knex('organizations').insert({ id: orgId, name: 'day summaries', tier: 'business', created_at: new Date(base) });
    keys = [newId('key'), newId('key')];
    for (const id of keys) {
      await knex('api_keys').insert({ id, org_id: orgId, kind: 'secret', name: id, prefix: 'kit_sec_', last4: 'abcd', hash: id, created_at: new Date(base) });
    }
    let seed = 42;
    rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  });

  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

  function entries(n: number, startMs: number, spanDays: number): QuestionLogEntry[] {
    return Array.from({ length: n }, () => {
      const hash = `h${Math.floor(rand() * rand() * 12)}`;
      const messageId = newId('req');
      return {
        id: newQuestionId(), orgId, keyId: pick([keys[0]!, keys[1]!, null]), messageId, conversationId: `cnv_${Math.floor(rand() * 30)}`,
        createdAt: new Date(startMs + Math.floor(rand() * spanDays * DAY)), pageUrl: pick(['https://a.example/1', 'https://a.example/2', 'https://a.example/3', null]),
        mode: pick(['local', 'remote', 'extractive'] as const), model: null, outcome: pick(['answered', 'answered', 'not_found', 'refused', 'error'] as const), errorCode: null,
        question: `question ${hash} ${messageId}`, questionHash: hash, answer: null, citations: [], latencyMs: 10, source: 'server' as const,
      };
    });
  }

  /** Each summary table, and the same aggregate over the raw rows: must be equal. */
  async function expectSummariesMatchLog(): Promise<void> {
    const day = "to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')";
    const pairs: Array<[string, string, string]> = [
      [
        'question_day_groups',
        `select to_char(day, 'YYYY-MM-DD') as day, key_id, question_hash, total, answered, not_found, refused, errors, thumbs_up, thumbs_down, last_seen_at from question_day_groups where org_id = ? order by 1, 2, 3`,
        `select ${day} as day, coalesce(key_id, '') as key_id, question_hash, count(*)::int as total, (count(*) filter (where outcome = 'answered'))::int as answered,
                (count(*) filter (where outcome = 'not_found'))::int as not_found,
                (count(*) filter (where outcome = 'refused'))::int as refused, (count(*) filter (where outcome = 'error'))::int as errors,
                (count(*) filter (where rating = 'up'))::int as thumbs_up, (count(*) filter (where rating = 'down'))::int as thumbs_down, max(created_at) as last_seen_at
           from question_log where org_id = ? and question is not null group by 1, 2, 3 order by 1, 2, 3`,
      ],
      [
        'question_day_gap_pages',
        `select question_hash, to_char(day, 'YYYY-MM-DD') as day, key_id, page, n from question_day_gap_pages where org_id = ? order by 1, 2, 3, 4`,
        `select question_hash, ${day} as day, coalesce(key_id, '') as key_id, coalesce(page_url, '') as page, count(*)::int as n
           from question_log where org_id = ? and question is not null and (outcome in ('refused', 'not_found') or rating = 'down') group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
      ],
      [
        'question_gap_pages',
        'select question_hash, page, n from question_gap_pages where org_id = ? order by 1, 2',
        `select question_hash, coalesce(page_url, '') as page, count(*)::int as n
           from question_log where org_id = ? and question is not null and (outcome in ('refused', 'not_found') or rating = 'down') group by 1, 2 order by 1, 2`,
      ],
      [
        'question_day_votes',
        `select to_char(day, 'YYYY-MM-DD') as day, key_id, up, down from question_day_votes where org_id = ? order by 1, 2`,
        `select to_char(rated_at at time zone 'UTC', 'YYYY-MM-DD') as day, coalesce(key_id, '') as key_id, (count(*) filter (where rating = 'up'))::int as up,
                (count(*) filter (where rating = 'down'))::int as down from question_log where org_id = ? and rating is not null group by 1, 2 order by 1, 2`,
      ],
      [
        'question_daily_totals',
        `select to_char(day, 'YYYY-MM-DD') as day, key_id, mode, outcome, questions from question_daily_totals where org_id = ? order by 1, 2, 3, 4`,
        `select to_char(day, 'YYYY-MM-DD') as day, key_id, mode, outcome, sum(questions)::int as questions from question_daily where org_id = ? group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
      ],
    ];
    for (const [table, summary, raw] of pairs) {
      const norm = (rows: Array<Record<string, unknown>>) => rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : typeof v === 'string' || v === null ? v : Number(v)])));
      const got = norm(((await knex.raw(summary, [orgId])) as { rows: Array<Record<string, unknown>> }).rows);
      const want = norm(((await knex.raw(raw, [orgId])) as { rows: Array<Record<string, unknown>> }).rows);
      expect(got, table).to.deep.equal(want);
    }
  }

  const dayStart = (d: Date) => new Date(Math.floor(d.getTime() / DAY) * DAY);
  const dayEnd = (d: Date) => new Date(Math.ceil(d.getTime() / DAY) * DAY);

  /** The insight answers (from the summaries) against queries on the raw log over the same whole days. */
  async function expectAnswersMatchLog(range: { from?: Date; to?: Date; keyId?: string }): Promise<void> {
    const where = ['org_id = ?', 'question is not null'];
    const args: Knex.Value[] = [orgId];
    if (range.from) where.push('created_at >= ?'), args.push(dayStart(range.from));
    if (range.to) where.push('created_at < ?'), args.push(dayEnd(range.to));
    if (range.keyId) where.push('key_id = ?'), args.push(range.keyId);
    const { rows: groups } = (await knex.raw(
      `select question_hash, count(*)::int as total, (count(*) filter (where outcome = 'answered'))::int as answered, (count(*) filter (where outcome = 'not_found'))::int as not_found,
              (count(*) filter (where outcome = 'refused'))::int as refused,
              (count(*) filter (where outcome = 'error'))::int as errors, (count(*) filter (where rating = 'up'))::int as up, (count(*) filter (where rating = 'down'))::int as down,
              max(created_at) as last_seen_at,
              (select q.question from question_log q where q.org_id = l.org_id and q.question_hash = l.question_hash and q.question is not null order by q.created_at desc, q.id desc limit 1) as example
         from question_log l where ${where.join(' and ')} group by l.org_id, question_hash`,
      args,
    )) as { rows: Array<{ question_hash: string; total: number; answered: number; not_found: number; refused: number; errors: number; up: number; down: number; last_seen_at: Date; example: string }> };
    const asGroup = (g: (typeof groups)[number]) => ({
      questionHash: g.question_hash, example: g.example, total: g.total, answered: g.answered, notFound: g.not_found, refused: g.refused, errors: g.errors,
      thumbsUp: g.up, thumbsDown: g.down, lastSeenAt: new Date(g.last_seen_at).toISOString(),
    });
    const byScore = (score: (g: (typeof groups)[number]) => number) => groups.filter((g) => score(g) > 0).sort((a, b) => score(b) - score(a) || (a.question_hash < b.question_hash ? -1 : 1)).map(asGroup);
    const iso = <T extends { lastSeenAt: Date }>(g: T) => ({ ...g, lastSeenAt: g.lastSeenAt.toISOString() });
    const query = { from: range.from, to: range.to, keyId: range.keyId, limit: 100 };
    expect((await store.topQuestions(orgId, query)).map(iso), 'top questions').to.deep.equal(byScore((g) => g.total));
    const gaps = await store.coverageGaps(orgId, { ...query, pagesPerGap: 5 });
    expect(gaps.map(({ pages: _, ...g }) => iso(g)), 'coverage gaps').to.deep.equal(byScore((g) => g.refused + g.not_found + g.down));
    for (const gap of gaps) {
      const { rows: pages } = (await knex.raw(
        `select page_url as url, count(*)::int as count from question_log where ${where.join(' and ')} and question_hash = ? and (outcome in ('refused', 'not_found') or rating = 'down')
          group by page_url order by count(*) desc, coalesce(page_url, '') limit 5`,
        [...args, gap.questionHash],
      )) as { rows: Array<{ url: string | null; count: number }> };
      expect(gap.pages, `pages of ${gap.questionHash}`).to.deep.equal(pages);
    }
    if (range.from && range.to) {
      const { rows: votes } = (await knex.raw(
        `select to_char(rated_at at time zone 'UTC', 'YYYY-MM-DD') as day, (count(*) filter (where rating = 'up'))::int as up, (count(*) filter (where rating = 'down'))::int as down
           from question_log where org_id = ? and rating is not null and rated_at >= ? and rated_at < ? ${range.keyId ? 'and key_id = ?' : ''} group by 1 order by 1`,
        [orgId, dayStart(range.from), dayEnd(range.to), ...(range.keyId ? [range.keyId] : [])],
      )) as { rows: Array<{ day: string; up: number; down: number }> };
      expect(await store.dailyFeedback(orgId, { from: range.from, to: range.to, keyId: range.keyId }), 'daily votes').to.deep.equal(votes);
      const { rows: counts } = (await knex.raw(
        `select to_char(day, 'YYYY-MM-DD') as day, mode, outcome, sum(questions)::int as questions from question_daily
          where org_id = ? and day >= ? and day < ? ${range.keyId ? 'and key_id = ?' : ''} group by 1, 2, 3 order by 1, 2, 3`,
        [orgId, dayStart(range.from).toISOString().slice(0, 10), dayEnd(range.to).toISOString().slice(0, 10), ...(range.keyId ? [range.keyId] : [])],
      )) as { rows: Array<{ day: string; mode: string; outcome: string; questions: number }> };
      expect(await store.daily(orgId, { from: range.from, to: range.to, keyId: range.keyId }), 'daily counts').to.deep.equal(counts);
    }
  }

  const ranges = () => [
    {},
    { from: new Date(base + 2.5 * DAY) },
    { from: new Date(base + 1.2 * DAY), to: new Date(base + 4.7 * DAY) },
    { from: new Date(base + DAY), to: new Date(base + 3 * DAY), keyId: keys[0]! },
    { keyId: keys[1]! },
    { from: new Date(base - 10 * DAY), to: new Date(base + 20 * DAY) },
  ];

  async function checkAll(): Promise<void> {
    await expectSummariesMatchLog();
    for (const range of ranges()) await expectAnswersMatchLog(range);
  }

  it('logging in batches, counts and votes (before and after their question, changed votes) keep every summary equal to the log', async function () {
    this.timeout(60_000);
    const first = entries(300, base, 6);
    // A vote arrives before its question (the SDK's beacon may be late): the question then joins it.
    const early = first.slice(0, 15);
    for (const e of early) await store.rate({ orgId, keyId: e.keyId, messageId: e.messageId, rating: pick(['up', 'down'] as const), comment: null, at: new Date(e.createdAt.getTime() + 3_600_000), newId: newQuestionId() });
    for (let i = 0; i < first.length; i += 70) expect(await store.insertQuestions(first.slice(i, i + 70))).to.equal(first.slice(i, i + 70).length);
    // Votes, then changed votes, across day boundaries of rated_at.
    for (const e of first.slice(20, 120)) await store.rate({ orgId, keyId: e.keyId, messageId: e.messageId, rating: pick(['up', 'down'] as const), comment: null, at: new Date(e.createdAt.getTime() + rand() * 2 * DAY), newId: newQuestionId() });
    for (const e of first.slice(20, 60)) await store.rate({ orgId, keyId: e.keyId, messageId: e.messageId, rating: pick(['up', 'down'] as const), comment: null, at: new Date(e.createdAt.getTime() + DAY), newId: newQuestionId() });
    // A vote on an answer whose question is never logged counts as a vote.
    await store.rate({ orgId, keyId: null, messageId: newId('req'), rating: 'down', comment: null, at: new Date(base + 2 * DAY), newId: newQuestionId() });
    await store.addCounts(first.map((e) => ({ orgId, keyId: e.keyId, day: e.createdAt.toISOString().slice(0, 10), page: e.pageUrl, mode: e.mode, outcome: e.outcome, questions: 1 })));
    await store.addCounts(first.slice(0, 50).map((e) => ({ orgId, keyId: e.keyId, day: e.createdAt.toISOString().slice(0, 10), page: null, mode: e.mode, outcome: e.outcome, questions: 2 })));
    expect(Number((await knex('question_day_groups').where({ org_id: orgId }).count<{ n: number }[]>({ n: '*' }))[0]!.n)).to.be.greaterThan(20);
    await checkAll();
  });

  it('deleting a conversation, a key and the retention purge adjust the summaries', async function () {
    this.timeout(60_000);
    const conversation = (await knex('question_log').where({ org_id: orgId }).whereNotNull('question').first('conversation_id')) as { conversation_id: string };
    expect(await store.deleteConversation(orgId, conversation.conversation_id)).to.be.greaterThan(0);
    await checkAll();

    await knex('api_keys').where({ id: keys[1] }).update({ revoked_at: new Date() });
    expect(await knex('question_log').where({ org_id: orgId, key_id: keys[1] })).to.have.length(0);
    expect(await knex('question_daily_totals').where({ org_id: orgId, key_id: keys[1] })).to.have.length(0);
    await checkAll();

    // Retention: the organisation keeps 3 days; "now" is 5.5 days after the first question, so about half goes.
    await knex('question_logging').insert({ org_id: orgId, mode: 'redacted', retention_days: 3, version: 1, updated_at: new Date() }).onConflict('org_id').merge();
    const before = Number((await knex('question_log').where({ org_id: orgId }).count<{ n: number }[]>({ n: '*' }))[0]!.n);
    const purged = await store.purge(new Date(base + 5.5 * DAY), { defaultDays: 30, countDays: 4, batch: 37 });
    expect(purged.questions).to.be.greaterThan(0).and.lessThan(before);
    expect(purged.counts).to.be.greaterThan(0);
    await checkAll();
    const oldest = (await knex('question_day_groups').where({ org_id: orgId }).min<{ d: Date }[]>({ d: 'day' }))[0]!.d;
    expect(new Date(oldest).getTime()).to.be.at.least(base + 2 * DAY);
  });

  it('deleting everything leaves no summary rows behind', async function () {
    this.timeout(60_000);
    await knex('question_log').where({ org_id: orgId }).delete();
    for (const table of ['question_day_groups', 'question_day_gap_pages', 'question_gap_pages', 'question_day_votes', 'question_groups']) {
      expect(await knex(table).where({ org_id: orgId }), table).to.have.length(0);
    }
  });
});
