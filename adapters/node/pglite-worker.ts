// The PGlite worker thread: Postgres compiled to WASM runs its synchronous work here, so a long query never
// blocks the server's event loop. Started by pglite-worker-client.ts; speaks pglite-protocol.ts.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
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

async function handle(message: ToWorker): Promise<void> {
  try {
    let value: unknown;
    if (message.type === 'query') {
      value = await db.query(message.sql, message.params as unknown[], message.rowMode ? { rowMode: message.rowMode } : undefined);
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
