/**
 * The owner's loop (issue 13), measured from outside: the server runs in its own process (`server/main.ts`, as
 * `npm start`), autocannon drives it over HTTP.
 * (1) What question logging costs /chat: two organisations on one server, logging `off` and `redacted`, POST /v1/chat
 *     (`stream: false`, secret key, extractive engine) in interleaved rounds; the server's CPU time per request (from
 *     /proc) and requests per second, medians over rounds and their ratio (on PostgreSQL 15).
 * (2) Insights queries at scale: KIT_BENCH_QUESTIONS (default 1 000 000) logged questions seeded by
 *     scripts/seed-questions.ts, then each insights route read by one autocannon connection; p50 and p90 latency, on
 *     PostgreSQL 15 and on the embedded PGlite.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createKnexDatabase } from '../adapters/node/knex-database.js';
import { seedQuestions } from '../scripts/seed-questions.js';
import { postgresAvailable, startPostgres } from '../test/support/postgres.js';
import { startChildServer, type ChildServer } from '../test/server/support/child-server.js';

const QUESTIONS = Number(process.env.KIT_BENCH_QUESTIONS ?? 1_000_000);
const ROUNDS = Number(process.env.KIT_BENCH_ROUNDS ?? 3);
const ROUND_SECONDS = Number(process.env.KIT_BENCH_ROUND_SECONDS ?? 8);
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
const ENV = {
  KIT_JWT_SECRET: JWT_SECRET,
  KIT_DEMO: 'false',
  KIT_LOG_LEVEL: 'warn',
  KIT_SIGNUPS_PER_IP_PER_HOUR: '100000',
  KIT_PLAN_LIMITS: JSON.stringify({ free: { requests_per_minute: 1_000_000, monthly_tokens: 1_000_000_000 } }),
};
const CHAT = JSON.stringify({
  messages: [{ role: 'user', content: 'How much does the Pro plan cost per month? Mail me at jane@example.org' }],
  sources: [{ url: 'https://shop.example.com/pricing', title: 'Pricing', text: 'The Pro plan costs 20 dollars per month and includes unlimited projects. The Team plan costs 50 dollars per month and adds roles. '.repeat(20) }],
  stream: false,
  page_url: 'https://shop.example.com/pricing?utm_source=bench',
});

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number, d = 1): string => n.toFixed(d);

function serverCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in USER_HZ (100)
}

async function json(url: string, init: RequestInit & { token?: string } = {}): Promise<any> {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.headers as object) } });
  const body = await res.json();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function signup(server: ChildServer, label: string): Promise<{ token: string; orgId: string; secret: string; keyId: string }> {
  const s = await json(`${server.url}/v1/auth/signup`, { method: 'POST', body: JSON.stringify({ email: `${label}-${Date.now()}@bench.example`, password: 'bench password 1' }) });
  const key = await json(`${server.url}/v1/keys`, { method: 'POST', token: s.token, body: JSON.stringify({ kind: 'secret', name: label }) });
  return { token: s.token, orgId: s.organization.id, secret: key.secret, keyId: key.key.id };
}

async function loggingOverhead(server: ChildServer): Promise<string[]> {
  const off = await signup(server, 'off');
  const on = await signup(server, 'on');
  await json(`${server.url}/v1/org/question-logging`, { method: 'PATCH', token: on.token, headers: { 'if-match': '*' }, body: JSON.stringify({ mode: 'redacted' }) });
  const round = async (key: string) => {
    const before = serverCpuMs(server.child.pid!);
    const r = await autocannon({ url: `${server.url}/v1/chat`, method: 'POST', connections: 8, duration: ROUND_SECONDS, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: CHAT });
    const cpu = serverCpuMs(server.child.pid!) - before;
    if (r.non2xx > 0) throw new Error(`${r.non2xx} non-2xx answers`);
    return { cpuPerRequest: cpu / r.requests.total, rps: r.requests.average };
  };
  await round(off.secret); // warm-up
  const offs: Array<{ cpuPerRequest: number; rps: number }> = [];
  const ons: typeof offs = [];
  for (let i = 0; i < ROUNDS; i++) {
    offs.push(await round(off.secret));
    ons.push(await round(on.secret));
  }
  const logged = await json(`${server.url}/v1/questions?limit=1`, { token: on.token });
  if (logged.data.length !== 1) throw new Error('logging on stored nothing');
  const cpuOff = median(offs.map((r) => r.cpuPerRequest));
  const cpuOn = median(ons.map((r) => r.cpuPerRequest));
  const rpsOff = median(offs.map((r) => r.rps));
  const rpsOn = median(ons.map((r) => r.rps));
  return [
    '| /chat (PostgreSQL 15, 8 connections) | logging off | logging redacted | on / off |',
    '|---|---|---|---|',
    `| server CPU per request, ms (median of ${ROUNDS} rounds) | ${fmt(cpuOff, 2)} | ${fmt(cpuOn, 2)} | ${fmt(cpuOn / cpuOff, 3)} |`,
    `| requests per second (median) | ${fmt(rpsOff)} | ${fmt(rpsOn)} | ${fmt(rpsOn / rpsOff, 3)} |`,
  ];
}

const QUERIES: ReadonlyArray<[string, (weekAgo: string) => string]> = [
  ['list, newest 20', () => '/v1/questions'],
  ['list, outcome=refused', () => '/v1/questions?outcome=refused'],
  ['search q=warranty', () => '/v1/questions?q=warranty'],
  ['list, one page', () => '/v1/questions?page=https%3A%2F%2Fshop.example.com%2Fp%2F17'],
  ['top questions (all retained)', () => '/v1/insights/top-questions'],
  ['coverage gaps (all retained)', () => '/v1/insights/coverage-gaps'],
  ['daily counts, 30 days', () => '/v1/insights/daily'],
  ['top questions, last 7 days', (w) => `/v1/insights/top-questions?from=${w}`],
];

async function insightQueries(server: ChildServer, token: string): Promise<Map<string, { p50: number; p90: number }>> {
  const weekAgo = new Date(Date.now() - 7 * 86_400_000).toISOString();
  const out = new Map<string, { p50: number; p90: number }>();
  for (const [label, path] of QUERIES) {
    await autocannon({ url: server.url + path(weekAgo), connections: 1, amount: 5, headers: { authorization: `Bearer ${token}` } }); // warm-up
    const r = await autocannon({ url: server.url + path(weekAgo), connections: 1, amount: 40, headers: { authorization: `Bearer ${token}` } });
    if (r.non2xx > 0) throw new Error(`${label}: ${r.non2xx} non-2xx answers`);
    out.set(label, { p50: r.latency.p50, p90: r.latency.p90 });
  }
  return out;
}

async function main(): Promise<void> {
  const lines: string[] = [];
  const results: Array<[string, Map<string, { p50: number; p90: number }>]> = [];
  if (!postgresAvailable()) throw new Error('PostgreSQL 15 is needed for this benchmark');
  const pg = await startPostgres();
  try {
    const server = await startChildServer({ ...ENV, DATABASE_URL: pg.url });
    try {
      lines.push(...(await loggingOverhead(server)));
      const owner = await signup(server, 'scale');
      const db = await createKnexDatabase({ kind: 'postgres', url: pg.url });
      const seeded = Date.now();
      await seedQuestions(db, { orgId: owner.orgId, keyId: owner.keyId, count: QUESTIONS });
      await db.close();
      console.error(`postgres: seeded ${QUESTIONS} questions in ${((Date.now() - seeded) / 1000).toFixed(0)} s`);
      results.push(['PostgreSQL 15', await insightQueries(server, owner.token)]);
    } finally {
      await server.stop();
    }
  } finally {
    await pg.stop();
  }

  const dir = mkdtempSync(join(tmpdir(), 'kit-bench-insights-'));
  try {
    let server = await startChildServer({ ...ENV, KIT_DATA_DIR: dir });
    const owner = await signup(server, 'scale');
    await server.stop();
    const db = await createKnexDatabase({ kind: 'pglite', dataDir: dir });
    const seeded = Date.now();
    await seedQuestions(db, { orgId: owner.orgId, keyId: owner.keyId, count: QUESTIONS });
    await db.close();
    console.error(`pglite: seeded ${QUESTIONS} questions in ${((Date.now() - seeded) / 1000).toFixed(0)} s`);
    server = await startChildServer({ ...ENV, KIT_DATA_DIR: dir });
    try {
      results.push(['embedded PGlite', await insightQueries(server, owner.token)]);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  lines.push('', `| insights at ${QUESTIONS.toLocaleString('en')} logged questions, p50 / p90 ms (1 connection, 40 requests) | ${results.map(([n]) => n).join(' | ')} |`, `|---|${results.map(() => '---').join('|')}|`);
  for (const [label] of QUERIES) lines.push(`| ${label} | ${results.map(([, m]) => `${fmt(m.get(label)!.p50)} / ${fmt(m.get(label)!.p90)}`).join(' | ')} |`);
  lines.push('', `machine load (1/5/15 min): ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.log(lines.join('\n'));
}

await main();
