/**
 * Does a /chat run's throughput depend on the run before it on the same PostgreSQL? One built Kit server on a
 * throw-away PostgreSQL 15, driven by autocannon in its own process, JSON and streamed runs in an ABBA order (so a
 * linear drift cancels), each run printed with the one before it, its req/s and the PostgreSQL cluster's CPU per
 * chat. A diagnostic for the chat benchmark's "streamed within 10 % of JSON" (issue 12 §1), not a benchmark figure.
 *
 *   npx tsx bench/support/chat-order.ts [blocks] [seconds]   (default 3 blocks of ABBA BAAB, 8 s runs)
 *
 * Run it under `flock /tmp/kit-heavy.lock`. Needs dist/server/main.js (`npm run build` or `npm run bench -- chat`).
 */
import { join } from 'node:path';
import { startPostgres } from '../../test/support/postgres.js';
import { autocannon, load1, median, startServer } from './load.js';
import { seedBenchOrg } from './seed.js';
import { chatBody, clusterPids, cpuOf, KIT_BENCH_ENV, LISTENING } from './chat-request.js';

const blocks = Number(process.argv[2] ?? 3);
const seconds = Number(process.argv[3] ?? 8);
const root = new URL('../..', import.meta.url).pathname;

const pgc = await startPostgres();
try {
  const org = await seedBenchOrg({ kind: 'postgres', url: pgc.url });
  const server = await startServer([join(root, 'dist/server/main.js')], { ...KIT_BENCH_ENV, DATABASE_URL: pgc.url }, join(pgc.dir, 'server.log'), LISTENING);
  const run = (stream: boolean, s: number) =>
    autocannon({ url: `${server.url}/v1/chat`, method: 'POST', connections: 10, seconds: s, body: chatBody(stream), headers: { 'content-type': 'application/json', authorization: `Bearer ${org.secrets[0]}` } });
  await run(false, 2);
  await run(true, 2);
  const order: boolean[] = [];
  for (let b = 0; b < blocks; b++) order.push(...(b % 2 === 0 ? [false, true, true, false] : [true, false, false, true]));
  const byPrev = new Map<string, number[]>();
  let prev = 'start';
  for (const stream of order) {
    const pids = clusterPids(pgc.dir);
    const p0 = pids.reduce((a, p) => a + cpuOf(p), 0);
    const s0 = cpuOf(server.pid);
    const r = await run(stream, seconds);
    const p1 = pids.reduce((a, p) => a + cpuOf(p), 0);
    const s1 = cpuOf(server.pid);
    const kind = stream ? 'streamed' : 'JSON';
    console.log(`${kind.padEnd(8)} after ${prev.padEnd(8)} ${r.rps.toFixed(0).padStart(5)} req/s  p50 ${r.p50} p99 ${r.p99} ms  Kit ${((s1 - s0) / r.ok).toFixed(3)} ms/chat  PG ${((p1 - p0) / r.ok).toFixed(3)} ms/chat  load ${load1()}`);
    const key = `${kind} after ${prev === kind ? 'same' : 'other'}`;
    if (prev !== 'start') byPrev.set(key, [...(byPrev.get(key) ?? []), r.rps]);
    prev = kind;
  }
  for (const [k, v] of byPrev) console.log(`${k}: median ${median(v).toFixed(0)} req/s over ${v.length}`);
  await server.stop();
} finally {
  await pgc.stop();
}
process.exit(0);
