/**
 * Messages between the server's thread and the PGlite worker thread (pglite-worker.ts). Plain data only: every
 * value crosses by structured clone, so rows keep their Dates, Uint8Arrays and BigInts.
 */

/** What the worker is started with (`workerData`). */
export interface PgliteWorkerInit {
  /** The data directory, or null for an in-memory database. */
  readonly dataDir: string | null;
  /** `-c name=value` settings added to PGlite's own start parameters. */
  readonly settings: Readonly<Record<string, string>>;
  /** Create the cluster, close it and exit: the first start's initdb memory leaves with this thread. */
  readonly initOnly: boolean;
}

/** A request from the server's thread. */
export type ToWorker =
  | { readonly type: 'query'; readonly id: number; readonly sql: string; readonly params: readonly unknown[]; readonly rowMode?: 'array' | 'object' }
  /**
   * One self-contained statement as a NAMED prepared statement of the worker's session: parsed and planned on its
   * first use under `name`, then only bound and executed (the same `name` must always carry the same `sql`).
   */
  | { readonly type: 'prepared'; readonly id: number; readonly name: string; readonly sql: string; readonly params: readonly unknown[] }
  | { readonly type: 'close'; readonly id: number };

/** An error as it crosses threads: the message and PostgreSQL's fields (code, constraint, detail, …). */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly fields: Readonly<Record<string, string | number | boolean>>;
}

/** PGlite's result of one statement. */
export interface WireResults {
  readonly rows: unknown[];
  readonly fields: ReadonlyArray<{ readonly name: string; readonly dataTypeID: number }>;
  readonly affectedRows?: number;
}

/** A message from the worker. */
export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'failed'; readonly error: WireError }
  | { readonly type: 'result'; readonly id: number; readonly value: unknown }
  | { readonly type: 'error'; readonly id: number; readonly error: WireError };

/** Own enumerable primitive fields of an error (PostgreSQL's `code`, `constraint`, `detail`, …). */
export function toWireError(err: unknown): WireError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(err)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  return { name: err.name, message: err.message, fields };
}
