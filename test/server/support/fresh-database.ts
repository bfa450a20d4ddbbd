import { createKnexDatabase, type KnexDatabase } from '../../../adapters/node/knex-database.js';
import { migrateToLatest } from '../../../adapters/node/migrations/index.js';

let fresh: Promise<KnexDatabase> | null = null;

/**
 * An in-memory PGlite that no other suite writes to (no organisation yet), for what only happens on a fresh
 * database (demo seeding). Opened once per process; closed when the run ends.
 */
export function freshPglite(): Promise<KnexDatabase> {
  fresh ??= (async () => {
    const db = await createKnexDatabase({ kind: 'pglite', dataDir: null });
    await migrateToLatest(db.knex);
    return db;
  })();
  return fresh;
}

after(async function () {
  this.timeout(30_000);
  if (fresh) await (await fresh).close();
});
