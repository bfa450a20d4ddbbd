/**
 * Where a logged question's cost goes in the embedded database (issue 13 §6: logging on adds ≤ 10 % to /chat).
 * `npm run bench -- question-log-write`.
 *
 * PGlite runs as the server runs it: in its worker thread (createKnexDatabase, an on-disk data directory, the default
 * settings), with BENCH_LOG_ROWS (20 000) questions already logged. The question log's store writes batches of
 * BENCH_BATCH (400) questions shaped like the insights benchmark's chats; while a batch is written the main thread
 * only waits, so the process's CPU time (user + system, all threads) per batch is the worker's. Medians over
 * BENCH_BATCHES (15) batches, in µs per logged question.
 *
 * (1) Before and after migration 0008, interleaved batch by batch on two databases: migrations up to 0007 with the
 *     store's statement of then (INSERT … ON CONFLICT DO UPDATE, which also fires the UPDATE triggers with empty
 *     transition tables; the key's foreign key), against the current schema and store.
 * (2) The current write taken apart, cumulatively: without the summaries' insert trigger, without the organisation's
 *     foreign key check, without the GIN search index, without the six other secondary indexes; and what reading the
 *     batch's JSON alone costs. What is left after the last step is the heap, the primary key and the
 *     (org_id, message_id) key, and the generated search vector.
 * (3) EXPLAIN ANALYZE of one current batch: the triggers' own times.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QuestionLogEntry } from '../core/ports/question-log.port.js';
import { createKnexDatabase, type KnexDatabase } from '../adapters/node/knex-database.js';
import { MIGRATIONS, migrateToLatest } from '../adapters/node/migrations/index.js';
import { createPgQuestionLogStore } from '../adapters/node/pg-question-log-store.js';
import { seedQuestions } from '../scripts/seed-questions.js';
import { load1, median } from './support/load.js';

const ROWS = Number(process.env.BENCH_LOG_ROWS ?? 20_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 400);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 15);
const loads = [load1()];
const work = mkdtempSync(join(tmpdir(), 'kit-bench-qlog-'));

let n = 0;
function batch(): QuestionLogEntry[] {
  return Array.from({ length: BATCH }, () => {
    n++;
    return {
      id: `qst_bench${n.toString(36).padStart(16, '0')}`, orgId: 'org_bench', keyId: 'key_bench', messageId: `req_bench${n}`, conversationId: 'cnv_bench',
      createdAt: new Date(), pageUrl: 'https://shop.example.com/pricing', mode: 'remote', model: 'kit-extractive', outcome: 'answered', errorCode: null,
      question: 'How much does the Pro plan cost per month? Mail me at [email]', questionHash: (n % 5000).toString(16).padStart(32, '0'), answer: null,
      citations: [{ url: 'https://shop.example.com/pricing', title: 'Pricing' }], latencyMs: 3, source: 'server',
    };
  });
}

/** The store's insert before migration 0008 (one statement; ON CONFLICT DO UPDATE completes vote-only rows). */
async function insertBefore(db: KnexDatabase, entries: readonly QuestionLogEntry[]): Promise<void> {
  const rows = entries.map((e) => ({
    id: e.id, org_id: e.orgId, key_id: e.keyId, message_id: e.messageId, conversation_id: e.conversationId, created_at: e.createdAt.toISOString(),
    page_url: e.pageUrl, mode: e.mode, model: e.model, outcome: e.outcome, error_code: e.errorCode, question: e.question, question_hash: e.questionHash,
    answer: e.answer, citations: e.citations, latency_ms: e.latencyMs, source: e.source,
  }));
  await db.knex.raw(
    `insert into question_log as l (id, org_id, key_id, message_id, conversation_id, created_at, page_url, mode, model, outcome, error_code,
                                    question, question_hash, answer, citations, latency_ms, source)
     select v.id, v.org_id, v.key_id, v.message_id, v.conversation_id, v.created_at, v.page_url, v.mode, v.model, v.outcome, v.error_code,
            v.question, v.question_hash, v.answer, coalesce(v.citations, '[]'::jsonb), v.latency_ms, v.source
       from jsonb_to_recordset(?::jsonb) as v(id text, org_id text, key_id text, message_id text, conversation_id text, created_at timestamptz,
            page_url text, mode text, model text, outcome text, error_code text, question text, question_hash text, answer text,
            citations jsonb, latency_ms int, source text)
      where v.key_id is null or exists (select 1 from api_keys k where k.id = v.key_id and k.revoked_at is null)
     on conflict (org_id, message_id) do update set
       conversation_id = excluded.conversation_id, created_at = excluded.created_at, page_url = excluded.page_url, mode = excluded.mode,
       model = excluded.model, outcome = excluded.outcome, error_code = excluded.error_code, question = excluded.question,
       question_hash = excluded.question_hash, answer = excluded.answer, citations = excluded.citations, latency_ms = excluded.latency_ms,
       source = excluded.source
     where l.question is null
     returning l.id`,
    [JSON.stringify(rows)],
  );
}

async function open(name: string, migrations = MIGRATIONS): Promise<KnexDatabase> {
  const db = await createKnexDatabase({ kind: 'pglite', dataDir: join(work, name) });
  await migrateToLatest(db.knex, migrations);
  await db.knex('organizations').insert({ id: 'org_bench', name: 'bench', created_at: new Date() });
  await db.knex('api_keys').insert({ id: 'key_bench', org_id: 'org_bench', kind: 'secret', name: 'bench', prefix: 'sk_test', last4: '0000', hash: `hash_${name}`, created_at: new Date() });
  await seedQuestions(db, { orgId: 'org_bench', keyId: 'key_bench', count: ROWS });
  await db.knex.raw('checkpoint');
  return db;
}

/** CPU µs per question of one batch written by `write`. */
async function cpuPerQuestion(write: (entries: QuestionLogEntry[]) => Promise<unknown>): Promise<number> {
  const entries = batch();
  const before = process.cpuUsage();
  await write(entries);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / entries.length;
}

const fmt = (v: number): string => v.toFixed(0);
const lines: string[] = [];
try {
  const old = await open('before-0008', MIGRATIONS.slice(0, MIGRATIONS.findIndex((m) => m.name.startsWith('0008'))));
  const db = await open('current');
  const store = createPgQuestionLogStore(db.knex);
  const write = (entries: QuestionLogEntry[]) => store.insertQuestions(entries);

  // (1) Before / after, interleaved (two warm-up batches each first: plans, caches).
  for (let i = 0; i < 2; i++) await cpuPerQuestion((e) => insertBefore(old, e)), await cpuPerQuestion(write);
  const before: number[] = [];
  const after: number[] = [];
  for (let i = 0; i < BATCHES; i++) {
    if (i % 2 === 0) before.push(await cpuPerQuestion((e) => insertBefore(old, e))), after.push(await cpuPerQuestion(write));
    else after.push(await cpuPerQuestion(write)), before.push(await cpuPerQuestion((e) => insertBefore(old, e)));
  }
  await old.close();
  lines.push(`| before migration 0008 (0007's schema and statement) | ${fmt(median(before))} |`);
  lines.push(`| **current** (migration 0008, the store's statement) | **${fmt(median(after))}** |`);

  // (3) The triggers' own times in one batch.
  const rows = batch().map((e) => ({ id: e.id, org_id: e.orgId, key_id: e.keyId, message_id: e.messageId, conversation_id: e.conversationId, created_at: e.createdAt.toISOString(), page_url: e.pageUrl, mode: e.mode, model: e.model, outcome: e.outcome, question: e.question, question_hash: e.questionHash, citations: e.citations, latency_ms: e.latencyMs, source: e.source }));
  const { rows: plan } = (await db.knex.raw(
      `explain (analyze, costs off) insert into question_log as l (id, org_id, key_id, message_id, conversation_id, created_at, page_url, mode, model, outcome, question, question_hash, citations, latency_ms, source)
       select v.id, v.org_id, v.key_id, v.message_id, v.conversation_id, v.created_at, v.page_url, v.mode, v.model, v.outcome, v.question, v.question_hash, v.citations, v.latency_ms, v.source
         from jsonb_to_recordset(?::jsonb) as v(id text, org_id text, key_id text, message_id text, conversation_id text, created_at timestamptz, page_url text, mode text, model text,
              outcome text, question text, question_hash text, citations jsonb, latency_ms int, source text)
        where v.key_id is null or exists (select 1 from api_keys k where k.id = v.key_id and k.revoked_at is null)
       on conflict (org_id, message_id) do nothing`,
      [JSON.stringify(rows)],
  )) as { rows: Array<{ 'QUERY PLAN': string }> };
  const explain = plan.map((r) => r['QUERY PLAN']).filter((l) => /^(Trigger|Execution Time|Planning Time)/.test(l));

  // (2) Taken apart, cumulatively.
  const steps: Array<[string, string[]]> = [
    ['current, again', []],
    ['− the summaries\' insert trigger', ['alter table question_log disable trigger question_log_summaries_insert']],
    ['− the organisation\'s foreign key check', ['alter table question_log drop constraint question_log_org_id_foreign']],
    ['− the GIN search index', ['drop index question_log_search']],
    ['− the six other secondary indexes (left: heap, primary key, (org_id, message_id), search vector)', ['question_log_recent', 'question_log_outcome', 'question_log_key', 'question_log_group', 'question_log_conversation', 'question_log_purge'].map((i) => `drop index ${i}`)],
  ];
  for (const [label, sql] of steps) {
    for (const s of sql) await db.knex.raw(s);
    await cpuPerQuestion(write);
    const samples: number[] = [];
    for (let i = 0; i < BATCHES; i++) samples.push(await cpuPerQuestion(write));
    lines.push(`| ${label} | ${fmt(median(samples))} |`);
  }
  const parse: number[] = [];
  for (let i = 0; i < BATCHES; i++) {
    parse.push(await cpuPerQuestion(async (entries) => db.knex.raw(
      `select count(*) from jsonb_to_recordset(?::jsonb) as v(id text, org_id text, key_id text, message_id text, conversation_id text, created_at timestamptz,
              page_url text, mode text, model text, outcome text, error_code text, question text, question_hash text, answer text, citations jsonb, latency_ms int, source text)`,
      [JSON.stringify(entries.map((e) => ({ id: e.id, org_id: e.orgId, key_id: e.keyId, message_id: e.messageId, conversation_id: e.conversationId, created_at: e.createdAt.toISOString(), page_url: e.pageUrl, mode: e.mode, model: e.model, outcome: e.outcome, question: e.question, question_hash: e.questionHash, citations: e.citations, latency_ms: e.latencyMs, source: e.source })))],
    )));
  }
  lines.push(`| reading the batch alone (its JSON sent to the worker, parsed, \`jsonb_to_recordset\`; no insert) | ${fmt(median(parse))} |`);
  await db.close();

  console.log(`| PGlite (worker thread): CPU µs per logged question, median of ${BATCHES} batches of ${BATCH}, ${ROWS.toLocaleString('en-US')} questions already logged | µs |`);
  console.log('|---|---|');
  for (const line of lines) console.log(line);
  if (explain.length > 0) console.log(`\nEXPLAIN ANALYZE of one current batch of ${BATCH}:\n${explain.map((l) => `    ${l}`).join('\n')}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
loads.push(load1());
console.log(`\nMachine: load average (1 min) ${loads.join(' → ')}.`);
process.exit(0);
