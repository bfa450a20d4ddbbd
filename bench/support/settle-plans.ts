/**
 * `npx tsx bench/support/settle-plans.ts`: how PostgreSQL 15 plans the chat limiter's settlement statements at two
 * table sizes — an empty `usage_events` and one holding 1,000,000 rows (`seed:scale`'s data; both vacuumed and
 * analysed), two databases of one cluster. For each statement and database: 300 reserved usage rows of a new
 * organisation are settled one per call, as a named prepared statement on one connection; printed: the median ms of
 * the last 200 calls and how many of the 300 ran a generic or a custom plan (`pg_prepared_statements`: a custom plan is
 * planned again at every call).
 *
 * BENCH_SCALE_ROWS (default 1000000).
 */
import 'reflect-metadata';
import pg from 'pg';
import { createKnexDatabase, type KnexDatabase } from '../../adapters/node/knex-database.js';
import { SETTLE_ONE_SQL, SETTLE_SQL } from '../../adapters/node/pg-chat-limiter.js';
import { migrateToLatest } from '../../adapters/node/migrations/index.js';
import { newId } from '../../server/ids.js';
import { seedScale } from '../../scripts/seed-scale.js';
import { startPostgres } from '../../test/support/postgres.js';
import { load1, median } from './load.js';

const ROWS = Number(process.env.BENCH_SCALE_ROWS ?? 1_000_000);
const N = 300;
const numbered = (sql: string): string => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};
type Row = { requestId: string; at: Date };
const STATEMENTS: Array<[string, string, (orgId: string, r: Row) => unknown[]]> = [
  ['settlement of a batch, as arrays (SETTLE_SQL), batches of 1', numbered(SETTLE_SQL), (orgId, r) => [[r.requestId], [r.at], [10], [2], [false], ['m'], orgId, [r.at], r.at, r.at]],
  ['settlement of one chat, as scalars (SETTLE_ONE_SQL)', numbered(SETTLE_ONE_SQL), (orgId, r) => [10, 2, false, 'm', orgId, r.at, r.requestId]],
];

const loads = [load1()];
const cluster = await startPostgres();
const open: KnexDatabase[] = [];
try {
  const admin = await createKnexDatabase({ kind: 'postgres', url: cluster.url });
  open.push(admin);
  const url = (name: string): string => cluster.url.replace(/\/postgres$/, `/${name}`);
  const dbs: Array<[string, KnexDatabase, string]> = [];
  for (const [label, name, rows] of [['empty table', 'kit_empty', 0], [`${ROWS.toLocaleString('en-US')} rows`, 'kit_big', ROWS]] as const) {
    await admin.knex.raw(`create database ${name}`);
    const db = await createKnexDatabase({ kind: 'postgres', url: url(name) });
    open.push(db);
    await migrateToLatest(db.knex);
    await seedScale(db, { rows, keys: 20 });
    await db.knex.raw('vacuum analyze usage_events');
    dbs.push([label, db, url(name)]);
  }
  console.log('\n| statement | table | ms per call, median of the last 200 | generic / custom plans of 300 |');
  console.log('|---|---|---|---|');
  for (const [statement, text, values] of STATEMENTS) {
    for (const [label, db, dbUrl] of dbs) {
      const orgId = newId('org');
      await db.knex('organizations').insert({ id: orgId, name: 'settle plans', tier: 'business', created_at: new Date() });
      await db.knex.raw(`insert into org_meters (org_id, month, used, reserved, window_start, window_count) values (?, date_trunc('month', now() at time zone 'UTC')::date, 0, ?, 'epoch', 0)`, [orgId, N * 100]);
      const rows: Row[] = Array.from({ length: N }, (_, i) => ({ requestId: newId('req'), at: new Date(Date.now() - (N - i)) }));
      await db.knex('usage_events').insert(rows.map((r) => ({ org_id: orgId, key_id: null, mode: 'remote', model: 'm', input_tokens: 0, output_tokens: 0, refused: false, request_id: r.requestId, created_at: r.at, state: 'reserved', reserved_tokens: 100, rolled: false })));
      const client = new pg.Client({ connectionString: dbUrl });
      await client.connect();
      try {
        const ms: number[] = [];
        for (const r of rows) {
          const t = performance.now();
          await client.query({ name: 'settle', text, values: values(orgId, r) });
          ms.push(performance.now() - t);
        }
        const plans = (await client.query(`select generic_plans, custom_plans from pg_prepared_statements where name = 'settle'`)).rows[0] as { generic_plans: string; custom_plans: string };
        const settled = (await client.query(`select count(*)::int as n from usage_events where org_id = $1 and state = 'settled'`, [orgId])).rows[0] as { n: number };
        if (settled.n !== N) throw new Error(`${statement}: ${settled.n} of ${N} rows settled`);
        console.log(`| ${statement} | ${label} | ${median(ms.slice(100)).toFixed(3)} | ${plans.generic_plans} / ${plans.custom_plans} |`);
      } finally {
        await client.end();
      }
    }
  }
  loads.push(load1());
  console.log(`\nMachine: load average (1 min) ${loads.join(' → ')}.`);
} finally {
  for (const db of open.reverse()) await db.close();
  await cluster.stop();
}
process.exit(0);
