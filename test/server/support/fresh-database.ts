import type { KnexDatabase } from '../../../adapters/node/knex-database.js';
import { openMemoryPglite } from '../../support/databases.js';

let fresh: Promise<KnexDatabase> | null = null;

/**
 * An in-memory PGlite that no other suite writes to (no organisation yet), for what only happens on a fresh
 * database (demo seeding). Opened once per process; closed when the run ends.
 */
export function freshPglite(): Promise<KnexDatabase> {
  fresh ??= openMemoryPglite();
  return fresh;
}

after(async function () {
  this.timeout(30_000);
  const db = fresh;
  fresh = null; // with `mocha --parallel`, the worker's next file opens its own
  if (db) await (await db).close();
});
