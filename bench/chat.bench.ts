/**
 * POST /v1/chat and GET /healthz as an operator measures them (issue 12 §1): the BUILT server (`node
 * dist/server/main.js`, built first) in its own process on PostgreSQL 15 and on the embedded PGlite, beside two
 * references in their own processes — bare Koa running the same extractive engine, and node:http for /healthz —
 * all driven by autocannon run as a separate process. Rounds are interleaved (the order rotates; PostgreSQL's JSON and
 * streamed runs stay adjacent, which goes first alternating, and their ratio is also given per round), figures are
 * medians over rounds, with each server's CPU ms per answered chat (from /proc), and the machine's load average is
 * printed. Afterwards the usage rows and the month's meter are checked against the answered chats.
 *
 * BENCH_ROUNDS (default 5), BENCH_SECONDS (10), BENCH_WARMUP (2), BENCH_CONNECTIONS (10); BENCH_NO_BUILD=1 skips the build.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresAvailable, startPostgres } from '../test/support/postgres.js';
import { load1, measure, median, startServer, type LoadResult, type ServerProcess } from './support/load.js';
import { seedBenchOrg, usageOf } from './support/seed.js';
import { chatBody, cpuOf, KIT_BENCH_ENV, LISTENING } from './support/chat-request.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const root = new URL('..', import.meta.url).pathname;

if (process.env.BENCH_NO_BUILD !== '1' || !existsSync(join(root, 'dist/server/main.js'))) {
  console.error('building dist/server/main.js …');
  execFileSync(process.execPath, [join(root, 'node_modules/webpack-cli/bin/cli.js'), '--mode', 'production', '--config-name', 'server'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

const work = mkdtempSync(join(tmpdir(), 'kit-bench-chat-'));


const servers: ServerProcess[] = [];
const pg = postgresAvailable() ? await startPostgres() : null;
try {
  const liteDir = join(work, 'pglite');
  const lite = await seedBenchOrg({ kind: 'pglite', dataDir: liteDir });
  const pgOrg = pg ? await seedBenchOrg({ kind: 'postgres', url: pg.url }) : null;
  const start = async (name: string, args: string[], env: Record<string, string>) => {
    const s = await startServer(args, env, join(work, `${name}.log`), LISTENING);
    servers.push(s);
    return s;
  };
  const kitLite = await start('kit-pglite', [join(root, 'dist/server/main.js')], { ...KIT_BENCH_ENV, KIT_DATA_DIR: liteDir });
  const kitPg = pg ? await start('kit-pg', [join(root, 'dist/server/main.js')], { ...KIT_BENCH_ENV, DATABASE_URL: pg.url }) : null;
  const koa = await start('ref-koa', ['--import', 'tsx', join(root, 'bench/support/reference-server.ts'), 'koa'], {});
  const http = await start('ref-http', ['--import', 'tsx', join(root, 'bench/support/reference-server.ts'), 'http'], {});

  type Target = { name: string; url: string; secret?: string };
  const healthTargets: Target[] = [{ name: 'Kit, PGlite', url: kitLite.url }, ...(kitPg ? [{ name: 'Kit, PostgreSQL', url: kitPg.url }] : []), { name: 'bare Koa', url: koa.url }, { name: 'node:http', url: http.url }];
  type ChatTarget = Target & { stream: boolean; pid: number };
  const pgJson: ChatTarget | null = kitPg && pgOrg ? { name: 'Kit, PostgreSQL', url: kitPg.url, secret: pgOrg.secrets[0]!, stream: false, pid: kitPg.pid } : null;
  const pgStream: ChatTarget | null = kitPg && pgOrg ? { name: 'Kit, PostgreSQL, streamed', url: kitPg.url, secret: pgOrg.secrets[0]!, stream: true, pid: kitPg.pid } : null;
  const chatTargets: ChatTarget[] = [
    { name: 'Kit, PGlite', url: kitLite.url, secret: lite.secrets[0]!, stream: false, pid: kitLite.pid },
    ...(pgJson && pgStream ? [pgJson, pgStream] : []),
    { name: 'bare Koa + engine', url: koa.url, stream: false, pid: koa.pid },
  ];
  /**
   * The order of a round's chat runs: the targets rotate by round, but PostgreSQL's JSON and streamed runs stay next
   * to each other (one unit), the first of the two alternating by round — so the streamed ÷ JSON ratio of each round
   * compares two runs a few seconds apart on the same server, and neither side is always the later one (the usage
   * tables grow and the machine's other load drifts during a run).
   */
  const chatOrder = (round: number): ChatTarget[] => {
    const units: ChatTarget[][] = chatTargets.filter((t) => t !== pgJson && t !== pgStream).map((t) => [t]);
    if (pgJson && pgStream) units.splice(1, 0, round % 2 === 0 ? [pgJson, pgStream] : [pgStream, pgJson]);
    return units.map((_, i) => units[(i + round) % units.length]!).flat();
  };
  /** Kit's (or the reference's) CPU ms per answered chat in the measured part of each run, by target. */
  const cpuPerChat = new Map<string, number[]>();
  const results = new Map<string, LoadResult[]>();
  const answered = new Map<string, number>(); // 2xx chats per Kit server, warm-ups included
  const loads: string[] = [load1()];
  for (let round = 0; round < ROUNDS; round++) {
    const rotate = <T>(list: T[]): T[] => list.map((_, i) => list[(i + round) % list.length]!);
    for (const t of rotate(healthTargets)) {
      const r = await measure({ url: `${t.url}/healthz`, connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: WARMUP });
      results.set(`health:${t.name}`, [...(results.get(`health:${t.name}`) ?? []), r]);
    }
    for (const t of chatOrder(round)) {
      const r = await measure({
        url: `${t.url}/v1/chat`, method: 'POST', connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: WARMUP, body: chatBody(t.stream),
        headers: { 'content-type': 'application/json', ...(t.secret ? { authorization: `Bearer ${t.secret}` } : {}) },
        cpu: () => cpuOf(t.pid),
      });
      if (r.non2xx > 0 || r.errors > 0) console.error(`${t.name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      results.set(`chat:${t.name}`, [...(results.get(`chat:${t.name}`) ?? []), r]);
      if (r.ok > 0) cpuPerChat.set(t.name, [...(cpuPerChat.get(t.name) ?? []), r.cpuMs / r.ok]);
      if (t.secret) answered.set(t.url, (answered.get(t.url) ?? 0) + r.ok + r.warmupOk);
    }
    loads.push(load1());
  }

  const med = (key: string, f: (r: LoadResult) => number) => median((results.get(key) ?? []).map(f));
  const rps = (key: string) => med(key, (r) => r.rps);
  const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
  console.log(`Machine: load average (1 min) ${loads.join(' → ')} over the run; ${ROUNDS} interleaved rounds of ${WARMUP} s warm-up + ${SECONDS} s, ${CONNECTIONS} connections, medians.\n`);
  console.log('| GET /healthz | req/s | p50 ms | p99 ms |');
  console.log('|---|---|---|---|');
  for (const t of healthTargets) console.log(`| ${t.name} | ${fmt(rps(`health:${t.name}`))} | ${med(`health:${t.name}`, (r) => r.p50)} | ${med(`health:${t.name}`, (r) => r.p99)} |`);
  console.log('\n| POST /v1/chat (secret key, extractive engine, 0.8 KB sources) | req/s | p50 ms | p99 ms | server CPU ms per chat |');
  console.log('|---|---|---|---|---|');
  for (const t of chatTargets) console.log(`| ${t.name}${t.stream ? '' : ', JSON'} | ${fmt(rps(`chat:${t.name}`))} | ${med(`chat:${t.name}`, (r) => r.p50)} | ${med(`chat:${t.name}`, (r) => r.p99)} | ${median(cpuPerChat.get(t.name) ?? [NaN]).toFixed(3)} |`);
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
  const goal = (ok: boolean) => (ok ? 'met' : '**missed**');
  console.log('\n| goal (issue 12 §1) | figure | |');
  console.log('|---|---|---|');
  const koaRps = rps('chat:bare Koa + engine');
  const liteRps = rps('chat:Kit, PGlite');
  if (kitPg) {
    const pgRps = rps('chat:Kit, PostgreSQL');
    const sseRps = rps('chat:Kit, PostgreSQL, streamed');
    const p50 = med('chat:Kit, PostgreSQL', (r) => r.p50);
    const p99 = med('chat:Kit, PostgreSQL', (r) => r.p99);
    console.log(`| /chat JSON on PostgreSQL ≥ 0.30× bare Koa + engine | ${ratio(pgRps, koaRps)}× | ${goal(pgRps / koaRps >= 0.3)} |`);
    console.log(`| embedded ≥ 0.7× PostgreSQL | ${ratio(liteRps, pgRps)}× | ${goal(liteRps / pgRps >= 0.7)} |`);
    console.log(`| p99 ≤ 4× p50 (PostgreSQL, JSON) | ${p99} / ${p50} ms = ${ratio(p99, p50)}× | ${goal(p99 <= 4 * p50)} |`);
    // Each round's streamed run beside its JSON run (adjacent, order alternating): the median of those paired
    // ratios, which the machine's drift between rounds does not move, beside the ratio of the medians.
    const pairs = (results.get('chat:Kit, PostgreSQL, streamed') ?? []).map((r, i) => r.rps / results.get('chat:Kit, PostgreSQL')![i]!.rps);
    const paired = median(pairs);
    console.log(`| streamed within 10 % of JSON (PostgreSQL) | ${ratio(sseRps, pgRps)}× (ratio of the medians); ${paired.toFixed(2)}× (median of the rounds' paired ratios: ${pairs.map((x) => x.toFixed(2)).join(', ')}) | ${goal(Math.abs(1 - sseRps / pgRps) <= 0.1 && Math.abs(1 - paired) <= 0.1)} |`);
    const cpuJson = median(cpuPerChat.get('Kit, PostgreSQL') ?? [NaN]);
    const cpuSse = median(cpuPerChat.get('Kit, PostgreSQL, streamed') ?? [NaN]);
    console.log(`| (streamed ÷ JSON, Kit's CPU per chat) | ${cpuSse.toFixed(3)} / ${cpuJson.toFixed(3)} ms = ${ratio(cpuSse, cpuJson)}× | |`);
  }
  console.log(`| embedded /chat vs bare Koa + engine | ${ratio(liteRps, koaRps)}× | |`);
  // Stop the servers (SIGTERM drains and settles), then check the books.
  for (const s of servers.splice(0)) await s.stop();
  const books: Array<[string, Awaited<ReturnType<typeof usageOf>>, number]> = [['PGlite', await usageOf({ kind: 'pglite', dataDir: liteDir }, lite.orgId), answered.get(kitLite.url) ?? 0]];
  if (pg && pgOrg && kitPg) books.push(['PostgreSQL', await usageOf({ kind: 'postgres', url: pg.url }, pgOrg.orgId), answered.get(kitPg.url) ?? 0]);
  console.log('\n| usage books after the run | answered chats (2xx) | usage rows | rows still reserved | month used = sum of rows | reserved left |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, u, ok] of books) console.log(`| ${name} | ${fmt(ok)} | ${fmt(u.rows)} (+${u.rows - ok} in flight when a run stopped) | ${u.reservedRows} | ${u.used === u.tokens ? 'yes' : `**no** (${u.used} vs ${u.tokens})`} | ${u.reserved} |`);
} finally {
  for (const s of servers) await s.stop().catch(() => undefined);
  await pg?.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
