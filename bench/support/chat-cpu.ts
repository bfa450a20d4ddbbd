/**
 * Kit's own CPU per /chat, A/B: POST /v1/chat JSON (the chat benchmark's body, secret key) against Kit from source
 * (`bench/support/kit-limiter-variant.ts`) of one or more source trees, each in its own process on one PostgreSQL 15,
 * driven by autocannon in its own process, rounds interleaved (the order rotates), medians. Prints req/s, p50/p99 and
 * the CPU ms the Kit process (and the PostgreSQL cluster) spent per answered chat — the figure a change to Kit's
 * per-chat work moves, far less sensitive to the machine's other jobs than req/s. A diagnostic, not a benchmark figure.
 *
 *   npx tsx bench/support/chat-cpu.ts [tree …]   (default: this tree; e.g. a copy of the code before a change beside it)
 *
 * KIT_BENCH_CHAT_LIMITER=noop runs every tree with the no-op limiter (no statement on the chat path).
 * BENCH_ROUNDS (default 5), BENCH_SECONDS (6), BENCH_WARMUP (2). Run it under `flock /tmp/kit-heavy.lock`.
 */
import { join, resolve } from 'node:path';
import { startPostgres } from '../../test/support/postgres.js';
import { autocannon, load1, median, startServer, type LoadResult, type ServerProcess } from './load.js';
import { seedBenchOrg } from './seed.js';
import { chatBody, clusterPids, cpuOf, KIT_BENCH_ENV, LISTENING } from './chat-request.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const root = new URL('../..', import.meta.url).pathname;
const trees = process.argv.slice(2).length > 0 ? process.argv.slice(2).map((t) => resolve(t)) : [root];
const body = chatBody(false);
const noop = process.env.KIT_BENCH_CHAT_LIMITER === 'noop';

const clusterCpu = (dir: string): number => clusterPids(dir).reduce((sum, pid) => sum + cpuOf(pid), 0);

const pg = await startPostgres();
const servers: ServerProcess[] = [];
try {
  type Target = { name: string; server: ServerProcess; secret: string };
  const targets: Target[] = [];
  for (const tree of trees) {
    const org = await seedBenchOrg({ kind: 'postgres', url: pg.url });
    const env: Record<string, string> = { ...KIT_BENCH_ENV, DATABASE_URL: pg.url, TSX_TSCONFIG_PATH: join(tree, 'tsconfig.json'), ...(noop ? { KIT_BENCH_CHAT_LIMITER: 'noop' } : {}) };
    const server = await startServer(['--import', 'tsx', join(tree, 'bench/support/kit-limiter-variant.ts')], env, join(pg.dir, `${targets.length}.log`), LISTENING);
    servers.push(server);
    targets.push({ name: tree, server, secret: org.secrets[0]! });
  }
  type Row = LoadResult & { serverMs: number; dbMs: number };
  const results = new Map<string, Row[]>();
  const loads = [load1()];
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of targets.map((_, i) => targets[(i + round) % targets.length]!)) {
      const opts = { url: `${t.server.url}/v1/chat`, method: 'POST' as const, connections: 10, body, headers: { 'content-type': 'application/json', authorization: `Bearer ${t.secret}` } };
      if (WARMUP > 0) await autocannon({ ...opts, seconds: WARMUP });
      const s0 = cpuOf(t.server.pid);
      const d0 = clusterCpu(pg.dir);
      const r = await autocannon({ ...opts, seconds: SECONDS });
      if (r.non2xx > 0 || r.errors > 0) console.error(`${t.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      results.set(t.name, [...(results.get(t.name) ?? []), { ...r, serverMs: (cpuOf(t.server.pid) - s0) / r.ok, dbMs: (clusterCpu(pg.dir) - d0) / r.ok }]);
    }
    loads.push(load1());
  }
  console.log(`load average (1 min) ${loads.join(' → ')}; ${ROUNDS} interleaved rounds of ${WARMUP} s + ${SECONDS} s, 10 connections, medians${noop ? ', no-op limiter' : ''}\n`);
  console.log('| tree | req/s | p50 / p99 ms | Kit CPU ms / chat (range) | PostgreSQL CPU ms / chat |');
  console.log('|---|---|---|---|---|');
  for (const t of targets) {
    const rows = results.get(t.name)!;
    const med = (f: (r: Row) => number) => median(rows.map(f));
    const ms = rows.map((r) => r.serverMs);
    console.log(`| ${t.name} | ${med((r) => r.rps).toFixed(0)} | ${med((r) => r.p50)} / ${med((r) => r.p99)} | ${med((r) => r.serverMs).toFixed(3)} (${Math.min(...ms).toFixed(3)}–${Math.max(...ms).toFixed(3)}) | ${noop ? '—' : med((r) => r.dbMs).toFixed(3)} |`);
  }
} finally {
  for (const s of servers) await s.stop().catch(() => undefined);
  await pg.stop();
}
process.exit(0);
