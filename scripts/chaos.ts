/**
 * `npm run chaos`: attacks a real Kit server the way issue #11 did — SIGKILLs during a mixed write load, PostgreSQL
 * restarted under load, parallel bursts against the failed-login limit and the monthly quota, two processes on one
 * data directory — on the embedded database and on PostgreSQL 15 (a throw-away cluster on loopback). Bounded: about
 * 3–5 minutes on 2 cores. Prints one line per scenario, the figures, and as its last line one JSON object of every
 * figure; exits 1 when a scenario fails.
 *
 *   npm run chaos                        # everything, 5 kills per database
 *   npm run chaos -- --kills 2 --only kill,login
 *   npm run chaos -- --dist              # against the built server (node dist/server/main.js)
 *
 * Options: --kills N (default 5), --seed N (default 11; the load's choices and timings), --only a,b (kill, outage,
 * login, quota, lock, stall), --db pglite|postgres|both (default both), --dist.
 */
import { rmSync } from 'node:fs';
import knexFactory from 'knex';
import { postgresAvailable, startPostgres, type TestPostgres } from '../test/support/postgres.js';
import { dataDirLock, freshDataDir, killDuringLoad, loginBurst, postgresRestart, quotaBurst, unreadStreams, type ChaosDatabase, type ScenarioResult } from './chaos/scenarios.js';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}
const kills = Number(option('kills') ?? 5);
const seed = Number(option('seed') ?? 11);
const only = option('only')?.split(',') ?? ['kill', 'outage', 'login', 'quota', 'lock', 'stall'];
const dbChoice = option('db') ?? 'both';
const dist = process.argv.includes('--dist');
const wanted = (name: string) => only.includes(name);
const log = (line: string) => process.stdout.write(`${line}\n`);

const started = Date.now();
const results: ScenarioResult[] = [];
let postgres: TestPostgres | null = null;
let dbCounter = 0;

async function freshPostgresDatabase(): Promise<string> {
  postgres ??= await startPostgres();
  const admin = knexFactory({ client: 'pg', connection: postgres.url, pool: { min: 0, max: 1 } });
  const name = `kit_chaos_${process.pid}_${dbCounter++}`;
  try {
    await admin.raw(`create database ${name}`);
  } finally {
    await admin.destroy();
  }
  const url = new URL(postgres.url);
  url.pathname = `/${name}`;
  return url.href;
}

async function run(name: string, scenario: () => Promise<ScenarioResult>): Promise<void> {
  const t = Date.now();
  log(`chaos: ${name} …`);
  let result: ScenarioResult;
  try {
    result = await scenario();
  } catch (err) {
    result = { name, ok: false, figures: {}, problems: [`crashed: ${(err as Error).stack ?? String(err)}`] };
  }
  results.push(result);
  log(`chaos: ${result.ok ? 'PASS' : 'FAIL'} ${result.name} (${((Date.now() - t) / 1000).toFixed(1)} s) ${JSON.stringify(result.figures)}`);
  for (const p of result.problems) log(`       ${p}`);
}

const databases: Array<'pglite' | 'postgres'> = dbChoice === 'both' ? ['pglite', 'postgres'] : [dbChoice as 'pglite' | 'postgres'];
if (databases.includes('postgres') && !postgresAvailable()) {
  log('chaos: PostgreSQL 15 is not installed (/usr/lib/postgresql/15/bin); run with --db pglite or install postgresql-15');
  process.exit(2);
}
log(`chaos: seed ${seed}, ${kills} kills per database, databases ${databases.join(', ')}, server ${dist ? 'dist/server/main.js' : 'server/main.ts (tsx)'}; ${new Date().toISOString()}`);

try {
  for (const kind of databases) {
    const target = async (label: string): Promise<{ db: ChaosDatabase; cleanup(): void }> => {
      if (kind === 'pglite') {
        const dir = freshDataDir(label);
        return { db: { kind, dataDir: dir.dataDir }, cleanup: dir.remove };
      }
      return { db: { kind, url: await freshPostgresDatabase() }, cleanup: () => undefined };
    };
    if (wanted('kill')) {
      const { db, cleanup } = await target('kill');
      await run(`kill (${kind})`, () => killDuringLoad({ database: db, kills, loadMs: [1_500, 4_000], concurrency: 8, seed: seed + (kind === 'pglite' ? 0 : 1), dist, log }));
      cleanup();
    }
    if (wanted('login')) {
      const { db, cleanup } = await target('login');
      await run(`login (${kind})`, () => loginBurst({ database: db, dist }));
      cleanup();
    }
    if (wanted('quota')) {
      const { db, cleanup } = await target('quota');
      await run(`quota (${kind})`, () => quotaBurst({ database: db, dist }));
      cleanup();
    }
  }
  if (wanted('stall')) {
    const kind = databases.includes('postgres') ? 'postgres' : 'pglite';
    const db: ChaosDatabase = kind === 'postgres' ? { kind, url: await freshPostgresDatabase() } : { kind, dataDir: freshDataDir('stall').dataDir };
    await run(`stall (${kind})`, () => unreadStreams({ database: db, dist }));
    if (db.kind === 'pglite') rmSync(db.dataDir, { recursive: true, force: true });
  }
  if (wanted('lock') && databases.includes('pglite')) {
    const dir = freshDataDir('lock');
    await run('lock (pglite)', () => dataDirLock({ dataDir: dir.dataDir, dist }));
    dir.remove();
  }
  if (wanted('outage') && databases.includes('postgres')) {
    const url = await freshPostgresDatabase();
    await run('outage (postgres)', () => postgresRestart({ url, restart: (ms) => postgres!.restart(ms), dist }));
  }
} finally {
  await (postgres as TestPostgres | null)?.stop();
}

const failed = results.filter((r) => !r.ok);
log(`chaos: ${results.length - failed.length} passed, ${failed.length} failed in ${((Date.now() - started) / 1000).toFixed(0)} s${failed.length ? ` (failed: ${failed.map((r) => r.name).join('; ')})` : ''}`);
log(JSON.stringify({ seed, kills_per_database: kills, scenarios: Object.fromEntries(results.map((r) => [r.name, { ok: r.ok, ...r.figures }])) }));
process.exit(failed.length ? 1 : 0);
