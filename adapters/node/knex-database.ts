import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import pg from 'pg';
import { lockDataDir, type DataDirLock, type LockHolder } from './data-dir-lock.js';
import { PgliteWorkerClient, EmbeddedDatabaseUnavailableError, type PgliteWorkerEvent } from './pglite-worker-client.js';

// pg returns int8 (count(), sum()::int8) as strings; every count Kit stores fits in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** Postgres settings of the embedded database unless configured (docs/operations.md explains each). */
export const PGLITE_DEFAULT_SETTINGS: Readonly<Record<string, string>> = Object.freeze({
  // Postgres touches all of shared_buffers at start: 128 MB (its default) is 128 MB of resident memory for a
  // cache the OS page cache duplicates anyway. 16 MB keeps idle RSS low; raise it for large working sets.
  shared_buffers: '16MB',
  // Checkpoint at least every 64 MB of WAL, so recovery after a crash replays a bounded log.
  max_wal_size: '64MB',
});

/** Where the data lives: PostgreSQL by URL, PGlite in a directory, or PGlite in memory (tests). */
export type DatabaseLocation =
  | { readonly kind: 'postgres'; readonly url: string; readonly poolMax?: number }
  | {
      readonly kind: 'pglite';
      readonly dataDir: string | null;
      /** Postgres settings on top of PGLITE_DEFAULT_SETTINGS. */
      readonly settings?: Readonly<Record<string, string>>;
      /** How long to wait for another process to release the data directory (ms); default 0 = fail at once. */
      readonly lockWaitMs?: number;
    };

/** Where the database reports what operators should see (the server's pino logger fits). */
export interface DatabaseLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface OpenOptions {
  readonly logger?: DatabaseLogger;
}

/** An open database: the knex instance every store uses, and how to close it. */
export interface KnexDatabase {
  readonly knex: Knex;
  readonly kind: DatabaseLocation['kind'];
  /** True when every query shares one connection (PGlite): never await a query outside an open transaction. */
  readonly singleConnection: boolean;
  /** The embedded database's worker thread (PGlite only): its generation, and crash() for fault injection. */
  readonly embedded?: PgliteWorkerClient;
  close(): Promise<void>;
}

/** knex's own log lines (pool and connection warnings) as structured records, one JSON line each. */
function knexLog(logger: DatabaseLogger | undefined): Knex.Config['log'] {
  const text = (m: unknown): string => (m instanceof Error ? `${m.name}: ${m.message}` : typeof m === 'string' ? m : JSON.stringify(m));
  const silent = (): void => undefined;
  if (!logger) return { warn: silent, error: silent, deprecate: silent, debug: silent };
  return {
    warn: (m: unknown) => logger.warn({ source: 'knex', detail: text(m) }, 'database warning'),
    error: (m: unknown) => logger.error({ source: 'knex', detail: text(m) }, 'database error'),
    deprecate: (m: unknown) => logger.warn({ source: 'knex', detail: text(m) }, 'database deprecation'),
    debug: silent,
  };
}

/**
 * One knex "connection" to the embedded database: a session bound to the worker thread that was running when it
 * opened. If that thread dies, the session is broken — its queries fail and knex's pool replaces it — so a
 * transaction never continues on a new thread that never saw its BEGIN.
 */
class PgliteSession {
  readonly #generation: number;
  constructor(readonly client: PgliteWorkerClient) {
    this.#generation = client.generation;
  }
  get broken(): boolean {
    return this.client.closed || this.client.generation !== this.#generation;
  }
  get waitReady(): Promise<void> {
    return this.client.waitReady;
  }
  async query(sql: string, params?: unknown[], options?: { rowMode?: 'array' | 'object' }): Promise<unknown> {
    if (this.broken) throw new EmbeddedDatabaseUnavailableError('The embedded database restarted; this connection was lost.');
    return this.client.query(sql, params, options);
  }
  /** knex closes connections it discards; the worker outlives them (KnexDatabase.close ends it). */
  async close(): Promise<void> {}
}

/** knex-pglite's dialect (result mapping, search path, version) over a worker thread instead of an in-thread PGlite. */
/** The members of knex-pglite's client that WorkerPgliteClient replaces (it ships no types for them). */
interface PgliteDialect {
  _driver(): void;
  _acquireOnlyConnection(): Promise<unknown>;
  validateConnection(connection: unknown): boolean;
}

class WorkerPgliteClient extends (ClientPgLite as unknown as new (config: Knex.Config) => PgliteDialect) {
  declare config: { connection: () => { worker: PgliteWorkerClient } };
  override _driver(): void {}
  override async _acquireOnlyConnection(): Promise<PgliteSession> {
    const worker = this.config.connection().worker;
    await worker.waitReady;
    return new PgliteSession(worker);
  }
  override validateConnection(session: PgliteSession): boolean {
    return !session.broken;
  }
}

/**
 * The embedded database's worker behind a knex instance opened by {@link createKnexDatabase}, or null (PostgreSQL).
 * For hot single statements: `queryPrepared` (the chat limiter's) and `queryAutocommit` queue them in the worker
 * without holding the one knex session.
 */
export function embeddedWorkerOf(knex: Knex): PgliteWorkerClient | null {
  const client = knex.client as unknown;
  return client instanceof WorkerPgliteClient ? client.config.connection().worker : null;
}

function logWorkerEvent(logger: DatabaseLogger | undefined, event: PgliteWorkerEvent): void {
  if (!logger) return;
  if (event.kind === 'exited') logger.error({ exit_code: event.exitCode, failed_queries: event.pending }, 'embedded database thread stopped; restarting it');
  else if (event.kind === 'restarted') logger.info({ ms: event.ms }, 'embedded database thread restarted');
  else logger.error({ detail: event.message }, 'embedded database could not restart');
}

/**
 * Opens the database. PGlite is Postgres compiled to WASM: it runs in a worker thread (its synchronous work never
 * blocks the server's event loop) behind ONE connection, so a transaction holds the only connection until it
 * ends. An on-disk PGlite first takes the data directory's exclusive lock (data-dir-lock.ts), held until close().
 */
export async function createKnexDatabase(location: DatabaseLocation, options: OpenOptions = {}): Promise<KnexDatabase> {
  const log = knexLog(options.logger);
  if (location.kind === 'postgres') {
    const knex = knexFactory({
      client: 'pg',
      connection: location.url,
      pool: { min: 0, max: location.poolMax ?? 10 },
      acquireConnectionTimeout: 10_000,
      log,
    });
    return { knex, kind: 'postgres', singleConnection: false, close: () => knex.destroy() };
  }
  let lock: DataDirLock | null = null;
  if (location.dataDir !== null) {
    lock = await lockDataDir(location.dataDir, {
      waitMs: location.lockWaitMs ?? 0,
      onWait: (holder: LockHolder | null) => options.logger?.warn({ data_dir: location.dataDir, holder_pid: holder?.pid ?? null, wait_ms: location.lockWaitMs }, 'data directory in use; waiting for its holder to exit'),
    });
  }
  let worker: PgliteWorkerClient;
  try {
    worker = await PgliteWorkerClient.start({
      dataDir: location.dataDir,
      settings: { ...PGLITE_DEFAULT_SETTINGS, ...location.settings },
      onEvent: (event) => logWorkerEvent(options.logger, event),
    });
  } catch (err) {
    lock?.release();
    throw err;
  }
  const knex = knexFactory({
    client: WorkerPgliteClient as unknown as typeof knexFactory.Client,
    dialect: 'postgres',
    connection: () => ({ worker }) as object,
    log,
  } as Knex.Config);
  let closed = false;
  return {
    knex,
    kind: 'pglite',
    singleConnection: true,
    embedded: worker,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await knex.destroy();
        await worker.close();
      } finally {
        lock?.release();
      }
    },
  };
}
