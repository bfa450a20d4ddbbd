// The PGlite worker thread: Postgres compiled to WASM runs its synchronous work here, so a long query never
// blocks the server's event loop. Started by pglite-worker-client.ts; speaks pglite-protocol.ts.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { parse as pgParse, PGlite, protocol } from '@electric-sql/pglite';
import { toWireError, type FromWorker, type PgliteWorkerInit, type ToWorker } from './pglite-protocol.js';

if (isMainThread || !parentPort) throw new Error('pglite-worker.ts runs in a worker thread (see pglite-worker-client.ts)');
const port = parentPort;
const init = workerData as PgliteWorkerInit;
const post = (message: FromWorker): void => port.postMessage(message);

/** PGlite's own start parameters plus ours: `-c shared_buffers=16MB` and the like. */
function startParams(settings: Readonly<Record<string, string>>): string[] {
  return [...PGlite.defaultStartParams, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
}

/** A WASM trap or abort leaves Postgres' memory in an unknown state: this thread must end, and a new one start. */
function isFatal(err: unknown): boolean {
  return err instanceof WebAssembly.RuntimeError || (err instanceof Error && /^Aborted\(|PGlite is closed/.test(err.message));
}

let db: PGlite;
try {
  db = await PGlite.create(init.dataDir ?? undefined, { startParams: startParams(init.settings) });
  if (init.initOnly) {
    await db.close();
    process.exit(0);
  }
  post({ type: 'ready' });
} catch (err) {
  post({ type: 'failed', error: toWireError(err) });
  process.exit(1);
}

let closing = false;
port.on('message', (message: ToWorker) => {
  void handle(message);
});

type BackendMessage = Parameters<typeof pgParse.parseResults>[0][number];
/** Named statements of this session: their parameter types and result columns, from one Describe. */
const statements = new Map<string, { readonly paramTypes: readonly number[]; readonly columns: readonly BackendMessage[] }>();
const { serialize } = protocol;
const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, at), (at += p.length);
  return out;
};

/**
 * Runs a named prepared statement: on first use Parse + Describe (+ Sync) in one protocol exchange, afterwards Bind +
 * Execute + Sync in one — no parse or plan, and one call into Postgres instead of PGlite's six for `query()`.
 * Values are serialized as `query()` does (by the parameter types Postgres inferred), and rows parsed by its parsers.
 */
async function runPrepared(name: string, sql: string, params: readonly unknown[]): Promise<unknown> {
  return db.runExclusive(async () => {
    let statement = statements.get(name);
    if (!statement) {
      const { messages } = await db.execProtocol(concat([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]), { syncToFs: false });
      statement = { paramTypes: pgParse.parseDescribeStatementResults(messages), columns: messages.filter((m) => m.name === 'rowDescription') };
      statements.set(name, statement);
    }
    const types = statement.paramTypes;
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const serializer = db.serializers[types[i]!];
      return serializer ? serializer(v) : String(v);
    });
    const { messages } = await db.execProtocol(concat([serialize.bind({ statement: name, values }), serialize.execute({}), serialize.sync()]), { syncToFs: false });
    return pgParse.parseResults([...statement.columns, ...messages], db.parsers)[0];
  });
}

async function handle(message: ToWorker): Promise<void> {
  try {
    let value: unknown;
    if (message.type === 'query') {
      value = await db.query(message.sql, message.params as unknown[], message.rowMode ? { rowMode: message.rowMode } : undefined);
    } else if (message.type === 'prepared') {
      value = await runPrepared(message.name, message.sql, message.params);
    } else {
      closing = true;
      if (!db.closed) await db.close();
      post({ type: 'result', id: message.id, value: null });
      port.close();
      return;
    }
    post({ type: 'result', id: message.id, value });
  } catch (err) {
    post({ type: 'error', id: message.id, error: toWireError(err) });
    if (!closing && isFatal(err)) process.exit(70); // EX_SOFTWARE: the client reports it and starts a new thread
  }
}
