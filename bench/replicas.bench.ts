/**
 * Replicas (issue 12 §4): 1, 2 and 4 BUILT server processes (`node dist/server/main.js`) on one PostgreSQL 15, each
 * driven by its own autocannon process (10 connections per replica, as a load balancer spreading a growing load),
 * rounds interleaved, medians: total and per-process /chat throughput. Then, across all 4 processes at once: the
 * per-key and per-organisation windows, the monthly quota and a bot-challenge replay, each checked exactly.
 *
 * BENCH_ROUNDS (default 3), BENCH_SECONDS (10), BENCH_WARMUP (2), BENCH_NO_BUILD=1.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKnexDatabase } from '../adapters/node/knex-database.js';
import { createAltchaSolver } from '../adapters/remote/altcha-solver.js';
import { keyDisplay } from '../core/keys/key-format.js';
import { newId, newKeyValue, sha256Hex } from '../server/ids.js';
import { reservationInputTokens } from '../server/services/chat-service.js';
import { postgresAvailable, startPostgres } from '../test/support/postgres.js';
import { autocannon, load1, median, startServer, type LoadResult, type ServerProcess } from './support/load.js';
import { seedInto } from './support/seed.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const root = new URL('..', import.meta.url).pathname;
if (!postgresAvailable()) {
  console.log('(PostgreSQL 15 not installed: replicas benchmark skipped)');
  process.exit(0);
}
if (process.env.BENCH_NO_BUILD !== '1' || !existsSync(join(root, 'dist/server/main.js'))) {
  console.error('building dist/server/main.js …');
  execFileSync(process.execPath, [join(root, 'node_modules/webpack-cli/bin/cli.js'), '--mode', 'production', '--config-name', 'server'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

const QUESTION = 'How much does the Pro plan cost per month?';
const OFF_TOPIC = 'Who painted the Mona Lisa in Florence?';
const SOURCE = { url: 'https://shop.example.com/pricing', title: 'Pricing', text: 'The Pro plan costs 20 dollars per month and includes unlimited projects. The Team plan costs 50 dollars per month. '.repeat(6) };
const body = (question: string) => JSON.stringify({ messages: [{ role: 'user', content: question }], sources: [SOURCE], stream: false });
const MAX_OUTPUT = 50;
const RESERVATION = reservationInputTokens(QUESTION.length + SOURCE.title.length + SOURCE.text.length) + MAX_OUTPUT;
const QUOTA = 10 * RESERVATION + Math.floor(RESERVATION / 2);
const PLAN_LIMITS = JSON.stringify({
  business: { requests_per_minute: 1_000_000, org_requests_per_minute: 10_000_000, monthly_tokens: 1e15 },
  free: { requests_per_minute: 50, org_requests_per_minute: 100, monthly_tokens: 1e12 },
  pro: { requests_per_minute: 1_000_000, org_requests_per_minute: 1_000_000, monthly_tokens: QUOTA, max_output_tokens: MAX_OUTPUT },
});

const work = mkdtempSync(join(tmpdir(), 'kit-bench-replicas-'));
const pg = await startPostgres();
const servers: ServerProcess[] = [];
try {
  const db = await createKnexDatabase({ kind: 'postgres', url: pg.url });
  const bench = await seedInto(db, 4, 'business');
  const keyLimit = await seedInto(db, 1, 'free');
  const orgLimit = await seedInto(db, 4, 'free');
  const quota = await seedInto(db, 4, 'pro');
  const publishable = newKeyValue('publishable');
  await db.knex('api_keys').insert({ id: newId('key'), org_id: keyLimit.orgId, kind: 'publishable', name: 'pub', ...keyDisplay(publishable), value: publishable, hash: sha256Hex(publishable), created_at: new Date() });
  await db.close();
  const env = { PORT: '0', HOST: '127.0.0.1', KIT_DEMO: 'false', NODE_ENV: 'production', KIT_JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123', DATABASE_URL: pg.url, KIT_PLAN_LIMITS: PLAN_LIMITS, KIT_ALTCHA_MAX_NUMBER: '1000', KIT_DB_POOL_MAX: '10' };
  for (let i = 0; i < 4; i++) servers.push(await startServer([join(root, 'dist/server/main.js')], env, join(work, `kit-${i}.log`), /listening on (http:\/\/[^/"\s]+)/));

  const results = new Map<number, Array<{ total: number; perProcess: number[]; p50: number; p99: number }>>();
  const loads = [load1()];
  for (let round = 0; round < ROUNDS; round++) {
    for (const n of [1, 2, 4].map((_, i, a) => a[(i + round) % a.length]!)) {
      const run = (seconds: number) => Promise.all(servers.slice(0, n).map((s, i) => autocannon({
        url: `${s.url}/v1/chat`, method: 'POST', connections: 10, seconds, body: body(QUESTION),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bench.secrets[i]}` },
      })));
      if (WARMUP > 0) await run(WARMUP);
      const rs: LoadResult[] = await run(SECONDS);
      const bad = rs.reduce((s, r) => s + r.non2xx + r.errors, 0);
      if (bad) console.error(`${n} replicas: ${bad} non-2xx or errors`);
      results.set(n, [...(results.get(n) ?? []), { total: rs.reduce((s, r) => s + r.rps, 0), perProcess: rs.map((r) => r.rps), p50: median(rs.map((r) => r.p50)), p99: median(rs.map((r) => r.p99)) }]);
    }
    loads.push(load1());
  }
  console.log(`Machine: load average (1 min) ${loads.join(' → ')}; ${ROUNDS} interleaved rounds of ${WARMUP} s + ${SECONDS} s; medians. 2 cores are shared by PostgreSQL, the servers and the load generators.\n`);
  console.log('| processes on one PostgreSQL | /chat req/s, all | req/s per process | p50 ms | p99 ms |');
  console.log('|---|---|---|---|---|');
  const one = median(results.get(1)!.map((r) => r.total));
  for (const n of [1, 2, 4]) {
    const total = median(results.get(n)!.map((r) => r.total));
    console.log(`| ${n} | ${total.toFixed(0)} (${(total / one).toFixed(2)}× one) | ${(total / n).toFixed(0)} | ${median(results.get(n)!.map((r) => r.p50))} | ${median(results.get(n)!.map((r) => r.p99))} |`);
  }

  // Exactness across the 4 processes, all requests sent at once. A burst straddling a minute would split windows.
  if (60_000 - (Date.now() % 60_000) < 15_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 200));
  const post = (i: number, key: string, question: string) =>
    fetch(`${servers[i % 4]!.url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body(question) }).then(async (r) => (await r.arrayBuffer(), r.status));
  const count = (statuses: number[], s: number) => statuses.filter((x) => x === s).length;
  const byKey = await Promise.all(Array.from({ length: 200 }, (_, i) => post(i, keyLimit.secrets[0]!, OFF_TOPIC)));
  const byOrg = await Promise.all(Array.from({ length: 160 }, (_, i) => post(i, orgLimit.secrets[i % 4]!, OFF_TOPIC)));
  const byQuota = await Promise.all(Array.from({ length: 60 }, (_, i) => post(i, quota.secrets[i % 4]!, QUESTION)));
  const config = (await (await fetch(`${servers[0]!.url}/v1/config`, { headers: { authorization: `Bearer ${publishable}` } })).json()) as { bot_challenge: { challenge: never } };
  const solution = await createAltchaSolver({ worker: false })(config.bot_challenge.challenge);
  const replay = await Promise.all(servers.map((s) => fetch(`${s.url}/v1/session`, { method: 'POST', headers: { authorization: `Bearer ${publishable}`, 'content-type': 'application/json' }, body: JSON.stringify({ provider: 'altcha', solution }) }).then((r) => r.status)));
  for (const s of servers.splice(0)) await s.stop(); // SIGTERM: in-flight chats settle
  const check = await createKnexDatabase({ kind: 'postgres', url: pg.url });
  const meter = await check.knex('org_meters').where({ org_id: quota.orgId }).first();
  const [rows] = await check.knex('usage_events').where({ org_id: quota.orgId }).select(check.knex.raw('count(*)::int8 as n'), check.knex.raw('coalesce(sum(input_tokens + output_tokens), 0)::int8 as tokens'));
  await check.close();
  console.log('\n| across 4 processes at once | sent | allowed | exact |');
  console.log('|---|---|---|---|');
  console.log(`| one key, 50 requests/min | 200 | ${count(byKey, 200)} (rest 429: ${count(byKey, 429)}) | ${count(byKey, 200) === 50 ? 'yes' : '**no**'} |`);
  console.log(`| one organisation over 4 keys, 100 requests/min | 160 | ${count(byOrg, 200)} (rest 429: ${count(byOrg, 429)}) | ${count(byOrg, 200) === 100 ? 'yes' : '**no**'} |`);
  console.log(`| monthly quota ${QUOTA} tokens (10.5 reservations of ${RESERVATION}) | 60 | ${count(byQuota, 200)} answered; month used ${meter.used} ≤ ${QUOTA}, reserved ${meter.reserved}, ${rows.n} usage rows = ${rows.tokens} tokens | ${Number(meter.used) <= QUOTA && Number(meter.reserved) === 0 && Number(rows.n) === count(byQuota, 200) && Number(rows.tokens) === Number(meter.used) ? 'yes' : '**no**'} |`);
  console.log(`| one ALTCHA solution sent to the 4 processes | 4 | ${count(replay, 201)} session (rest 403: ${count(replay, 403)}) | ${count(replay, 201) === 1 ? 'yes' : '**no**'} |`);
} finally {
  for (const s of servers) await s.stop().catch(() => undefined);
  await pg.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
