import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import pg from 'pg';

// pg returns int8 (count(), sum()::int8) as strings; every count Kit stores fits in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** Where the data lives: PostgreSQL by URL, PGlite in a directory, or PGlite in memory (tests). */
export type DatabaseLocation =
  | { readonly kind: 'postgres'; readonly url: string; readonly poolMax?: number }
  | { readonly kind: 'pglite'; readonly dataDir: string | null };

/** An open database: the knex instance every store uses, and how to close it. */
export interface KnexDatabase {
  readonly knex: Knex;
  readonly kind: DatabaseLocation['kind'];
  /** True when every query shares one connection (PGlite): never await a query outside an open transaction. */
  readonly singleConnection: boolean;
  close(): Promise<void>;
}

/**
 * Opens the database. PGlite is Postgres compiled to WASM, run in-process with ONE connection; the knex
 * dialect pins its pool to 1, so a transaction holds the only connection until it ends.
 */
export async function createKnexDatabase(location: DatabaseLocation): Promise<KnexDatabase> {
  if (location.kind === 'postgres') {
    const knex = knexFactory({
      client: 'pg',
      connection: location.url,
      pool: { min: 0, max: location.poolMax ?? 10 },
      acquireConnectionTimeout: 10_000,
    });
    return { knex, kind: 'postgres', singleConnection: false, close: () => knex.destroy() };
  }
  if (location.dataDir !== null) mkdirSync(location.dataDir, { recursive: true });
  const pglite = await PGlite.create(location.dataDir ?? undefined);
  const knex = knexFactory({
    client: ClientPgLite as unknown as typeof knexFactory.Client,
    dialect: 'postgres',
    connection: () => ({ pglite }) as object,
  } as Knex.Config);
  return {
    knex,
    kind: 'pglite',
    singleConnection: true,
    async close() {
      await knex.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}
