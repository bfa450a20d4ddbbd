/**
 * `npx tsx scripts/seed-questions.ts --org <org_id> [--key <key_id>] [--count 1000000] (--database <postgres URL> | --data-dir <dir>)`
 *
 * Fills an organisation's question log with synthetic questions, for the insights benchmark at scale. Questions are
 * "<template> product <k>?" with k drawn log-uniformly from 1..20 000 (a Zipf-like head and a long tail: about half of
 * the questions are among the 2 000 most asked), spread over the last 30 days, on 200 pages; 70 % answered, 20 %
 * refused, 10 % errors; one in ten rated (half down). Written by INSERT … SELECT generate_series in chunks of 100 000,
 * so the statement triggers maintain the summaries (per question, per day) exactly as they do for real traffic; the
 * daily counts (`question_daily` and its totals) are written from the same rows in the same statement.
 */
import { createKnexDatabase, type KnexDatabase } from '../adapters/node/knex-database.js';
import { migrateToLatest } from '../adapters/node/migrations/index.js';

const CHUNK = 100_000;

export async function seedQuestions(db: KnexDatabase, options: { orgId: string; keyId: string | null; count: number; onProgress?: (done: number) => void }): Promise<void> {
  const now = new Date();
  for (let start = 0; start < options.count; start += CHUNK) {
    const end = Math.min(options.count, start + CHUNK) - 1;
    const tag = `${now.getTime().toString(36)}${start.toString(36)}`;
    // The counts the server writes beside each logged question (question_daily and its totals) come from the same rows.
    await db.knex.raw(
      `with ins as (
       insert into question_log (id, org_id, key_id, message_id, conversation_id, created_at, page_url, mode, model, outcome, question,
                                 question_hash, citations, latency_ms, source, rating, rated_at)
       select 'qst_s' || ? || g, ?, ?, 'msg_s' || ? || g, 'cnv_s' || ? || (g / 3), ts,
              'https://shop.example.com/p/' || (g % 200), (array['remote','local','extractive'])[1 + g % 3], 'extractive',
              case when r < 0.7 then 'answered' when r < 0.9 then 'refused' else 'error' end,
              q, md5(lower(q)), '[]'::jsonb, (50 + random() * 900)::int, 'server',
              case when g % 10 = 0 then (case when r2 < 0.5 then 'down' else 'up' end) end,
              case when g % 10 = 0 then ts end
         from (select g, random() as r, random() as r2, ?::timestamptz - (random() * 30 * 86400) * interval '1 second' as ts,
                      (array['How much is','Where is','Can I return','Do you ship','What size is','Is there a warranty on'])[1 + k % 6] || ' product ' || (k / 6) || chr(63) as q
                 from (select g, floor(exp(random() * ln(20000)))::int as k from generate_series(?::int, ?::int) g) a) s
       returning org_id, coalesce(key_id, '') as key_id, (created_at at time zone 'UTC')::date as day, page_url, mode, outcome),
       daily as (
         insert into question_daily as d (org_id, day, key_id, page, mode, outcome, questions)
         select org_id, day, key_id, page_url, mode, outcome, count(*) from ins group by 1, 2, 3, 4, 5, 6
         on conflict (org_id, day, key_id, page, mode, outcome) do update set questions = d.questions + excluded.questions)
       insert into question_daily_totals as t (org_id, day, key_id, mode, outcome, questions)
       select org_id, day, key_id, mode, outcome, count(*) from ins group by 1, 2, 3, 4, 5
       on conflict (org_id, day, key_id, mode, outcome) do update set questions = t.questions + excluded.questions`,
      [tag, options.orgId, options.keyId, tag, tag, now, start, end],
    );
    options.onProgress?.(end + 1);
  }
  await db.knex.raw('analyze question_log');
  for (const table of ['question_groups', 'question_day_groups', 'question_day_gap_pages', 'question_gap_pages', 'question_day_votes', 'question_daily', 'question_daily_totals']) await db.knex.raw(`analyze ${table}`);
}

async function main(): Promise<void> {
  const args = new Map<string, string>();
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) args.set(argv[i]!.replace(/^--/, ''), argv[i + 1] ?? '');
  const orgId = args.get('org');
  if (!orgId || (!args.get('database') && !args.get('data-dir'))) {
    console.error('usage: seed-questions --org <org_id> [--key <key_id>] [--count N] (--database <url> | --data-dir <dir>)');
    process.exit(2);
  }
  const db = await createKnexDatabase(args.get('database') ? { kind: 'postgres', url: args.get('database')! } : { kind: 'pglite', dataDir: args.get('data-dir')! });
  try {
    await migrateToLatest(db.knex);
    const count = Number(args.get('count') ?? 1_000_000);
    const started = Date.now();
    await seedQuestions(db, { orgId, keyId: args.get('key') ?? null, count, onProgress: (n) => process.stderr.write(`\rseeded ${n}/${count}`) });
    process.stderr.write(`\nseeded ${count} questions in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  } finally {
    await db.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) await main();
