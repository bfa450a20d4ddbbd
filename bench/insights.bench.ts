/**
 * The owner's loop (issue 13), measured from outside: the BUILT server runs in its own process, autocannon runs as its
 * own process (bench/support/load.ts), on PostgreSQL 15 and on the embedded PGlite.
 *
 * (1) What question logging costs /chat: two organisations on one server, logging `off` and `redacted`, POST /v1/chat
 *     (`stream: false`, secret key, extractive engine, a question with an email to mask and a page URL) in interleaved
 *     rounds (off/on, then on/off, …). Per round: the CPU time the server used per answered request — the Node process
 *     and its threads, plus on PostgreSQL the database's processes (a log written by the database costs there) — and
 *     requests per second. Medians over rounds and their on/off ratio; the goal is ≤ 1.10. The CPU time is also split
 *     into the server's main thread and everything else (on PGlite: its worker thread, where the log's rows are written).
 * (2) Insights at scale: BENCH_QUESTIONS (default 1 000 000) logged questions seeded by scripts/seed-questions.ts into
 *     a third organisation, then each insights route read by one connection for BENCH_SECONDS; p50 and p99. Goals:
 *     p50 ≤ 100 ms on PostgreSQL, ≤ 300 ms embedded.
 *
 * BENCH_QUESTIONS, BENCH_ROUNDS (5), BENCH_ROUND_SECONDS (6), BENCH_SECONDS (5), BENCH_NO_BUILD=1,
 * BENCH_DATABASES=postgres,pglite. BENCH_QUESTIONS=0 measures (1) alone (`BENCH_QUESTIONS=0 npm run bench -- insights`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKnexDatabase, type DatabaseLocation } from '../adapters/node/knex-database.js';
import { seedQuestions } from '../scripts/seed-questions.js';
import { postgresAvailable, startPostgres } from '../test/support/postgres.js';
import { autocannon, load1, median, startServer, type ServerProcess } from './support/load.js';

const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 6);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const DATABASES = (process.env.BENCH_DATABASES ?? 'postgres,pglite').split(',');
const root = new URL('..', import.meta.url).pathname;
if (process.env.BENCH_NO_BUILD !== '1' || !existsSync(join(root, 'dist/server/main.js'))) {
  console.error('building dist/server/main.js …');
  execFileSync(process.execPath, [join(root, 'node_modules/webpack-cli/bin/cli.js'), '--mode', 'production', '--config-name', 'server'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
const work = mkdtempSync(join(tmpdir(), 'kit-bench-insights-'));
const PASSWORD = 'bench password 1';
const kitEnv = {
  PORT: '0',
  HOST: '127.0.0.1',
  KIT_DEMO: 'false',
  NODE_ENV: 'production',
  KIT_JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  KIT_LOGIN_MAX_PER_IP: '100000',
  KIT_SIGNUPS_PER_IP_PER_HOUR: '100000',
  KIT_PLAN_LIMITS: JSON.stringify({ free: { requests_per_minute: 1_000_000, org_requests_per_minute: 1_000_000, monthly_tokens: 1_000_000_000_000 } }),
};
const CHAT = JSON.stringify({
  messages: [{ role: 'user', content: 'How much does the Pro plan cost per month? Mail me at jane@example.org' }],
  sources: [{ url: 'https://shop.example.com/pricing', title: 'Pricing', text: 'The Pro plan costs 20 dollars per month and includes unlimited projects. The Team plan costs 50 dollars per month and adds roles. '.repeat(20) }],
  stream: false,
  page_url: 'https://shop.example.com/pricing?utm_source=bench',
  conversation_id: 'cnv_bench',
});

const fmt = (n: number, d = 1): string => n.toFixed(d);

/** utime + stime of a process (own threads), and of its reaped children, in ms. */
function procCpuMs(pid: number): { own: number; children: number } {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const tick = 10; // USER_HZ = 100
  return { own: (Number(f[11]) + Number(f[12])) * tick, children: (Number(f[13]) + Number(f[14])) * tick };
}

/** utime + stime of the server's main thread (its task id is the process id), in ms. */
function mainThreadCpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** CPU ms of a process tree one level deep: the process, its reaped children, and its live children. */
function treeCpuMs(pid: number): number {
  const self = procCpuMs(pid);
  let total = self.own + self.children;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.split(') ')[1]!.split(' ')[1]) === pid) total += procCpuMs(Number(entry)).own;
    } catch {
      // the process ended meanwhile: its time moved to the parent's children
    }
  }
  return total;
}

/** The postmaster of the cluster listening on `port`. */
function postmasterOf(port: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\u0000');
      if (argv[0]?.endsWith('/postgres') && ` ${argv.join(' ')} `.includes(` -p ${port} `)) return Number(entry);
    } catch {
      // gone
    }
  }
  throw new Error(`no postmaster on port ${port}`);
}

async function call(url: string, init: RequestInit & { token?: string } = {}): Promise<any> {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.headers as object) } });
  const body = await res.json();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function signup(url: string, label: string): Promise<{ token: string; orgId: string; email: string; secret: string; keyId: string }> {
  const email = `${label}-${Date.now()}@bench.example`;
  const s = await call(`${url}/v1/auth/signup`, { method: 'POST', body: JSON.stringify({ email, password: PASSWORD }) });
  const key = await call(`${url}/v1/keys`, { method: 'POST', token: s.token, body: JSON.stringify({ kind: 'secret', name: label }) });
  return { token: s.token, orgId: s.organization.id, email, secret: key.secret, keyId: key.key.id };
}

const login = async (url: string, email: string): Promise<string> => (await call(`${url}/v1/auth/login`, { method: 'POST', body: JSON.stringify({ email, password: PASSWORD }) })).token;

/**
 * Samples PostgreSQL's active client sessions every 20 ms while `during` runs: the share of samples in which a
 * session ran (or waited on) each kind of statement, by wait event — where a chat's time goes in the database.
 */
async function sampleWaits<T>(url: string | null, during: () => Promise<T>): Promise<{ result: T; waits: Map<string, number> }> {
  if (!url) return { result: await during(), waits: new Map() };
  const db = await createKnexDatabase({ kind: 'postgres', url, poolMax: 1 });
  const waits = new Map<string, number>();
  let samples = 0;
  let stop = false;
  const sampler = (async () => {
    while (!stop) {
      const { rows } = (await db.knex.raw(
        `select coalesce(wait_event_type || ':' || wait_event, 'running') as w, split_part(ltrim(query), ' ', 1) || ' ' || coalesce(substring(query from '(?:into|update) ([a-z_]+)'), '') as q
           from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid() and state = 'active'`,
      )) as { rows: Array<{ w: string; q: string }> };
      samples++;
      for (const r of rows) waits.set(`${r.q.trim()} (${r.w})`, (waits.get(`${r.q.trim()} (${r.w})`) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  try {
    const result = await during();
    return { result, waits: new Map([...waits].map(([k, v]) => [k, v / Math.max(1, samples)])) };
  } finally {
    stop = true;
    await sampler;
    await db.close();
  }
}

const waitLines: string[] = [];

async function loggingOverhead(server: ServerProcess, cpu: () => number, name: string, pgUrl: string | null): Promise<string[]> {
  const off = await signup(server.url, 'off');
  const on = await signup(server.url, 'on');
  await call(`${server.url}/v1/org/question-logging`, { method: 'PATCH', token: on.token, headers: { 'if-match': '*' }, body: JSON.stringify({ mode: 'redacted' }) });
  const waitsOf = new Map<string, Map<string, number[]>>([['off', new Map()], ['on', new Map()]]);
  const round = async (key: string, seconds = ROUND_SECONDS) => {
    const before = cpu();
    const mainBefore = mainThreadCpuMs(server.pid);
    const { result: r, waits } = await sampleWaits(seconds === ROUND_SECONDS ? pgUrl : null, () => autocannon({ url: `${server.url}/v1/chat`, method: 'POST', connections: 8, seconds, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: CHAT }));
    const used = cpu() - before;
    const main = mainThreadCpuMs(server.pid) - mainBefore;
    const side = waitsOf.get(key === on.secret ? 'on' : 'off')!;
    for (const [k, v] of waits) side.set(k, [...(side.get(k) ?? []), v]);
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${r.non2xx} non-2xx answers, ${r.errors} errors`);
    return { cpuPerRequest: used / r.ok, mainPerRequest: main / r.ok, rps: r.rps };
  };
  await round(off.secret, 3); // warm-up, both paths
  await round(on.secret, 3);
  const offs: Array<{ cpuPerRequest: number; mainPerRequest: number; rps: number }> = [];
  const ons: typeof offs = [];
  for (let i = 0; i < ROUNDS; i++) {
    // Alternating order, so a drift of the machine's load over the run falls on both sides alike.
    if (i % 2 === 0) offs.push(await round(off.secret)), ons.push(await round(on.secret));
    else ons.push(await round(on.secret)), offs.push(await round(off.secret));
  }
  await new Promise((r) => setTimeout(r, 1_000)); // the log's last batch
  const logged = await call(`${server.url}/v1/questions?limit=1`, { token: on.token });
  const notLogged = await call(`${server.url}/v1/questions?limit=1`, { token: off.token });
  if (logged.data.length !== 1 || notLogged.data.length !== 0) throw new Error('logging on stored nothing, or logging off stored text');
  if (logged.data[0].question.includes('jane@example.org')) throw new Error('the logged question was not masked');
  const cpuOff = median(offs.map((r) => r.cpuPerRequest));
  const cpuOn = median(ons.map((r) => r.cpuPerRequest));
  const mainOff = median(offs.map((r) => r.mainPerRequest));
  const mainOn = median(ons.map((r) => r.mainPerRequest));
  const restOff = median(offs.map((r) => r.cpuPerRequest - r.mainPerRequest));
  const restOn = median(ons.map((r) => r.cpuPerRequest - r.mainPerRequest));
  const rpsOff = median(offs.map((r) => r.rps));
  const rpsOn = median(ons.map((r) => r.rps));
  if (pgUrl) {
    const kinds = [...new Set([...waitsOf.get('off')!.keys(), ...waitsOf.get('on')!.keys()])];
    // A kind absent from a round counts 0 there.
    const share = (side: string, k: string) => median([...(waitsOf.get(side)!.get(k) ?? []), ...Array(Math.max(0, ROUNDS - (waitsOf.get(side)!.get(k)?.length ?? 0))).fill(0)]);
    waitLines.push(...kinds.map((k) => [k, share('off', k), share('on', k)] as const).filter(([, a, b]) => a >= 0.01 || b >= 0.01).sort((a, b) => b[2] + b[1] - a[2] - a[1])
      .map(([k, a, b]) => `| ${name}: ${k} | ${fmt(a, 2)} | ${fmt(b, 2)} |`));
  }
  return [
    `| ${name}: server CPU ms per /chat (median of ${ROUNDS} rounds of ${ROUND_SECONDS} s, 8 connections) | ${fmt(cpuOff, 2)} | ${fmt(cpuOn, 2)} | ${fmt(cpuOn / cpuOff, 3)} |`,
    `| ${name}: requests per second (median) | ${fmt(rpsOff)} | ${fmt(rpsOn)} | ${fmt(rpsOn / rpsOff, 3)} |`,
    `| ${name}: of which the server's main thread (JavaScript: HTTP, chat, the log's masking and batching), CPU ms per /chat | ${fmt(mainOff, 3)} | ${fmt(mainOn, 3)} | ${fmt(mainOn / mainOff, 3)} |`,
    `| ${name}: of which every other thread and process (${pgUrl ? 'PostgreSQL\'s processes' : 'PGlite\'s worker thread'}, GC, libuv), CPU ms per /chat | ${fmt(restOff, 3)} | ${fmt(restOn, 3)} | ${fmt(restOn / restOff, 3)} |`,
  ];
}

const QUERIES: ReadonlyArray<[string, (weekAgo: string) => string]> = [
  ['GET /questions (newest 20)', () => '/v1/questions'],
  ['GET /questions?outcome=refused', () => '/v1/questions?outcome=refused'],
  ['GET /questions?q=warranty (search)', () => '/v1/questions?q=warranty'],
  ['GET /questions?page=… (one page of 200)', () => '/v1/questions?page=https%3A%2F%2Fshop.example.com%2Fp%2F17'],
  ['GET /insights/top-questions (all retained)', () => '/v1/insights/top-questions'],
  ['GET /insights/coverage-gaps (all retained)', () => '/v1/insights/coverage-gaps'],
  ['GET /insights/daily (30 days)', () => '/v1/insights/daily'],
  ['GET /insights/top-questions?from=7 days ago', (w) => `/v1/insights/top-questions?from=${encodeURIComponent(w)}`],
  ['GET /insights/coverage-gaps?from=7 days ago', (w) => `/v1/insights/coverage-gaps?from=${encodeURIComponent(w)}`],
  ['GET /insights/top-questions?from=30 days ago', (w) => `/v1/insights/top-questions?from=${encodeURIComponent(new Date(Date.parse(w) - 23 * 86_400_000).toISOString())}`],
];

async function insightQueries(server: ServerProcess, token: string): Promise<Map<string, { p50: number; p99: number }>> {
  const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString();
  const out = new Map<string, { p50: number; p99: number }>();
  for (const [label, path] of QUERIES) {
    const run = (seconds: number) => autocannon({ url: server.url + path(weekAgo), connections: 1, seconds, headers: { authorization: `Bearer ${token}` } });
    await run(2); // warm-up
    const r = await run(SECONDS);
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${label}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
    out.set(label, { p50: r.p50, p99: r.p99 });
  }
  return out;
}

const overhead: string[] = [];
const scale: Array<[string, Map<string, { p50: number; p99: number }>, number]> = [];
const loads = [load1()];
const pg = DATABASES.includes('postgres') && postgresAvailable() ? await startPostgres() : null;
if (DATABASES.includes('postgres') && !pg) console.error('PostgreSQL 15 is not installed: measuring PGlite only');
try {
  const targets: Array<[string, DatabaseLocation, Record<string, string>]> = [];
  if (pg) targets.push(['PostgreSQL 15', { kind: 'postgres', url: pg.url }, { DATABASE_URL: pg.url }]);
  if (DATABASES.includes('pglite')) targets.push(['PGlite (embedded)', { kind: 'pglite', dataDir: join(work, 'pglite') }, { KIT_DATA_DIR: join(work, 'pglite') }]);
  for (const [name, location, env] of targets) {
    const start = () => startServer([join(root, 'dist/server/main.js')], { ...kitEnv, ...env }, join(work, `${location.kind}.log`), /listening on (http:\/\/[^/"\s]+)/);
    let server = await start();
    const postmaster = location.kind === 'postgres' ? postmasterOf(new URL(location.url).port) : null;
    const cpu = () => treeCpuMs(server.pid) + (postmaster ? treeCpuMs(postmaster) : 0);
    overhead.push(...(await loggingOverhead(server, cpu, name, location.kind === 'postgres' ? location.url : null)));
    if (QUESTIONS === 0) {
      await server.stop();
      loads.push(load1());
      continue;
    }
    const owner = await signup(server.url, 'scale');
    // PGlite is one process's database: seed it with the server stopped (the data directory is locked while it runs).
    await server.stop();
    const db = await createKnexDatabase(location);
    const t = performance.now();
    await seedQuestions(db, { orgId: owner.orgId, keyId: owner.keyId, count: QUESTIONS, onProgress: (n) => process.stderr.write(`\r  ${name}: seeded ${n}/${QUESTIONS}`) });
    const seedSeconds = (performance.now() - t) / 1000;
    process.stderr.write('\n');
    if (location.kind === 'postgres') await db.knex.raw('checkpoint');
    await db.knex.raw('vacuum analyze question_log');
    await db.close();
    server = await start();
    try {
      scale.push([name, await insightQueries(server, await login(server.url, owner.email)), seedSeconds]);
    } finally {
      await server.stop();
    }
    loads.push(load1());
  }
} finally {
  await pg?.stop();
  rmSync(work, { recursive: true, force: true });
}

console.log('\n| /chat, question logging | off | redacted | on / off |');
console.log('|---|---|---|---|');
for (const line of overhead) console.log(line);
if (waitLines.length > 0) {
  console.log('\n| PostgreSQL sessions busy during the /chat rounds (median over rounds; mean active sessions per 20 ms sample), by statement (wait event) | logging off | redacted |');
  console.log('|---|---|---|');
  for (const line of waitLines) console.log(line);
}
if (QUESTIONS > 0) {
  console.log(`\n| insights at ${QUESTIONS.toLocaleString('en-US')} logged questions (1 connection, ${SECONDS} s), p50 / p99 ms | ${scale.map(([n]) => n).join(' | ')} |`);
  console.log(`|---|${scale.map(() => '---').join('|')}|`);
  for (const [label] of QUERIES) console.log(`| ${label} | ${scale.map(([, m]) => `${fmt(m.get(label)!.p50)} / ${fmt(m.get(label)!.p99)}`).join(' | ')} |`);
  console.log(`\nSeeding ${QUESTIONS.toLocaleString('en-US')} questions (statement triggers keeping the summaries): ${scale.map(([n, , s]) => `${n} ${fmt(s, 0)} s`).join(', ')}.`);
}
console.log(`Machine: load average (1 min) ${loads.join(' → ')}.`);
process.exit(0);
