/**
 * Owner queries at scale (issue 12 §3): GET /v1/usage (every breakdown, one calendar month, and the default
 * 30-day window) and GET /v1/keys on an organisation with 1,000,000 usage rows and 10,000 keys (`npm run
 * seed:scale`'s data), served by the BUILT server in its own process on PostgreSQL 15 and on the embedded PGlite, each
 * beside the same queries on an empty organisation of the same database; autocannon (its own process, one connection)
 * times the requests; p50 and p99 are printed. Then the write path's cost against table size: ms per chat
 * (admission + settlement statements) on an empty table and on the 1,000,000-row one — 8 chats at a time in a new
 * organisation, 8 at a time in the organisation that holds the million rows, and one at a time (then every settlement
 * is its own statement; 8 at a time, PostgreSQL settles most chats inside the next admission's statement) — and bulk
 * inserts of 2k/4k/8k rows (quadratic before migration 0003).
 *
 * BENCH_SCALE_ROWS (default 1000000), BENCH_SCALE_KEYS (10000), BENCH_SECONDS (5), BENCH_NO_BUILD=1.
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKnexDatabase, type DatabaseLocation } from '../adapters/node/knex-database.js';
import { writeCost } from './support/write-cost.js';
import { migrateToLatest } from '../adapters/node/migrations/index.js';
import { newId } from '../server/ids.js';
import { seedScale, type ScaleSeed } from '../scripts/seed-scale.js';
import { postgresAvailable, startPostgres } from '../test/support/postgres.js';
import { autocannon, load1, median, startServer } from './support/load.js';

const ROWS = Number(process.env.BENCH_SCALE_ROWS ?? 1_000_000);
const KEYS = Number(process.env.BENCH_SCALE_KEYS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const root = new URL('..', import.meta.url).pathname;
if (process.env.BENCH_NO_BUILD !== '1' || !existsSync(join(root, 'dist/server/main.js'))) {
  console.error('building dist/server/main.js …');
  execFileSync(process.execPath, [join(root, 'node_modules/webpack-cli/bin/cli.js'), '--mode', 'production', '--config-name', 'server'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
const work = mkdtempSync(join(tmpdir(), 'kit-bench-owner-'));
const kitEnv = { PORT: '0', HOST: '127.0.0.1', KIT_DEMO: 'false', NODE_ENV: 'production', KIT_JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123', KIT_LOGIN_MAX_PER_IP: '100000' };

async function seedBoth(location: DatabaseLocation): Promise<{ big: ScaleSeed; empty: ScaleSeed; seedMs: number; writeRows: string[] }> {
  const db = await createKnexDatabase(location);
  try {
    await migrateToLatest(db.knex);
    const empty = await seedScale(db, { rows: 0, keys: 20 });
    const writeEmpty = await writeRounds(db.knex, 8);
    const serialEmpty = await writeRounds(db.knex, 1);
    const t = performance.now();
    const big = await seedScale(db, { rows: ROWS, keys: KEYS, log: (line) => console.error(`  ${location.kind}: ${line}`) });
    const seedMs = performance.now() - t;
    // What autovacuum would have done by the time an operator looks: the seed's million rows are settled on disk.
    if (location.kind === 'postgres') await db.knex.raw('checkpoint');
    await db.knex.raw('vacuum analyze usage_events');
    const writeBig = await writeRounds(db.knex, 8);
    const writeInto = await writeRounds(db.knex, 8, big.orgId);
    const serialBig = await writeRounds(db.knex, 1);
    const bulk = await bulkInserts(db.knex);
    const ratio = (at: number[], base: number[]): string => `${(median(at) / median(base)).toFixed(2)}×`;
    return {
      big, empty, seedMs,
      writeRows: [
        `| ms per chat, admission + settlement statements (${WRITE_CHATS} chats, 8 at a time; median [range] of ${WRITE_ROUNDS} rounds after one discarded), a new organisation | ${fmt(writeEmpty)} | ${fmt(writeBig)} | ${ratio(writeBig, writeEmpty)} |`,
        `| the same, into the organisation that holds the ${ROWS.toLocaleString('en-US')} rows | ${fmt(writeEmpty)} | ${fmt(writeInto)} | ${ratio(writeInto, writeEmpty)} |`,
        `| the same, one chat at a time (each settlement its own statement), a new organisation | ${fmt(serialEmpty)} | ${fmt(serialBig)} | ${ratio(serialBig, serialEmpty)} |`,
        `| bulk usage inserts 2k / 4k / 8k rows, ms | ${bulk.map((b) => b.toFixed(0)).join(' / ')} | | ${(bulk[2]! / bulk[0]!).toFixed(1)}× for 4× the rows (linear = 4×) |`,
      ],
    };
  } finally {
    await db.close();
  }
}

const WRITE_ROUNDS = 5;
const WRITE_CHATS = 400;
const fmt = (xs: number[]): string => `${median(xs).toFixed(2)} [${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}]`;

/**
 * Rounds of `writeCost` (bench/support/write-cost.ts); the first is discarded: whatever ran before (the migration, the seed, the vacuum) leaves
 * the connections' prepared statements and the buffers cold for it alike at either table size (it measured ~2× the
 * others at 0 and at 1 M rows).
 */
async function writeRounds(knex: import('knex').Knex, concurrency: number, into?: string): Promise<number[]> {
  // Statistics as autovacuum keeps them, on both sides alike: before each round. Unanalysed, the empty table (filled by
  // the rounds themselves) was planned as if it had no rows — 251 buffers a settlement instead of a handful — which
  // made the empty side slower and the ratio look better than flat (bench/support/owner-writes-interleaved.ts).
  const round = async () => {
    await knex.raw('analyze usage_events');
    return writeCost(knex, concurrency, WRITE_CHATS, into);
  };
  await round();
  return repeat(WRITE_ROUNDS, round);
}


async function repeat<T>(n: number, fn: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return out;
}

async function bulkInserts(knex: import('knex').Knex): Promise<number[]> {
  const orgId = newId('org');
  await knex('organizations').insert({ id: orgId, name: 'bulk', tier: 'business', created_at: new Date() });
  const out: number[] = [];
  for (const n of [2_000, 4_000, 8_000]) {
    const rows = Array.from({ length: n }, () => ({ org_id: orgId, key_id: null, mode: 'remote', model: 'm', input_tokens: 10, output_tokens: 5, refused: false, request_id: newId('req'), created_at: new Date() }));
    const t = performance.now();
    await knex.transaction(async (trx) => {
      for (let i = 0; i < rows.length; i += 500) await trx('usage_events').insert(rows.slice(i, i + 500));
    });
    out.push(performance.now() - t);
  }
  return out;
}

async function login(url: string, seed: ScaleSeed): Promise<string> {
  const res = await fetch(`${url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: seed.email, password: seed.password }) });
  const body = (await res.json()) as { token?: string };
  if (!body.token) throw new Error(`login failed: ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}

const now = new Date();
const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
const QUERIES: Array<[string, string]> = [
  ...(['day', 'key', 'model', 'mode'] as const).map((g): [string, string] => [`GET /v1/usage?group_by=${g}, this calendar month`, `/v1/usage?from=${monthStart}&to=${nextMonth}&group_by=${g}`]),
  ...(['day', 'key'] as const).map((g): [string, string] => [`GET /v1/usage?group_by=${g}, default window (30 days to now)`, `/v1/usage?group_by=${g}`]),
  ['GET /v1/keys (first page, 20)', '/v1/keys'],
  ['GET /v1/keys?limit=100', '/v1/keys?limit=100'],
];

const targets: Array<[string, DatabaseLocation, Record<string, string>]> = [];
const pg = postgresAvailable() ? await startPostgres() : null;
if (pg) targets.push(['PostgreSQL 15', { kind: 'postgres', url: pg.url }, { DATABASE_URL: pg.url }]);
const liteDir = join(work, 'pglite');
targets.push(['PGlite (embedded)', { kind: 'pglite', dataDir: liteDir }, { KIT_DATA_DIR: liteDir }]);
const loads = [load1()];
try {
  for (const [name, location, env] of targets) {
    const seeded = await seedBoth(location);
    const server = await startServer([join(root, 'dist/server/main.js')], { ...kitEnv, ...env }, join(work, `${location.kind}.log`), /listening on (http:\/\/[^/"\s]+)/);
    try {
      const [bigToken, emptyToken] = [await login(server.url, seeded.big), await login(server.url, seeded.empty)];
      console.log(`\n### ${name}: ${ROWS.toLocaleString('en-US')} usage rows and ${KEYS.toLocaleString('en-US')} keys in one organisation (seeded in ${(seeded.seedMs / 1000).toFixed(1)} s)\n`);
      console.log('| query (autocannon, 1 connection) | p50 ms at scale | p99 ms at scale | p50 ms, empty organisation |');
      console.log('|---|---|---|---|');
      for (const [label, path] of QUERIES) {
        const run = (token: string) => autocannon({ url: `${server.url}${path}`, connections: 1, seconds: SECONDS, headers: { authorization: `Bearer ${token}` } });
        await run(bigToken); // warm-up
        const big = await run(bigToken);
        const empty = await run(emptyToken);
        if (big.non2xx || big.errors) console.error(`${label}: ${big.non2xx} non-2xx, ${big.errors} errors`);
        console.log(`| ${label} | ${big.p50} | ${big.p99} | ${empty.p50} |`);
      }
      console.log('\n| write path | empty table | at scale | ratio |');
      console.log('|---|---|---|---|');
      for (const row of seeded.writeRows) console.log(row);
    } finally {
      await server.stop();
    }
    loads.push(load1());
  }
  console.log(`\nMachine: load average (1 min) ${loads.join(' → ')}.`);
} finally {
  await pg?.stop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
