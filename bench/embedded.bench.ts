/**
 * The embedded database off the event loop (issue 12 §2), measured against the server in its own process:
 * (1) how much a 400 ms query delays GET /healthz (the slow-query harness: the real platform plus one route that
 *     runs a CPU-bound query through the app's own database client), beside PostgreSQL where installed;
 * (2) resident memory of the built server (`node dist/server/main.js`, as `npm start` runs it): after a first start
 *     on an empty data directory, idle after a restart, and idle after 2 000 requests — the whole process, worker
 *     thread and PGlite's WebAssembly memory included — beside the same server on PostgreSQL;
 * (3) restart to listening with a 1 GB data directory (built once under .tmp/bench/), after a clean stop and after
 *     SIGKILL, beside PostgreSQL.
 * Every figure is printed by this run; medians of interleaved rounds. BENCH_PARTS (default 1,2,3) picks parts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKnexDatabase } from '../adapters/node/knex-database.js';
import { migrateToLatest } from '../adapters/node/migrations/index.js';
import { postgresAvailable, startPostgres, type TestPostgres } from '../test/support/postgres.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Which parts to run (BENCH_PARTS=2 measures memory alone), default all three. */
const PARTS = (process.env.BENCH_PARTS ?? '1,2,3').split(',');
const TARGET_QUERY_MS = 400;
const GB_DIR = join(root, '.tmp/bench/kit-1gb');
const GB = 1024 ** 3;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const du = (dir: string): number => Number(spawnSync('du', ['-sb', dir]).stdout.toString().split('\t')[0]);

/** Resident and proportional set size of a process (MB), from /proc. */
function memoryOf(pid: number): { rss: number; pss: number } {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0);
  return { rss: kb('Rss') / 1024, pss: kb('Pss') / 1024 };
}

interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  /** Spawn to the `listening` log line, as the parent sees it (ms). */
  readonly listeningMs: number;
  out(): string;
  err(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `args` with `env` and waits for its listening line (main.ts) or `{"port"}` (the harness). */
async function start(args: string[], env: Record<string, string>): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, PORT: '0', HOST: '127.0.0.1', KIT_LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on http:\/\/[^:]+:(\d+)\/v1|^\{"port":(\d+)\}/m.exec(out);
      if (m) resolve(`http://127.0.0.1:${m[1] ?? m[2]}`);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}\n${err}`)));
  });
  const listeningMs = performance.now() - t0;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    child, url, listeningMs, out: () => out, err: () => err,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

const mainArgs = [join(root, 'dist/server/main.js')];
const harnessArgs = ['--import', 'tsx', join(root, 'bench/support/slow-query-server.ts')];

// ---------------------------------------------------------------------------------------------------------------
// (1) /healthz while a long query runs

async function healthzUnderQuery(env: Record<string, string>, label: string): Promise<string[]> {
  const server = await start(harnessArgs, { KIT_DEMO: 'false', ...env });
  try {
    const slow = async (n: number) => ((await (await fetch(`${server.url}/bench/slow?n=${n}`)).json()) as { ms: number }).ms;
    // Calibrate the query to about TARGET_QUERY_MS on this machine now.
    let n = 1_000_000;
    await slow(n);
    for (let i = 0; i < 6; i++) {
      const ms = await slow(n);
      if (ms >= TARGET_QUERY_MS && ms < TARGET_QUERY_MS * 1.5) break;
      n = Math.round((n * TARGET_QUERY_MS * 1.2) / Math.max(ms, 1));
    }
    const queryMs: number[] = [];
    const idleP50: number[] = [];
    const duringMax: number[] = [];
    const duringP50: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const samples: Array<{ at: number; ms: number }> = [];
      let probing = true;
      const probe = (async () => {
        while (probing) {
          const at = performance.now();
          const res = await fetch(`${server.url}/healthz`);
          await res.arrayBuffer();
          samples.push({ at, ms: performance.now() - at });
          await sleep(5);
        }
      })();
      await sleep(300);
      const from = performance.now();
      queryMs.push(await slow(n));
      const to = performance.now();
      await sleep(300);
      probing = false;
      await probe;
      const during = samples.filter((s) => s.at + s.ms > from && s.at < to).map((s) => s.ms);
      const idle = samples.filter((s) => s.at + s.ms < from || s.at > to).map((s) => s.ms);
      idleP50.push(median(idle));
      duringMax.push(Math.max(...during));
      duringP50.push(median(during));
    }
    const delay = median(duringMax) - median(idleP50);
    return [
      `| ${label}: query (generate_series of ${n.toLocaleString('en')} rows), ms | ${median(queryMs).toFixed(0)} |`,
      `| ${label}: /healthz p50 idle / p50 during the query / max during the query, ms | ${median(idleP50).toFixed(1)} / ${median(duringP50).toFixed(1)} / ${median(duringMax).toFixed(1)} |`,
      `| ${label}: **delay of /healthz by the query** (max during − p50 idle), ms | **${delay.toFixed(1)}** |`,
    ];
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// (2) Resident memory of the built server

async function load(url: string, count: number): Promise<void> {
  const email = `bench-${Date.now()}@example.test`;
  const signup = await fetch(`${url}/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'bench password 1' }) });
  const { token } = (await signup.json()) as { token: string };
  const created = await fetch(`${url}/v1/keys`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'secret', name: 'bench' }) });
  const { secret } = (await created.json()) as { secret: string };
  const body = JSON.stringify({
    messages: [{ role: 'user', content: 'How much does the Pro plan cost per month?' }],
    sources: [{ url: 'https://shop.example.com/pricing', title: 'Pricing', text: 'The Pro plan costs 20 dollars per month and includes unlimited projects. '.repeat(10) }],
    stream: false,
  });
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < count) {
      const i = next++;
      const res = i % 2
        ? await fetch(`${url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body })
        : await fetch(`${url}/v1/usage`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
    }
  }));
}

/** `db` is an empty database (a new data directory or PostgreSQL database): started once fresh, then restarted. */
async function residentMemory(db: Record<string, string>, label: string): Promise<string[]> {
  const rows: string[] = [];
  const env = { ...db, KIT_PLAN_LIMITS: JSON.stringify({ free: { requests_per_minute: 100000, monthly_tokens: 1000000000 } }) };
  const first = await start(mainArgs, env);
  await sleep(3_000);
  const afterFirst = memoryOf(first.child.pid!);
  await first.stop();
  const second = await start(mainArgs, env);
  try {
    await sleep(10_000);
    const idle = memoryOf(second.child.pid!);
    await load(second.url, 2_000);
    const busy = memoryOf(second.child.pid!);
    await sleep(10_000);
    const afterLoad = memoryOf(second.child.pid!);
    rows.push(`| ${label}: RSS (PSS) 3 s after a first start on an empty database, MB | ${afterFirst.rss.toFixed(0)} (${afterFirst.pss.toFixed(0)}) |`);
    rows.push(`| ${label}: **RSS (PSS) idle, 10 s after a restart**, MB | **${idle.rss.toFixed(0)}** (${idle.pss.toFixed(0)}) |`);
    rows.push(`| ${label}: RSS right after 2 000 requests (/chat JSON and /usage, 8 at a time) / idle 10 s later, MB | ${busy.rss.toFixed(0)} / **${afterLoad.rss.toFixed(0)}** |`);
  } finally {
    await second.stop();
  }
  return rows;
}

/**
 * Idle RSS 10 s after a restart, in ROUNDS interleaved rounds per variant (one sample varies by ±20 MB with the
 * machine's scheduling: which threads' malloc arenas keep what). Each sample: a new data directory, a first start,
 * a clean stop, the restart. Variants: the server as started (`node dist/server/main.js`), and the same with glibc's
 * `MALLOC_ARENA_MAX=2` in its environment (the arenas of the compile and worker threads keep ~30 MB of freed memory;
 * docs/operations.md) — an operator's setting, not something the process can set for itself.
 */
async function idleRss(): Promise<string[]> {
  const variants: Array<[string, Record<string, string>]> = [['as started', {}], ['with `MALLOC_ARENA_MAX=2`', { MALLOC_ARENA_MAX: '2' }]];
  const samples = new Map<string, number[]>(variants.map(([v]) => [v, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, env] of round % 2 ? [...variants].reverse() : variants) {
      const db = { KIT_DATA_DIR: freshDir(), ...env };
      await (await start(mainArgs, db)).stop();
      const server = await start(mainArgs, db);
      try {
        await sleep(10_000);
        samples.get(label)!.push(memoryOf(server.child.pid!).rss);
      } finally {
        await server.stop();
      }
    }
  }
  return variants.map(([label]) => {
    const xs = samples.get(label)!;
    return `| embedded, ${label}: **RSS idle 10 s after a restart, median of ${xs.length}** (range), MB | **${median(xs).toFixed(0)}** (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}) |`;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// (3) Restart with a 1 GB data directory

async function ensureGigabyteDir(): Promise<void> {
  if (existsSync(join(GB_DIR, 'PG_VERSION')) && du(GB_DIR) >= GB) return;
  mkdirSync(GB_DIR, { recursive: true });
  console.error(`bench: building a 1 GB embedded data directory in ${GB_DIR} (once)…`);
  const db = await createKnexDatabase({ kind: 'pglite', dataDir: GB_DIR });
  try {
    await migrateToLatest(db.knex);
    await db.knex.raw('create table if not exists bench_filler (id bigint primary key, payload text not null)');
    // 960-byte rows stay below TOAST's compression threshold, so the bytes land on disk as written.
    let id = Number(((await db.knex('bench_filler').max('id as m').first()) as { m: number | null }).m ?? 0);
    // The database's own size: the WAL (counted by du while inserting) is recycled at the checkpoint on close.
    const size = async () => Number(((await db.knex.raw('select pg_database_size(current_database()) as n')) as { rows: Array<{ n: number }> }).rows[0]!.n);
    while ((await size()) < GB) {
      await db.knex.raw("insert into bench_filler select g, repeat(md5(g::text || 'kit'), 30) from generate_series(?::bigint, ?::bigint) g", [id + 1, id + 50_000]);
      id += 50_000;
    }
  } finally {
    await db.close();
  }
}

async function restartTimes(env: Record<string, string>, crash: boolean): Promise<{ listening: number[]; internal: number[] }> {
  const listening: number[] = [];
  const internal: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const server = await start(mainArgs, { KIT_DEMO: 'false', ...env });
    listening.push(server.listeningMs);
    const line = server.out().split('\n').find((l) => l.includes('listening on'));
    internal.push((JSON.parse(line!) as { startup_ms: number }).startup_ms);
    if (crash) {
      // Writes in flight when the process dies: recovery replays the WAL on the next start.
      const writes = fetch(`${server.url}/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: `crash-${Date.now()}@example.test`, password: 'bench password 1' }) }).catch(() => undefined);
      await sleep(150);
      await server.stop('SIGKILL');
      await writes;
    } else {
      await server.stop('SIGTERM');
    }
  }
  return { listening, internal };
}

// ---------------------------------------------------------------------------------------------------------------

const built = spawnSync(process.execPath, [join(root, 'scripts/ensure-server-built.mjs')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(1);
let pg: TestPostgres | null = null;
const rows: string[] = [];
const scratch: string[] = [];
const freshDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-bench-emb-'));
  scratch.push(dir);
  return dir;
};
try {
  if (postgresAvailable()) pg = await startPostgres();
  console.log(`Machine: ${process.platform}, Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at start; ${ROUNDS} rounds, medians.\n`);
  console.log('| metric | value |');
  console.log('|---|---|');

  // (1)
  if (PARTS.includes('1')) {
    const pgliteDir = freshDir();
    rows.push(...(await healthzUnderQuery({ KIT_DATA_DIR: pgliteDir }, 'embedded (PGlite worker thread)')));
    if (pg) rows.push(...(await healthzUnderQuery({ DATABASE_URL: pg.url }, 'reference: PostgreSQL 15')));
    for (const r of rows.splice(0)) console.log(r);
  }

  // (2)
  if (PARTS.includes('2')) rows.push(...(await idleRss()));
  if (PARTS.includes('2')) rows.push(...(await residentMemory({ KIT_DATA_DIR: freshDir() }, 'embedded, `node dist/server/main.js`')));
  if (pg && PARTS.includes('2')) {
    const name = `kit_bench_${process.pid}`;
    const admin = await createKnexDatabase({ kind: 'postgres', url: pg.url, poolMax: 1 });
    await admin.knex.raw(`create database ${name}`);
    await admin.close();
    const url = new URL(pg.url);
    url.pathname = `/${name}`;
    rows.push(...(await residentMemory({ DATABASE_URL: url.href }, 'reference: the same server on PostgreSQL 15')));
  }
  for (const r of rows.splice(0)) console.log(r);

  // (3)
  if (PARTS.includes('3')) {
    await ensureGigabyteDir();
    const size = du(GB_DIR);
    const clean = await restartTimes({ KIT_DATA_DIR: GB_DIR }, false);
    const crashed = await restartTimes({ KIT_DATA_DIR: GB_DIR }, true);
    rows.push(`| embedded, data directory ${(size / GB).toFixed(2)} GB: **restart to listening after SIGTERM** (spawn → listening line; startup_ms in the log), ms | **${median(clean.listening).toFixed(0)}** (${median(clean.internal).toFixed(0)}) |`);
    rows.push(`| embedded, same directory: restart to listening after SIGKILL (crash recovery), ms | ${median(crashed.listening).toFixed(0)} (${median(crashed.internal).toFixed(0)}) |`);
    if (pg) {
      const ref = await restartTimes({ DATABASE_URL: pg.url }, false);
      rows.push(`| reference: the same server on PostgreSQL 15, restart to listening, ms | ${median(ref.listening).toFixed(0)} (${median(ref.internal).toFixed(0)}) |`);
    }
    for (const r of rows.splice(0)) console.log(r);
  }
  console.log(`\nLoad average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}.`);
} finally {
  await pg?.stop();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
}
