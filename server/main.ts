import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { DataDirLockedError } from '../adapters/node/data-dir-lock.js';
import { createKnexDatabase, type KnexDatabase } from '../adapters/node/knex-database.js';
import { ConfigError, loadConfig, type ServerConfig } from './config.js';
import { createProcessLogger } from './logger.js';

// The only place that listens (STYLE.md): everything else builds the app without a socket.

/** Exit statuses: 1 = invalid configuration or a failed start, 75 (EX_TEMPFAIL) = the data directory is in use. */
const EXIT_LOCKED = 75;

let config: ServerConfig;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`kit: ${err.message}\nSee docs/operations.md for every variable.\n`);
    process.exit(1);
  }
  throw err;
}
const { logger, flush, drain } = createProcessLogger(config.logLevel);

// Every line the process writes is one JSON object: Node's own warnings (multi-line on stderr by default) and
// crashes go through the logger too.
process.removeAllListeners('warning');
process.on('warning', (warning) => logger.warn({ err: { type: warning.name, message: warning.message, stack: warning.stack } }, 'node warning'));
process.on('uncaughtException', (err, origin) => {
  logger.fatal({ err, origin }, 'uncaught exception; exiting');
  void drain(200).then(() => process.exit(1)); // brief: the process is in an unknown state
});

async function openDatabase(): Promise<KnexDatabase> {
  if (config.database.kind === 'pglite') {
    // Fewer parallel WASM compile jobs: PGlite's hot functions tier up one at a time, and the resident memory the
    // compiler keeps afterwards drops by ~20 MB (BENCHMARKS.md, embedded database). Process-wide; PGlite is
    // the only WebAssembly the server runs.
    setFlagsFromString('--wasm-num-compilation-tasks=1');
  }
  try {
    return await createKnexDatabase(config.database, { logger });
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      logger.fatal({ data_dir: err.dataDir, holder_pid: err.holder?.pid ?? null, holder_host: err.holder?.hostname ?? null }, 'data directory in use');
      await drain();
      process.stderr.write(`kit: ${err.message}\nStop that process first, or set KIT_DATA_DIR_LOCK_WAIT_MS to wait for it (docs/operations.md).\n`);
      process.exit(EXIT_LOCKED);
    }
    throw err;
  }
}

// The embedded database starts in its own thread while this one loads the rest of the server.
const [database, { createPlatform }, { createHttpServer }, { startBanner }, { seedDemo }, { resolve }] = await Promise.all([
  openDatabase(),
  import('./platform.js'),
  import('./http-server.js'),
  import('./demo/banner.js'),
  import('./demo/seed-demo.js'),
  import('./tokens.js'),
]);

const platform = await createPlatform(config, { logger, database }).catch(async (err: unknown) => {
  await database.close();
  throw err;
});
let seed: Awaited<ReturnType<typeof seedDemo>> = { kind: 'skipped' };
if (config.demo.seed) {
  seed = await seedDemo(platform.database, resolve(platform.container, 'PasswordHasher'), new Date());
  resolve(platform.container, 'DemoSite').forgetKey();
  if (seed.kind === 'created') logger.info({ org_id: seed.orgId }, 'demo organization created');
}
const server = createHttpServer(platform.app.callback(), { ...config.http, trustProxyHops: config.trustProxyHops });
const address = await server.listen(config.port, config.host);
{
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  logger.info(
    { port: address.port, host: config.host, database: platform.database.kind, startup_ms: Math.round(performance.now()) },
    `Kit API listening on http://${host}:${address.port}/v1`,
  );
  flush(); // whoever waits for this line (a supervisor, a test) gets it now, not at the next flush tick
  // The banner is for the person at the terminal: stderr, so stdout stays one JSON object per line.
  if (config.demo.seed) process.stderr.write(`${startBanner(config, `http://${host}:${address.port}`, seed)}\n`);
}

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  // No new connections; idle keep-alive ones close now, busy ones when their response ends. The shutdown hooks
  // then drain in-flight chat streams (up to KIT_SHUTDOWN_GRACE_MS), each writing its usage row, before the
  // database closes (a clean PGlite shutdown checkpoints, and the data directory's lock is released).
  server.stopAccepting();
  await platform.close();
  await database.close();
  logger.info('stopped');
  await drain();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
