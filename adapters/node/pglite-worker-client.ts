import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FromWorker, PgliteWorkerInit, ToWorker, WireError, WireResults } from './pglite-protocol.js';

/** Why a query could not reach the embedded database (the worker thread ended or is restarting). */
export class EmbeddedDatabaseUnavailableError extends Error {
  override readonly name = 'EmbeddedDatabaseUnavailableError';
  /** Matched by isDatabaseUnavailable (pg-errors.ts), like a lost PostgreSQL connection. */
  readonly code = 'KIT_DB_UNAVAILABLE';
}

/** What the client reports about its worker (the server logs it). */
export type PgliteWorkerEvent =
  | { readonly kind: 'exited'; readonly exitCode: number; readonly pending: number }
  | { readonly kind: 'restarted'; readonly ms: number }
  | { readonly kind: 'restart_failed'; readonly message: string };

export interface PgliteWorkerOptions {
  /** The data directory, or null for an in-memory database (lost, not restarted, if its thread ends). */
  readonly dataDir: string | null;
  /** Postgres settings (`shared_buffers`, …) added to PGlite's start parameters. */
  readonly settings?: Readonly<Record<string, string>>;
  readonly onEvent?: (event: PgliteWorkerEvent) => void;
}

/** Rebuilds an error from the worker with its PostgreSQL fields (`code`, `constraint`, …) as own properties. */
function fromWire(wire: WireError): Error {
  const err = new Error(wire.message);
  Object.assign(err, wire.fields);
  Object.defineProperty(err, 'name', { value: wire.name, enumerable: false, configurable: true, writable: true });
  return err;
}

// Under tsx (development, tests) the worker is TypeScript: a worker thread does not inherit tsx's loader, so a
// small bootstrap registers it. The built server (dist/server) ships pglite-worker.js beside main.js.
const HERE = import.meta.url;
const RUNNING_TS = HERE.endsWith('.ts');

// The worker's own JavaScript is small (messages in, rows out): a small young generation keeps its heap, which
// is resident memory of the server process, to a few MB. PGlite's WASM memory is outside these limits.
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 8 };

function spawnWorker(init: PgliteWorkerInit): Worker {
  const options = { workerData: init, name: 'kit-pglite', resourceLimits: RESOURCE_LIMITS };
  if (!RUNNING_TS) return new Worker(new URL('./pglite-worker.js', HERE), options);
  const entry = new URL('./pglite-worker.ts', HERE).href;
  const bootstrap = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(HERE)}))`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** A statement that opens a transaction on the session (knex: `BEGIN;`, `BEGIN TRANSACTION ISOLATION LEVEL …`). */
const BEGINS = /^\s*(begin|start\s+transaction)\b/i;
/** One that ends it (`ROLLBACK TO SAVEPOINT` does not). */
const ENDS = /^\s*(commit|end|abort|rollback(?!\s+to\b))\b/i;

/** Least time between two starts of a worker that keeps failing (a full disk, a removed directory). */
const RESTART_BACKOFF_MS = 1_000;

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

/**
 * PGlite in a worker thread, driven by messages (PGlite's own PGliteWorker needs browser tabs' Web Locks and
 * BroadcastChannel leader election, absent from Node 20). Queries run one at a time in the worker, in the order
 * sent; the server's thread only posts and receives. If the thread dies (a WASM trap), every pending query
 * fails with EmbeddedDatabaseUnavailableError, `generation` moves on (so sessions opened before know they are
 * broken, like a dropped PostgreSQL connection) and an on-disk database starts again in a new thread.
 */
export class PgliteWorkerClient {
  readonly #options: PgliteWorkerOptions;
  #worker: Worker | null = null;
  #ready: Promise<void> = Promise.resolve();
  #pending = new Map<number, Pending>();
  #nextId = 1;
  #generation = 0;
  #closed = false;
  #starting = false;
  #lastStart = 0;
  /** True between a session's BEGIN and its COMMIT/ROLLBACK: autocommit statements wait (they must not join it). */
  #inTransaction = false;
  /** Autocommit statements held while a transaction is open, posted right after it ends. */
  #held: Array<() => void> = [];

  private constructor(options: PgliteWorkerOptions) {
    this.#options = options;
  }

  /**
   * Starts the worker and waits until the database answers. On a data directory without a cluster, initdb runs
   * first in a throw-away thread: its memory (hundreds of MB) is returned when that thread exits.
   */
  static async start(options: PgliteWorkerOptions): Promise<PgliteWorkerClient> {
    const client = new PgliteWorkerClient(options);
    if (options.dataDir !== null && !existsSync(join(options.dataDir, 'PG_VERSION'))) await client.#run({ initOnly: true });
    await client.#launch();
    return client;
  }

  /** Increments each time a new worker thread starts; a session of an older generation is broken. */
  get generation(): number {
    return this.#generation;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Resolves when the current worker is ready (after a restart, when the new one is). */
  get waitReady(): Promise<void> {
    return this.#ready;
  }

  /**
   * Runs one statement of the knex session in the worker; rejects with the database's error (its `code`,
   * `constraint`, … kept). Statements run one at a time, in the order posted.
   */
  async query(sql: string, params: readonly unknown[] = [], options?: { rowMode?: 'array' | 'object' }): Promise<WireResults> {
    await this.#whenReady();
    const rowMode = options?.rowMode;
    const message: ToWorker = { type: 'query', id: 0, sql, params: [...params], ...(rowMode ? { rowMode } : {}) };
    // Posted synchronously with the transaction bookkeeping, so held autocommit statements follow the COMMIT.
    if (BEGINS.test(sql)) {
      this.#inTransaction = true;
      const sent = this.#send(message) as Promise<WireResults>;
      sent.catch(() => this.#endTransaction()); // a BEGIN that failed opened nothing
      return sent;
    }
    const sent = this.#send(message) as Promise<WireResults>;
    if (ENDS.test(sql)) this.#endTransaction();
    return sent;
  }

  /**
   * Runs one self-contained statement (its own implicit transaction) WITHOUT the knex session: it is posted at once,
   * behind whatever the worker is running, so hot statements (the chat limiter's) queue in the worker instead of
   * waiting for the session to come back to the server's thread between statements. While a session's transaction
   * is open it waits for its end, so it never runs inside someone else's transaction — so never await one from
   * inside a knex transaction on the same database (it would wait for itself).
   */
  async queryAutocommit(sql: string, params: readonly unknown[] = []): Promise<WireResults> {
    return this.#autocommit({ type: 'query', id: 0, sql, params: [...params] });
  }

  /**
   * {@link queryAutocommit} as a named prepared statement of the worker's session: Postgres parses and plans `sql`
   * once per worker thread, then each call only binds and executes it. One `name` must always carry the same `sql`
   * (version the name when the text changes). For the hot statements of every chat.
   */
  async queryPrepared(name: string, sql: string, params: readonly unknown[] = []): Promise<WireResults> {
    return this.#autocommit({ type: 'prepared', id: 0, name, sql, params: [...params] });
  }

  async #autocommit(message: ToWorker): Promise<WireResults> {
    await this.#whenReady();
    if (!this.#inTransaction) return (await this.#send(message)) as WireResults;
    return (await new Promise<unknown>((resolve, reject) => this.#held.push(() => this.#send(message).then(resolve, reject)))) as WireResults;
  }

  async #whenReady(): Promise<void> {
    if (this.#closed) throw new EmbeddedDatabaseUnavailableError('The embedded database is closed.');
    if (!this.#worker && !this.#starting) this.#restart();
    await this.#ready;
  }

  #endTransaction(): void {
    this.#inTransaction = false;
    const held = this.#held.splice(0);
    for (const post of held) post();
  }

  /** Ends the worker thread abruptly, as a WASM trap would: for fault-injection tests and `npm run chaos`. */
  async crash(): Promise<void> {
    await this.#worker?.terminate();
  }

  /** Closes the database (a clean shutdown: Postgres checkpoints) and ends the worker thread. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#ready.catch(() => undefined); // a restart under way: close the thread it brings up
    const worker = this.#worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    await this.#send({ type: 'close', id: 0 }, true).catch(() => undefined);
    await exited;
  }

  #send(message: ToWorker, evenIfClosed = false): Promise<unknown> {
    const worker = this.#worker;
    if (!worker || (this.#closed && !evenIfClosed)) return Promise.reject(new EmbeddedDatabaseUnavailableError('The embedded database is not running.'));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      try {
        worker.postMessage({ ...message, id });
      } catch (err) {
        // A parameter that cannot cross threads (a function, a class instance with private state).
        this.#pending.delete(id);
        reject(new TypeError(`A query parameter cannot be sent to the embedded database: ${(err as Error).message}`));
      }
    });
  }

  /** Starts a serving worker and installs its handlers; resolves once it is ready. */
  #launch(): Promise<void> {
    this.#starting = true;
    this.#lastStart = performance.now();
    this.#ready = this.#run({ initOnly: false }).finally(() => {
      this.#starting = false;
    });
    return this.#ready;
  }

  /** Starts a new worker after one ended; at most one attempt per RESTART_BACKOFF_MS while it keeps failing. */
  #restart(): void {
    if (this.#closed || this.#starting || this.#options.dataDir === null) return;
    if (performance.now() - this.#lastStart < RESTART_BACKOFF_MS) return;
    const started = performance.now();
    this.#launch().then(
      () => this.#options.onEvent?.({ kind: 'restarted', ms: Math.round(performance.now() - started) }),
      (err: Error) => {
        this.#options.onEvent?.({ kind: 'restart_failed', message: err.message });
        this.#ready = Promise.reject(new EmbeddedDatabaseUnavailableError(`The embedded database could not restart: ${err.message}`));
        this.#ready.catch(() => undefined);
      },
    );
  }

  #run({ initOnly }: { initOnly: boolean }): Promise<void> {
    const worker = spawnWorker({ dataDir: this.#options.dataDir, settings: this.#options.settings ?? {}, initOnly });
    return new Promise<void>((resolve, reject) => {
      let started = false;
      let failure: Error | null = null;
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'ready') {
          started = true;
          this.#worker = worker;
          this.#generation += 1;
          resolve();
        } else if (message.type === 'failed') {
          failure = fromWire(message.error);
        } else {
          const pending = this.#pending.get(message.id);
          if (!pending) return;
          this.#pending.delete(message.id);
          if (message.type === 'result') pending.resolve(message.value);
          else pending.reject(fromWire(message.error));
        }
      });
      worker.on('error', (err) => {
        failure ??= err;
      });
      worker.on('exit', (exitCode) => {
        if (!started) {
          if (initOnly && exitCode === 0) resolve();
          else reject(failure ?? new EmbeddedDatabaseUnavailableError(`The embedded database did not start (worker exit code ${exitCode}).`));
          return;
        }
        if (this.#worker === worker) this.#worker = null;
        this.#onExit(exitCode);
      });
    });
  }

  #onExit(exitCode: number): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    this.#endTransaction(); // the open transaction died with the thread: held statements go to the next one, or fail
    if (this.#closed) {
      for (const p of pending) p.resolve(null);
      return;
    }
    this.#options.onEvent?.({ kind: 'exited', exitCode, pending: pending.length });
    for (const p of pending) p.reject(new EmbeddedDatabaseUnavailableError(`The embedded database stopped (worker exit code ${exitCode}); it is restarting.`));
    this.#generation += 1; // sessions of the dead worker are broken even before the new one is ready
    if (this.#options.dataDir === null) {
      this.#ready = Promise.reject(new EmbeddedDatabaseUnavailableError('The in-memory embedded database stopped; its data is gone.'));
      this.#ready.catch(() => undefined);
      return;
    }
    this.#lastStart = 0;
    this.#restart();
  }
}
