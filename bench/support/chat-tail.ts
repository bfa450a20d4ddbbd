/**
 * Where /chat's latency tail comes from: the BUILT server with KIT_LATENCY_TRACE (server/http/latency-trace.ts) on
 * PostgreSQL or PGlite, driven like `npm run bench -- chat` (autocannon in its own process, 10 connections, 2 s
 * warm-up + the run), then the server-side latency of every chat of the run split into its phases — before the
 * admission is queued, waiting for the organisation's statement in the database, its own statement, back → the
 * answer starts, the answer, answer → response finished — for the median chat and the slowest 1 %, with the GC
 * pauses inside them. A diagnostic, not a benchmark figure.
 *
 *   npx tsx bench/support/chat-tail.ts [pg|pglite] [seconds] [json|stream]
 *
 * KIT_SERVER=<main.js of another build> measures that build (it must carry the same trace hooks). Run it under
 * `flock /tmp/kit-heavy.lock`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres } from '../../test/support/postgres.js';
import { autocannon, load1, startServer } from './load.js';
import { seedBenchOrg } from './seed.js';
import { chatBody, KIT_BENCH_ENV, LISTENING } from './chat-request.js';

const kind = process.argv[2] === 'pglite' ? 'pglite' : 'pg';
const seconds = Number(process.argv[3] ?? 10);
const stream = process.argv[4] === 'stream';
const root = new URL('../..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'kit-tail-'));
const traceFile = join(work, 'trace.json');

type Req = { t0: number; t1: number; path: string; marks: Record<string, number> | null };
const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const f = (n: number): string => n.toFixed(2);

const pg = kind === 'pg' ? await startPostgres() : null;
try {
  const location = pg ? { kind: 'postgres' as const, url: pg.url } : { kind: 'pglite' as const, dataDir: join(work, 'pglite') };
  const org = await seedBenchOrg(location);
  const env: Record<string, string> = { ...KIT_BENCH_ENV, KIT_LATENCY_TRACE: traceFile };
  if (pg) env.DATABASE_URL = pg.url;
  else env.KIT_DATA_DIR = join(work, 'pglite');
  const server = await startServer([process.env.KIT_SERVER ?? join(root, 'dist/server/main.js')], env, join(work, 'server.log'), LISTENING);
  const opts = { url: `${server.url}/v1/chat`, method: 'POST' as const, connections: 10, body: chatBody(stream), headers: { 'content-type': 'application/json', authorization: `Bearer ${org.secrets[0]}` } };
  await autocannon({ ...opts, seconds: 2 });
  const marker = await fetch(`${server.url}/healthz`); // the run starts after this request
  await marker.arrayBuffer();
  const r = await autocannon({ ...opts, seconds });
  const loadAfter = load1();
  await server.stop();
  const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as { requests: Req[]; gcs: Array<[number, number, number]>; spans: Array<[string, number, number]> };
  const startAt = trace.requests.filter((q) => q.path === '/healthz').at(-1)!.t1;
  const chats = trace.requests.filter((q) => q.path === '/v1/chat' && q.t0 > startAt);
  const lat = chats.map((q) => q.t1 - q.t0).sort((a, b) => a - b);
  console.log(`${kind}${stream ? ' streamed' : ' JSON'}: autocannon ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms (whole ms); load ${loadAfter}`);
  console.log(`server side, ${chats.length} chats: p50 ${f(pct(lat, 0.5))} ms, p90 ${f(pct(lat, 0.9))}, p99 ${f(pct(lat, 0.99))}, p99.9 ${f(pct(lat, 0.999))}, max ${f(lat.at(-1)!)}`);
  const gcIn = (a: number, b: number): number => trace.gcs.reduce((s, [t, d]) => s + Math.max(0, Math.min(b, t + d) - Math.max(a, t)), 0);
  const phases = (q: Req): Record<string, number> => {
    const m = q.marks ?? {};
    const queued = m.queued ?? q.t0, sent = m.sent ?? queued, back = m.back ?? sent, run = m.run ?? back, answered = m.answered ?? run;
    return { before: queued - q.t0, queue: sent - queued, statement: back - sent, toRun: run - back, answer: answered - run, finish: q.t1 - answered, gc: gcIn(q.t0, q.t1), batch: m.batch ?? 0, settling: m.settling ?? 0 };
  };
  const sorted = [...chats].sort((a, b) => a.t1 - a.t0 - (b.t1 - b.t0));
  const mean = (list: Req[]): Record<string, number> => {
    const sum: Record<string, number> = {};
    for (const q of list) for (const [k, v] of Object.entries(phases(q))) sum[k] = (sum[k] ?? 0) + v / list.length;
    return sum;
  };
  const mid = sorted.slice(Math.floor(sorted.length * 0.45), Math.floor(sorted.length * 0.55));
  const tail = sorted.slice(Math.floor(sorted.length * 0.99));
  const tail2 = sorted.slice(Math.floor(sorted.length * 0.98), Math.floor(sorted.length * 0.99));
  console.log('| chats | total ms | before admission | queued behind a statement | own statement | → answer | answer | → finished | GC inside | batch | settlements in it |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const [name, list] of [['p45–p55', mid], ['p98–p99', tail2], ['slowest 1 %', tail]] as const) {
    const m = mean(list);
    const total = list.reduce((s, q) => s + q.t1 - q.t0, 0) / list.length;
    console.log(`| ${name} (${list.length}) | ${f(total)} | ${f(m.before!)} | ${f(m.queue!)} | ${f(m.statement!)} | ${f(m.toRun!)} | ${f(m.answer!)} | ${f(m.finish!)} | ${f(m.gc!)} | ${f(m.batch!)} | ${f(m.settling!)} |`);
  }
  const runGcs = trace.gcs.filter(([t]) => t > startAt);
  const gcDur = runGcs.map(([, d]) => d).sort((a, b) => a - b);
  const byKind = new Map<number, number>();
  for (const [, , k] of runGcs) byKind.set(k, (byKind.get(k) ?? 0) + 1);
  console.log(`GC during the run: ${runGcs.length} pauses (kinds ${[...byKind].map(([k, n]) => `${k}:${n}`).join(' ')}), p50 ${f(pct(gcDur, 0.5))} ms, p99 ${f(pct(gcDur, 0.99))}, max ${f(gcDur.at(-1) ?? 0)}, total ${f(gcDur.reduce((a, b) => a + b, 0))} ms`);
  const slowWithGc = tail.filter((q) => gcIn(q.t0, q.t1) > 0.5).length;
  console.log(`slowest 1 %: ${slowWithGc} of ${tail.length} overlap > 0.5 ms of GC`);
  const spans = trace.spans.filter(([, t]) => t > startAt);
  const slowWithSettle = tail.filter((q) => spans.some(([, a, b]) => a < q.t1 && b > q.t0)).length;
  console.log(`settlement statements of their own during the run: ${spans.length} (${spans.map(([n]) => n).slice(0, 10).join(', ')}…); slowest 1 % overlapping one: ${slowWithSettle}`);
} finally {
  await pg?.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
