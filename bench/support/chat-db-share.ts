/**
 * How much of /chat's cost on PostgreSQL is the database's: POST /v1/chat JSON (the chat benchmark's body, secret key)
 * against
 *  - Kit built (`node dist/server/main.js`, as `npm run bench -- chat` runs it) on PostgreSQL 15,
 *  - Kit from source with its PostgreSQL limiter (`bench/support/kit-limiter-variant.ts`),
 *  - the same entry with a no-op limiter port (`KIT_BENCH_CHAT_LIMITER=noop`: no windows, quota or usage row — no
 *    statement on the chat path),
 *  - bare Koa calling the same engine (`bench/support/reference-server.ts koa`),
 * each in its own process, driven by autocannon in its own process, rounds interleaved (the order rotates), medians.
 * Beside req/s: the CPU ms each Kit process and the PostgreSQL cluster (every backend, from /proc) spent per answered
 * chat. A diagnostic of the chat benchmark's goal, not a figure of Kit as it runs (the no-op variant meters nothing).
 *
 *   npx tsx bench/support/chat-db-share.ts   (BENCH_ROUNDS, default 5; BENCH_SECONDS, 10; BENCH_WARMUP, 2)
 *
 * Run it under `flock /tmp/kit-heavy.lock`. Needs dist/server/main.js (`npm run build` or `npm run bench -- chat`).
 */
import { join } from 'node:path';
import { startPostgres } from '../../test/support/postgres.js';
import { autocannon, load1, median, startServer, type LoadResult, type ServerProcess } from './load.js';
import { seedBenchOrg } from './seed.js';
import { chatBody, clusterPids, cpuOf, KIT_BENCH_ENV, LISTENING } from './chat-request.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const root = new URL('../..', import.meta.url).pathname;
const body = chatBody(false);

/** CPU ms of the postmaster and its children (backends, WAL writer, …). */
function clusterCpu(dir: string): number {
  return clusterPids(dir).reduce((sum, pid) => sum + cpuOf(pid), 0);
}

const pg = await startPostgres();
const servers: ServerProcess[] = [];
try {
  const kitEnv = { ...KIT_BENCH_ENV, DATABASE_URL: pg.url };
  type Target = { name: string; server: ServerProcess; secret?: string; db: boolean };
  const targets: Target[] = [];
  const kit = async (name: string, args: string[], env: Record<string, string>, db: boolean) => {
    const org = await seedBenchOrg({ kind: 'postgres', url: pg.url });
    const server = await startServer(args, { ...kitEnv, ...env }, join(pg.dir, `${targets.length}.log`), LISTENING);
    servers.push(server);
    targets.push({ name, server, secret: org.secrets[0]!, db });
  };
  await kit('Kit, dist, PostgreSQL limiter', [join(root, 'dist/server/main.js')], {}, true);
  await kit('Kit, source, PostgreSQL limiter', ['--import', 'tsx', join(root, 'bench/support/kit-limiter-variant.ts')], {}, true);
  await kit('Kit, source, no-op limiter (no statement)', ['--import', 'tsx', join(root, 'bench/support/kit-limiter-variant.ts')], { KIT_BENCH_CHAT_LIMITER: 'noop' }, false);
  const koa = await startServer(['--import', 'tsx', join(root, 'bench/support/reference-server.ts'), 'koa'], {}, join(pg.dir, 'koa.log'), LISTENING);
  servers.push(koa);
  targets.push({ name: 'bare Koa + engine', server: koa, db: false });

  const results = new Map<string, Array<LoadResult & { serverMs: number; dbMs: number }>>();
  const loads = [load1()];
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of targets.map((_, i) => targets[(i + round) % targets.length]!)) {
      const opts = { url: `${t.server.url}/v1/chat`, method: 'POST' as const, connections: 10, body, headers: { 'content-type': 'application/json', ...(t.secret ? { authorization: `Bearer ${t.secret}` } : {}) } };
      if (WARMUP > 0) await autocannon({ ...opts, seconds: WARMUP });
      const s0 = cpuOf(t.server.pid);
      const d0 = clusterCpu(pg.dir);
      const r = await autocannon({ ...opts, seconds: SECONDS });
      const serverMs = (cpuOf(t.server.pid) - s0) / r.ok;
      const dbMs = (clusterCpu(pg.dir) - d0) / r.ok;
      if (r.non2xx > 0 || r.errors > 0) console.error(`${t.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      results.set(t.name, [...(results.get(t.name) ?? []), { ...r, serverMs, dbMs }]);
    }
    loads.push(load1());
  }
  const med = (name: string, f: (r: LoadResult & { serverMs: number; dbMs: number }) => number) => median(results.get(name)!.map(f));
  const koaRps = med('bare Koa + engine', (r) => r.rps);
  console.log(`Machine: load average (1 min) ${loads.join(' → ')} over the run; ${ROUNDS} interleaved rounds of ${WARMUP} s warm-up + ${SECONDS} s, 10 connections, medians.\n`);
  console.log('| POST /v1/chat JSON (secret key, extractive engine, 0.8 KB sources) | req/s | p50 / p99 ms | × bare Koa + engine | server CPU ms per chat | PostgreSQL CPU ms per chat |');
  console.log('|---|---|---|---|---|---|');
  for (const t of targets) {
    const rps = med(t.name, (r) => r.rps);
    console.log(`| ${t.name} | ${rps.toLocaleString('en-US', { maximumFractionDigits: 0 })} | ${med(t.name, (r) => r.p50)} / ${med(t.name, (r) => r.p99)} | ${(rps / koaRps).toFixed(2)}× | ${med(t.name, (r) => r.serverMs).toFixed(3)} | ${t.db ? med(t.name, (r) => r.dbMs).toFixed(3) : '—'} |`);
  }
} finally {
  for (const s of servers) await s.stop().catch(() => undefined);
  await pg.stop();
}
process.exit(0);
