import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createKnexDatabase, type KnexDatabase } from '../../adapters/node/knex-database.js';
import { migrateToLatest } from '../../adapters/node/migrations/index.js';
import { copyDataTemplate, dataTemplate } from './data-template.js';
import { createOwnedTempDir, onTermination, sweepLeftovers } from './owned-temp-dir.js';
import { postgresAvailable, startPostgres, type TestPostgres } from './postgres.js';

/** A database the integration suites run against. */
export interface TestDatabaseTarget {
  readonly name: 'pglite' | 'postgres';
  /** Opens (and migrates) a fresh connection to this target's database. */
  open(): Promise<KnexDatabase>;
}

let sharedMemory: Promise<KnexDatabase> | null = null;

/**
 * One in-memory PGlite for the unit-level server tests of this process (PGlite takes seconds to start).
 * Tests isolate themselves by creating their own organisations; the database is closed when the process ends.
 */
export function sharedPglite(): Promise<KnexDatabase> {
  sharedMemory ??= openMemoryPglite();
  return sharedMemory;
}

/** A new in-memory PGlite with every migration applied. */
export async function openMemoryPglite(): Promise<KnexDatabase> {
  const db = await createKnexDatabase({ kind: 'pglite', dataDir: null });
  await migrateToLatest(db.knex);
  return db;
}

let postgres: Promise<TestPostgres> | null = null;
let pgliteDir: string | null = null;

/** PostgreSQL 15 started once per test process (stopped by a root after-hook and at exit). */
export function testPostgres(): Promise<TestPostgres> {
  postgres ??= startPostgres();
  return postgres;
}

/**
 * A PGlite data directory kept on disk for the process, so tests can close and reopen it. Removed at exit and on
 * SIGINT/SIGTERM; directories of killed runs (owner process gone) are removed by the next run.
 */
export function pgliteDataDir(): string {
  if (pgliteDir === null) {
    sweepLeftovers('kit-pglite-');
    const owned = createOwnedTempDir('kit-pglite-');
    onTermination(() => rmSync(owned, { recursive: true, force: true }));
    pgliteDir = join(owned, 'data');
  }
  return pgliteDir;
}

/**
 * pgliteDataDir(), on its first opening a copy of the run's migrated template (./data-template.ts) rather than an
 * empty directory: the suites migrate it anyway (whatever an earlier file of the process left there), and PGlite's
 * initdb and the migrations are seconds per worker. Migrating an empty on-disk directory is checked where it is the
 * point: test/support/data-template.test.ts (the template itself) and the servers' first starts (test/server).
 */
async function migratedPgliteDataDir(): Promise<string> {
  const dir = pgliteDataDir();
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    const template = await dataTemplate();
    if (template !== null && !existsSync(dir)) copyDataTemplate(template, dir);
  }
  return dir;
}

/** The integration targets: the embedded default (PGlite on disk) and real PostgreSQL 15 when installed. */
export function integrationTargets(): TestDatabaseTarget[] {
  const targets: TestDatabaseTarget[] = [
    {
      name: 'pglite',
      open: async () => createKnexDatabase({ kind: 'pglite', dataDir: await migratedPgliteDataDir() }),
    },
  ];
  if (postgresAvailable() || process.env.KIT_REQUIRE_POSTGRES === '1') {
    targets.push({
      name: 'postgres',
      open: async () => createKnexDatabase({ kind: 'postgres', url: (await testPostgres()).url, poolMax: 5 }),
    });
  }
  return targets;
}

after(async function () {
  this.timeout(30_000);
  // Reset as well as closed: with `mocha --parallel` this root hook runs after each file of a worker process, and
  // the worker's next file must start its own.
  const [memory, pg, dir] = [sharedMemory, postgres, pgliteDir];
  sharedMemory = null;
  postgres = null;
  pgliteDir = null;
  if (memory) await (await memory).close();
  if (pg) await (await pg).stop();
  if (dir) rmSync(dirname(dir), { recursive: true, force: true });
});

/**
 * Declares `suite` once per integration target (`<title> on pglite`, `<title> on postgres`), each with its own
 * database connection opened in before() and closed in after().
 */
export function describeOnEachDatabase(title: string, suite: (db: () => KnexDatabase, target: TestDatabaseTarget) => void): void {
  for (const target of integrationTargets()) {
    describe(`${title} on ${target.name}`, function () {
      let database: KnexDatabase | null = null;
      before(async function () {
        this.timeout(180_000); // the first PGlite on disk, or initdb, takes a while on a busy machine
        database = await target.open();
      });
      after(async () => {
        await database?.close();
        database = null;
      });
      suite(() => {
        if (!database) throw new Error('database not open');
        return database;
      }, target);
    });
  }
}
