/**
 * `npx tsx bench/support/owner-writes-interleaved.ts`: the write path of `npm run bench -- owner-queries` (ms per chat,
 * admission + settlement statements through the real limiter, 400 chats a round, a new organisation each round) on
 * PostgreSQL 15, with the empty table and the 1,000,000-row one side by side: two databases of one cluster (the same
 * shared buffers, the same machine load), rounds alternating between them (empty, big, big, empty, …) after one
 * discarded round each, medians and their ratio; 8 chats at a time and one at a time; both tables analysed before
 * every round. The owner-queries bench
 * measures the empty table first and the big one minutes later, so the machine's drift and warm-up land in its
 * ratio. Then, per database, each statement's mean planning and execution time and buffers per call
 * (pg_stat_statements, planning tracked), which say where a difference comes from.
 *
 * BENCH_SCALE_ROWS (default 1000000), BENCH_ROUNDS (default 7).
 */
import 'reflect-metadata';
import { createKnexDatabase, type KnexDatabase } from '../../adapters/node/knex-database.js';
import { writeCost } from './write-cost.js';
import { migrateToLatest } from '../../adapters/node/migrations/index.js';
import { seedScale } from '../../scripts/seed-scale.js';
import { startPostgres } from '../../test/support/postgres.js';
import { load1, median } from './load.js';

const ROWS = Number(process.env.BENCH_SCALE_ROWS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CHATS = 400;

const loads = [load1()];
const pg = await startPostgres();
const open: KnexDatabase[] = [];
try {
  {
    const db = await createKnexDatabase({ kind: 'postgres', url: pg.url });
    await db.knex.raw('alter system set shared_preload_libraries = pg_stat_statements');
    await db.close();
    await pg.restart(0);
  }
  const admin = await createKnexDatabase({ kind: 'postgres', url: pg.url });
  open.push(admin);
  // Known once the library is loaded.
  await admin.knex.raw('alter system set pg_stat_statements.track_planning = on');
  await admin.knex.raw('select pg_reload_conf()');
  await admin.knex.raw('create extension pg_stat_statements');
  await admin.knex.raw('create database kit_empty');
  await admin.knex.raw('create database kit_big');
  const url = (name: string): string => pg.url.replace(/\/postgres$/, `/${name}`);
  const empty = await createKnexDatabase({ kind: 'postgres', url: url('kit_empty') });
  const big = await createKnexDatabase({ kind: 'postgres', url: url('kit_big') });
  open.push(empty, big);
  for (const db of [empty, big]) {
    await migrateToLatest(db.knex);
    await seedScale(db, { rows: 0, keys: 20 });
  }
  await seedScale(big, { rows: ROWS, keys: 10_000 });
  // As the owner-queries bench: the seed settled on disk and its statistics taken.
  await big.knex.raw('checkpoint');
  await big.knex.raw('vacuum analyze usage_events');
  // Before every round both tables get fresh statistics, as autovacuum keeps them in steady state. Without it the
  // empty table, filled by the rounds, was planned from no statistics (or from those of 0 rows): on 2026-11-27 its
  // one-row settlement read 251 buffers a call and the admission batch 147, against 13 and 71 at 1 M rows.
  const round = async (db: KnexDatabase, concurrency: number): Promise<number> => {
    await db.knex.raw('analyze usage_events');
    return writeCost(db.knex, concurrency, CHATS);
  };

  console.log(`\n| write path, PostgreSQL 15, interleaved (${CHATS} chats a round, median [range] of ${ROUNDS} rounds after one discarded) | empty table | ${ROWS.toLocaleString('en-US')} rows | ratio |`);
  console.log('|---|---|---|---|');
  for (const concurrency of [8, 1]) {
    const e: number[] = [];
    const b: number[] = [];
    await round(empty, concurrency);
    await round(big, concurrency);
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) {
        e.push(await round(empty, concurrency));
        b.push(await round(big, concurrency));
      } else {
        b.push(await round(big, concurrency));
        e.push(await round(empty, concurrency));
      }
    }
    console.log(`| ms per chat, ${concurrency === 1 ? 'one chat at a time' : `${concurrency} at a time`} | ${fmt(e)} | ${fmt(b)} | ${(median(b) / median(e)).toFixed(2)}× |`);
  }

  const { rows } = (await admin.knex.raw(`select d.datname, s.query, s.calls, s.mean_plan_time, s.mean_exec_time, s.shared_blks_hit, s.shared_blks_read
      from pg_stat_statements s join pg_database d on d.oid = s.dbid
     where d.datname in ('kit_empty', 'kit_big') and s.calls >= 100 and (s.query like 'with%')
     order by s.query, d.datname desc`)) as { rows: Array<{ datname: string; query: string; calls: number; mean_plan_time: number; mean_exec_time: number; shared_blks_hit: number; shared_blks_read: number }> };
  console.log('\n| statement (both concurrencies) | database | calls | mean planning ms | mean execution ms | buffers hit / read per call |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    const name = /^with recursive/.test(r.query) ? 'admission batch (with settlements)' : /^with k as/.test(r.query) ? 'admission, one request' : /^with v/.test(r.query) ? 'settlement batch' : /^with u as/.test(r.query) ? 'settlement of one chat' : r.query.slice(0, 30).replace(/\s+/g, ' ');
    console.log(`| ${name} | ${r.datname === 'kit_big' ? `${ROWS.toLocaleString('en-US')} rows` : 'empty table'} | ${r.calls} | ${r.mean_plan_time.toFixed(3)} | ${r.mean_exec_time.toFixed(3)} | ${(r.shared_blks_hit / r.calls).toFixed(1)} / ${(r.shared_blks_read / r.calls).toFixed(2)} |`);
  }
  loads.push(load1());
  console.log(`\nMachine: load average (1 min) ${loads.join(' → ')}.`);
} finally {
  for (const db of open.reverse()) await db.close();
  await pg.stop();
}
process.exit(0);

function fmt(xs: number[]): string {
  return `${median(xs).toFixed(2)} [${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}]`;
}

