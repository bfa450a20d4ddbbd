/**
 * What one /chat costs on PostgreSQL, per answered chat: CPU ms of the Kit server process and of the PostgreSQL
 * cluster (every backend, summed, from /proc), transactions committed and — with pg_stat_statements — the statements
 * run, by statement. The built server (`node dist/server/main.js`) on a throw-away PostgreSQL 15, driven by autocannon
 * in its own process with the chat benchmark's body. A diagnostic beside `npm run bench -- chat`, not a benchmark
 * figure: on a 2-core machine the server, the database and the load generator share the cores, and these figures say
 * how much of them a chat takes where.
 *
 *   npx tsx bench/support/chat-cost.ts [seconds] [json|stream] [connections]
 *
 * KIT_SERVER=<path of another build's main.js> measures that build instead (e.g. main's, built in a temp dir).
 *
 * Run it under `flock /tmp/kit-heavy.lock`. Needs dist/server/main.js (`npm run build` or `npm run bench -- chat`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { startPostgres } from '../../test/support/postgres.js';
import { autocannon, load1, startServer } from './load.js';
import { seedBenchOrg } from './seed.js';
import { chatBody, clusterPids, cpuOf, KIT_BENCH_ENV, LISTENING, TICK_MS } from './chat-request.js';

const seconds = Number(process.argv[2] ?? 10);
const stream = process.argv[3] === 'stream';
const connections = Number(process.argv[4] ?? 10);
const root = new URL('../..', import.meta.url).pathname;
const body = chatBody(stream);

/** Busy and total CPU ms of the whole machine (/proc/stat). */
function machine(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: (total - f[3]! - f[4]!) * TICK_MS, total: total * TICK_MS };
}

const pgc = await startPostgres();
try {
  const admin = new pg.Client({ connectionString: pgc.url });
  await admin.connect();
  await admin.query("alter system set shared_preload_libraries = 'pg_stat_statements'");
  await admin.end();
  await pgc.restart(0);
  const org = await seedBenchOrg({ kind: 'postgres', url: pgc.url });
  const db = new pg.Client({ connectionString: pgc.url });
  await db.connect();
  await db.query('create extension if not exists pg_stat_statements');
  await db.query('alter system set pg_stat_statements.track_planning = on');
  await db.query('select pg_reload_conf()');
  const env: Record<string, string> = { ...KIT_BENCH_ENV, DATABASE_URL: pgc.url };
  const server = await startServer([process.env.KIT_SERVER ?? join(root, 'dist/server/main.js')], env, join(pgc.dir, 'server.log'), LISTENING);
  const opts = { url: `${server.url}/v1/chat`, method: 'POST' as const, connections, body, headers: { 'content-type': 'application/json', authorization: `Bearer ${org.secrets[0]}` } };
  await autocannon({ ...opts, seconds: 2 });
  await db.query('select pg_stat_statements_reset()');
  const xacts = async () => Number((await db.query('select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()')).rows[0].n);
  const x0 = await xacts();
  const pids = clusterPids(pgc.dir);
  const s0 = cpuOf(server.pid);
  const p0 = pids.reduce((a, p) => a + cpuOf(p), 0);
  const m0 = machine();
  const before = load1();
  const r = await autocannon({ ...opts, seconds });
  const m1 = machine();
  const s1 = cpuOf(server.pid);
  const p1 = pids.reduce((a, p) => a + cpuOf(p), 0); // backends started during the run are not counted (the pool is open after the warm-up)
  const x1 = await xacts();
  const n = r.ok;
  const per = (v: number) => (v / n).toFixed(3);
  console.log(`${stream ? 'streamed' : 'JSON'}, ${connections} connections, ${seconds} s: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${n} answered, non-2xx ${r.non2xx}; load ${before} → ${load1()}`);
  console.log(`CPU ms per chat: Kit server ${per(s1 - s0)}, PostgreSQL cluster ${per(p1 - p0)}; machine busy ${per(m1.busy - m0.busy)} of ${per(m1.total - m0.total)} (all processes, both cores)`);
  console.log(`transactions per chat: ${per(x1 - x0 - 1)}`);
  const stmts = await db.query(`select calls, plans, total_plan_time, total_exec_time, rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as q from pg_stat_statements
    where query not ilike '%pg_stat%' order by calls desc limit 12`);
  const total = stmts.rows.reduce((a, s) => a + Number(s.calls), 0);
  console.log(`statements per chat: ${per(total)}`);
  for (const s of stmts.rows) console.log(`  ${per(Number(s.calls))} calls/chat, ${(Number(s.total_exec_time) / Number(s.calls)).toFixed(3)} ms each (+ planned ${per(Number(s.plans))}/chat, ${(Number(s.total_plan_time) / Math.max(1, Number(s.plans))).toFixed(3)} ms each), ${(Number(s.rows) / Number(s.calls)).toFixed(1)} rows/call  ${s.q}`);
  await db.end();
  await server.stop();
} finally {
  await pgc.stop();
}
process.exit(0);
