/**
 * The cost of /chat's guards. (1) The limiter check: Kit's one-statement admission (per-key and per-session windows
 * plus the month's tokens from `usage_monthly`) beside the straightforward reference — two part-1 `RateLimiterPort.hit`
 * calls and `UsageStorePort.tokensUsed` (a sum over the month's usage rows) — on the embedded PGlite and on
 * PostgreSQL 15, with 20 000 usage rows this month. (2) Whole requests over HTTP on PostgreSQL: GET /v1/config and
 * POST /v1/chat (`stream: false`, secret key, extractive engine) beside bare Koa answering the same JSON / running the
 * same engine with no authentication, limits, gate or metering.
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { createKnexDatabase, type KnexDatabase } from '../adapters/node/knex-database.js';
import { migrateToLatest } from '../adapters/node/migrations/index.js';
import { createPgChatLimiter } from '../adapters/node/pg-chat-limiter.js';
import { createPgRateLimiter } from '../adapters/node/pg-rate-limiter.js';
import { createPgUsageStore } from '../adapters/node/pg-usage-store.js';
import { createExtractiveInference } from '../core/retrieval/index.js';
import { loadConfig } from '../server/config.js';
import { newId } from '../server/ids.js';
import { createLogger } from '../server/logger.js';
import { createPlatform } from '../server/platform.js';
import { resolve } from '../server/tokens.js';
import { postgresAvailable, startPostgres } from '../test/support/postgres.js';

const USAGE_ROWS = 20_000;
const CHECKS = 400;
const REQUESTS = 600;
const CONCURRENCY = 8;

const BODY = {
  messages: [{ role: 'user', content: 'How much does the Pro plan cost per month?' }],
  sources: [
    { url: 'https://shop.example.com/pricing', title: 'Pricing', text: 'The Pro plan costs 20 dollars per month and includes unlimited projects. The Team plan costs 50 dollars per month and adds roles. '.repeat(20) },
  ],
  stream: false,
};

async function seedUsage(db: KnexDatabase, orgId: string): Promise<void> {
  const now = Date.now();
  const rows = Array.from({ length: USAGE_ROWS }, (_, i) => ({
    org_id: orgId, key_id: null, mode: 'remote', model: 'extractive', input_tokens: 40, output_tokens: 10, refused: false,
    request_id: newId('req'), created_at: new Date(now - (i % 1000) * 1000),
  }));
  for (let i = 0; i < rows.length; i += 1000) await db.knex('usage_events').insert(rows.slice(i, i + 1000));
}

async function limiterRows(db: KnexDatabase, label: string): Promise<string[]> {
  await migrateToLatest(db.knex);
  const orgId = newId('org');
  await db.knex('organizations').insert({ id: orgId, name: 'bench', tier: 'free', created_at: new Date() });
  await seedUsage(db, orgId);
  const kit = createPgChatLimiter(db.knex);
  const rate = createPgRateLimiter(db.knex);
  const usage = createPgUsageStore(db.knex);
  const keyId = newId('key');
  const monthStart = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
  const kitCheck = () => kit.count({ orgId, keyId, sessionId: 'bench-session', now: new Date() });
  const reference = async () => {
    const now = new Date();
    await rate.hit(`ref:key:${keyId}`, 1e9, 60, now);
    await rate.hit(`ref:session:bench`, 1e9, 60, now);
    return usage.tokensUsed(orgId, monthStart, now);
  };
  const tokens = [(await kitCheck()).tokensThisMonth, await reference()];
  if (tokens[0] !== tokens[1] || tokens[0] !== USAGE_ROWS * 50) throw new Error(`the two checks disagree: ${tokens}`);
  for (let i = 0; i < 50; i++) await Promise.all([kitCheck(), reference()]); // warm-up
  const time = async (fn: () => Promise<unknown>) => {
    const t = performance.now();
    for (let i = 0; i < CHECKS; i++) await fn();
    return ((performance.now() - t) * 1000) / CHECKS;
  };
  const a = await time(kitCheck);
  const b = await time(reference);
  const c = await time(kitCheck);
  const d = await time(reference);
  const kitUs = Math.min(a, c);
  const refUs = Math.min(b, d);
  return [`| µs per /chat limit check, ${label} (${USAGE_ROWS} usage rows this month) | ${kitUs.toFixed(0)} | ${refUs.toFixed(0)} | ${(refUs / kitUs).toFixed(1)}× faster |`];
}

async function listenOn(app: Koa): Promise<{ url: string; server: Server }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Mean ms per request and requests per second, CONCURRENCY requests in flight over keep-alive connections. */
async function load(send: () => Promise<Response>): Promise<{ ms: number; rps: number }> {
  for (let i = 0; i < 40; i++) await (await send()).arrayBuffer(); // warm-up
  const latencies: number[] = [];
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < REQUESTS) {
        const s = performance.now();
        const res = await send();
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        latencies.push(performance.now() - s);
      }
    }),
  );
  const total = performance.now() - t;
  return { ms: latencies.reduce((x, y) => x + y, 0) / latencies.length, rps: (REQUESTS / total) * 1000 };
}

async function httpRows(url: string): Promise<string[]> {
  const config = loadConfig({
    DATABASE_URL: url, KIT_LOG_LEVEL: 'silent', KIT_JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    KIT_PLAN_LIMITS: JSON.stringify({ free: { requests_per_minute: 1_000_000, session_requests_per_minute: 1_000_000, monthly_tokens: 1e15 } }),
  });
  const platform = await createPlatform(config, { logger: createLogger('silent') });
  const accounts = resolve(platform.container, 'AccountStore');
  const orgId = newId('org');
  const userId = newId('usr');
  await accounts.createAccount({ id: userId, email: `${userId}@bench.test`, name: null, passwordHash: 'x', createdAt: new Date() }, { id: orgId, name: 'bench', tier: 'free', createdAt: new Date() });
  const owner = { kind: 'member' as const, userId, orgId, role: 'owner' as const };
  const keys = resolve(platform.container, 'KeyService');
  const pub = await keys.create(owner, 'publishable', { name: 'bench' });
  const sec = await keys.create(owner, 'secret', { name: 'bench' });
  if (!pub.ok || !sec.ok) throw new Error('keys');
  const kit = await listenOn(platform.app);

  const configBody = await (await fetch(`${kit.url}/v1/config`, { headers: { authorization: `Bearer ${pub.value.secret}`, origin: 'http://localhost:3000' } })).json();
  const engine = createExtractiveInference();
  const bare = new Koa();
  bare.use(async (ctx) => {
    if (ctx.path === '/v1/config') {
      ctx.body = configBody;
      return;
    }
    let raw = '';
    for await (const chunk of ctx.req) raw += chunk;
    const body = JSON.parse(raw) as typeof BODY;
    let text = '';
    const citations: number[] = [];
    let usage = { inputTokens: 0, outputTokens: 0 };
    for await (const e of engine.answer({ question: body.messages[0]!.content, history: [], sources: body.sources })) {
      if (e.type === 'delta') text += e.text;
      else if (e.type === 'citation') citations.push(e.index);
      else usage = e.usage;
    }
    ctx.body = { text, citations, usage };
  });
  const reference = await listenOn(bare);
  const getConfig = (base: string) => () => fetch(`${base}/v1/config`, { headers: { authorization: `Bearer ${pub.value.secret}`, origin: 'http://localhost:3000' } });
  const chat = (base: string) => () => fetch(`${base}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${sec.value.secret}`, 'content-type': 'application/json' }, body: JSON.stringify(BODY) });
  const rows: string[] = [];
  try {
    for (const [label, kitSend, refSend] of [
      ['GET /v1/config (publishable key, new ALTCHA challenge)', getConfig(kit.url), getConfig(reference.url)],
      ['POST /v1/chat, stream: false (secret key, extractive, 2.4 KB of sources)', chat(kit.url), chat(reference.url)],
    ] as const) {
      const k = await load(kitSend);
      const r = await load(refSend);
      rows.push(`| ${label}: ms per request at ${CONCURRENCY} concurrent | ${k.ms.toFixed(2)} | ${r.ms.toFixed(2)} | +${(k.ms - r.ms).toFixed(2)} ms |`);
      rows.push(`| ${label}: requests per second | ${k.rps.toFixed(0)} | ${r.rps.toFixed(0)} | ${(k.rps / r.rps).toFixed(2)}× |`);
    }
    const written = await platform.database.knex('usage_events').where({ key_id: sec.value.key.id }).count<{ n: number }[]>('* as n');
    rows.push(`| usage rows written for the chats above (one per chat) | ${written[0]!.n} | ${REQUESTS + 40} | |`);
  } finally {
    kit.server.close();
    reference.server.close();
    await platform.close();
  }
  return rows;
}

const rows: string[] = [];
const memory = await createKnexDatabase({ kind: 'pglite', dataDir: null });
try {
  rows.push(...(await limiterRows(memory, 'PGlite (embedded)')));
} finally {
  await memory.close();
}
if (postgresAvailable()) {
  const pg = await startPostgres();
  try {
    const db = await createKnexDatabase({ kind: 'postgres', url: pg.url, poolMax: 10 });
    try {
      rows.push(...(await limiterRows(db, 'PostgreSQL 15')));
    } finally {
      await db.close();
    }
    rows.push(...(await httpRows(pg.url)));
  } finally {
    await pg.stop();
  }
} else {
  rows.push('| (PostgreSQL 15 not installed: HTTP rows skipped) | | | |');
}
console.log('| metric | Kit | reference | ratio |');
console.log('|---|---|---|---|');
for (const row of rows) console.log(row);
process.exit(0);
