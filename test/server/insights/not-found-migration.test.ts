import { expect } from 'chai';
import type { Knex } from 'knex';
import { createKnexDatabase, type KnexDatabase } from '../../../adapters/node/knex-database.js';
import { createMigrationSource, MIGRATIONS, migrateToLatest } from '../../../adapters/node/migrations/index.js';
import { createPgQuestionLogStore } from '../../../adapters/node/pg-question-log-store.js';
import type { QuestionOutcome } from '../../../core/insights/index.js';
import type { QuestionLogEntry, QuestionLogPort } from '../../../core/ports/question-log.port.js';
import { newId } from '../../../server/ids.js';
import { newQuestionId } from '../../../server/services/question-log-service.js';
import { postgresAvailable } from '../../support/postgres.js';
import { testPostgres } from '../../support/databases.js';

/**
 * Migration 0009 (`not_found`) on a database that holds questions, votes and counts logged before it: the summaries
 * stay equal to the log, not-found questions logged afterwards are coverage gaps (all-time and per day), and `down`
 * restores 0005/0007/0008's trigger functions and generated column exactly, with `not_found` turned back into
 * `answered` everywhere. Each target gets a database of its own (the shared ones are already at the latest schema).
 */
const BEFORE = MIGRATIONS.findIndex((m) => m.name === '0009-not-found-outcome');
const DAY = 86_400_000;
const base = Date.UTC(2026, 9, 1);

interface Target {
  readonly name: string;
  open(): Promise<{ db: KnexDatabase; drop(): Promise<void> }>;
}

const targets: Target[] = [{ name: 'pglite', open: async () => ({ db: await createKnexDatabase({ kind: 'pglite', dataDir: null }), drop: async () => undefined }) }];
if (postgresAvailable() || process.env.KIT_REQUIRE_POSTGRES === '1') {
  targets.push({
    name: 'postgres',
    open: async () => {
      const { url } = await testPostgres();
      const name = `kit_m0009_${process.pid}_${Date.now()}`;
      const admin = await createKnexDatabase({ kind: 'postgres', url, poolMax: 1 });
      await admin.knex.raw(`create database ${name}`);
      const db = await createKnexDatabase({ kind: 'postgres', url: url.replace(/\/postgres$/, `/${name}`), poolMax: 2 });
      return {
        db,
        drop: async () => {
          await admin.knex.raw(`drop database if exists ${name}`);
          await admin.close();
        },
      };
    },
  });
}

for (const target of targets) {
  describe(`migration 0009 (not_found) on a database with earlier questions, on ${target.name}`, function () {
    this.timeout(120_000);
    let opened: Awaited<ReturnType<Target['open']>>;
    let knex: Knex;
    let store: QuestionLogPort;
    const orgId = newId('org');
    const keyId = newId('key');
    let seed = 7;
    const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    let shapeBefore: Record<string, string>;

    /** The definitions 0009 replaces: its `down` must restore them exactly. */
    async function shape(): Promise<Record<string, string>> {
      const { rows } = (await knex.raw(
        `select 'fn ' || proname as what, md5(prosrc) as def from pg_proc
          where proname in ('question_groups_apply', 'question_log_days_apply', 'question_log_summaries_insert')
         union all
         select 'gaps', pg_get_expr(d.adbin, d.adrelid) from pg_attrdef d join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
          where d.adrelid = 'question_groups'::regclass and a.attname = 'gaps'
         union all
         select 'index ' || indexname, indexdef from pg_indexes where tablename = 'question_groups'
         union all
         select 'check', pg_get_constraintdef(oid) from pg_constraint where conname = 'question_log_outcome_check'
         union all
         select 'columns ' || table_name, string_agg(column_name, ',' order by column_name) from information_schema.columns
          where table_name in ('question_groups', 'question_day_groups') group by table_name`,
      )) as { rows: Array<{ what: string; def: string }> };
      return Object.fromEntries(rows.map((r) => [r.what, r.def]));
    }

    function entries(n: number, outcomes: readonly QuestionOutcome[], startMs: number): QuestionLogEntry[] {
      return Array.from({ length: n }, () => {
        const hash = `h${Math.floor(rand() * 6)}`;
        const messageId = newId('req');
        return {
          id: newQuestionId(), orgId, keyId: pick([keyId, null]), messageId, conversationId: `cnv_${Math.floor(rand() * 10)}`,
          createdAt: new Date(startMs + Math.floor(rand() * 3 * DAY)), pageUrl: pick(['https://a.example/1', 'https://a.example/2', null]),
          mode: pick(['local', 'remote', 'extractive'] as const), model: null, outcome: pick(outcomes), errorCode: null,
          question: `question ${hash} ${messageId}`, questionHash: hash, answer: null, citations: [], latencyMs: 10, source: 'server' as const,
        };
      });
    }

    async function log(batch: QuestionLogEntry[]): Promise<void> {
      expect(await store.insertQuestions(batch)).to.equal(batch.length);
      for (const e of batch.slice(0, 10)) await store.rate({ orgId, keyId: e.keyId, messageId: e.messageId, rating: pick(['up', 'down'] as const), comment: null, at: new Date(e.createdAt.getTime() + 60_000), newId: newQuestionId() });
      await store.addCounts(batch.map((e) => ({ orgId, keyId: e.keyId, day: e.createdAt.toISOString().slice(0, 10), page: e.pageUrl, mode: e.mode, outcome: e.outcome, questions: 1 })));
    }

    const rows = async (sql: string, args: Knex.Value[] = []) =>
      (((await knex.raw(sql, args)) as { rows: Array<Record<string, unknown>> }).rows).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' || v === null ? v : v instanceof Date ? v.toISOString() : Number(v)])));
    const count = (cond: string) => `(count(*) filter (where ${cond}))::int`;

    /** Every summary the outcome touches against the same aggregate over the log (`nf`: whether they count not_found). */
    async function expectSummariesMatchLog(nf: boolean): Promise<void> {
      const gap = nf ? "(outcome in ('refused', 'not_found') or rating = 'down')" : "(outcome = 'refused' or rating = 'down')";
      const nfCol = (expr: string) => (nf ? `, ${expr} as not_found` : '');
      const day = "to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')";
      const pairs: Array<[string, string, string]> = [
        [
          'question_groups',
          `select question_hash, total, answered${nf ? ', not_found' : ''}, refused, errors, thumbs_up, thumbs_down, gaps from question_groups where org_id = ? order by 1`,
          `select question_hash, count(*)::int as total, ${count("outcome = 'answered'")} as answered${nfCol(count("outcome = 'not_found'"))}, ${count("outcome = 'refused'")} as refused,
                  ${count("outcome = 'error'")} as errors, ${count("rating = 'up'")} as thumbs_up, ${count("rating = 'down'")} as thumbs_down,
                  ${count(`outcome = 'refused'${nf ? " or outcome = 'not_found'" : ''}`)} + ${count("rating = 'down'")} as gaps
             from question_log where org_id = ? and question is not null group by 1 order by 1`,
        ],
        [
          'question_day_groups',
          `select to_char(day, 'YYYY-MM-DD') as day, key_id, question_hash, total, answered${nf ? ', not_found' : ''}, refused, errors, thumbs_up, thumbs_down from question_day_groups where org_id = ? order by 1, 2, 3`,
          `select ${day} as day, coalesce(key_id, '') as key_id, question_hash, count(*)::int as total, ${count("outcome = 'answered'")} as answered${nfCol(count("outcome = 'not_found'"))},
                  ${count("outcome = 'refused'")} as refused, ${count("outcome = 'error'")} as errors, ${count("rating = 'up'")} as thumbs_up, ${count("rating = 'down'")} as thumbs_down
             from question_log where org_id = ? and question is not null group by 1, 2, 3 order by 1, 2, 3`,
        ],
        [
          'question_gap_pages',
          'select question_hash, page, n from question_gap_pages where org_id = ? order by 1, 2',
          `select question_hash, coalesce(page_url, '') as page, count(*)::int as n from question_log where org_id = ? and question is not null and ${gap} group by 1, 2 order by 1, 2`,
        ],
        [
          'question_day_gap_pages',
          `select question_hash, to_char(day, 'YYYY-MM-DD') as day, key_id, page, n from question_day_gap_pages where org_id = ? order by 1, 2, 3, 4`,
          `select question_hash, ${day} as day, coalesce(key_id, '') as key_id, coalesce(page_url, '') as page, count(*)::int as n
             from question_log where org_id = ? and question is not null and ${gap} group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
        ],
        [
          'question_daily_totals',
          `select to_char(day, 'YYYY-MM-DD') as day, key_id, mode, outcome, questions from question_daily_totals where org_id = ? order by 1, 2, 3, 4`,
          `select to_char(day, 'YYYY-MM-DD') as day, key_id, mode, outcome, sum(questions)::int as questions from question_daily where org_id = ? group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
        ],
      ];
      for (const [table, summary, raw] of pairs) expect(await rows(summary, [orgId]), table).to.deep.equal(await rows(raw, [orgId]));
    }

    before(async () => {
      opened = await target.open();
      knex = opened.db.knex;
      await migrateToLatest(knex, MIGRATIONS.slice(0, BEFORE));
      shapeBefore = await shape();
      store = createPgQuestionLogStore(knex);
      await knex('organizations').insert({ id: orgId, name: 'migration 0009', tier: 'business', created_at: new Date(base) });
      await knex('api_keys').insert({ id: keyId, org_id: orgId, kind: 'secret', name: 'k', prefix: 'kit_sec_', last4: 'abcd', hash: keyId, created_at: new Date(base) });
      // Logged before 0009: what the store wrote then (no not_found: the constraint refused it).
      await log(entries(120, ['answered', 'answered', 'refused', 'error'], base));
      let refused: unknown = null;
      await store.insertQuestions(entries(1, ['not_found'], base)).catch((err: unknown) => (refused = err));
      expect(String(refused)).to.match(/question_log_outcome_check/);
    });
    after(async () => {
      await opened?.db.close();
      await opened?.drop();
    });

    it('keeps the earlier rows\' summaries exact and counts not_found questions logged afterwards as coverage gaps', async () => {
      const gapsBefore = await rows('select question_hash, refused + thumbs_down as gaps from question_groups where org_id = ? order by 1', [orgId]);
      expect(await migrateToLatest(knex)).to.deep.equal(['0009-not-found-outcome']);
      expect(await rows('select question_hash, gaps from question_groups where org_id = ? order by 1', [orgId]), 'gaps of the earlier rows').to.deep.equal(gapsBefore);
      await expectSummariesMatchLog(true);

      // A question no group had yet, answered "not found" twice on one page, on the last day only: a gap on its own.
      const unanswered = entries(2, ['not_found'], base).map((e, i) => ({ ...e, createdAt: new Date(base + 3 * DAY + (i + 1) * 3_600_000), questionHash: 'h_new', question: 'where is the warranty?', pageUrl: 'https://a.example/warranty', keyId }));
      await log([...entries(60, ['answered', 'not_found', 'refused', 'error'], base), ...unanswered]);
      await expectSummariesMatchLog(true);
      const last = new Date(base + 3 * DAY);
      for (const query of [{}, { from: last }, { from: last, to: new Date(base + 4 * DAY) }, { keyId }]) {
        const gaps = await store.coverageGaps(orgId, { ...query, limit: 100, pagesPerGap: 5 });
        const gap = gaps.find((g) => g.questionHash === 'h_new');
        expect(gap, JSON.stringify(query)).to.deep.include({ total: 2, notFound: 2, refused: 0, answered: 0, thumbsDown: 0, example: 'where is the warranty?' });
        expect(gap!.pages, JSON.stringify(query)).to.deep.equal([{ url: 'https://a.example/warranty', count: 2 }]);
        const top = await store.topQuestions(orgId, { ...query, limit: 100 });
        expect(top.find((g) => g.questionHash === 'h_new'), JSON.stringify(query)).to.deep.include({ total: 2, notFound: 2 });
      }
      expect((await store.daily(orgId, { from: last, to: new Date(base + 4 * DAY) })).filter((d) => d.outcome === 'not_found').reduce((n, d) => n + d.questions, 0)).to.be.at.least(2);
    });

    it('down restores the earlier functions and column exactly and turns not_found back into answered', async () => {
      const logged = await rows('select count(*)::int as n from question_log where org_id = ? and outcome = \'not_found\'', [orgId]);
      expect(logged[0]!.n).to.be.greaterThan(2);
      const answered = async () => (await rows(`select sum(questions)::int as n from question_daily where org_id = ? and outcome in ('answered', 'not_found')`, [orgId]))[0]!.n;
      const answeredAndNotFound = await answered();
      await knex.migrate.down({ migrationSource: createMigrationSource() });
      expect(await shape()).to.deep.equal(shapeBefore);
      expect(await rows('select outcome from question_log where org_id = ? and outcome = \'not_found\'', [orgId])).to.have.length(0);
      expect(await rows('select outcome from question_daily where outcome = \'not_found\' union all select outcome from question_daily_totals where outcome = \'not_found\'')).to.have.length(0);
      expect(await answered()).to.equal(answeredAndNotFound);
      await expectSummariesMatchLog(false);
      // And up again on what down left.
      expect(await migrateToLatest(knex)).to.deep.equal(['0009-not-found-outcome']);
      await expectSummariesMatchLog(true);
    });
  });
}
