import 'reflect-metadata';
import { ConfigError, loadConfig } from './config.js';
import { startBanner } from './demo/banner.js';
import { seedDemo, type DemoSeed } from './demo/seed-demo.js';
import { createLogger } from './logger.js';
import { createPlatform } from './platform.js';
import { resolve } from './tokens.js';

// The only place that listens (STYLE.md): everything else builds the app without a socket.
let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`kit: ${err.message}\nSee docs/operations.md for every variable.\n`);
    process.exit(1);
  }
  throw err;
}
const logger = createLogger(config.logLevel);
const platform = await createPlatform(config, { logger });
let seed: DemoSeed = { kind: 'skipped' };
if (config.demo.seed) {
  seed = await seedDemo(platform.database, resolve(platform.container, 'PasswordHasher'), new Date());
  resolve(platform.container, 'DemoSite').forgetKey();
  if (seed.kind === 'created') logger.info({ org_id: seed.orgId }, 'demo organization created');
}
const server = platform.app.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  logger.info({ port, host: config.host, database: platform.database.kind }, `Kit API listening on http://${host}:${port}/v1`);
  if (config.demo.seed) process.stdout.write(`${startBanner(config, `http://${host}:${port}`, seed)}\n`);
});
// Streams may be long; Node's default 5 s keep-alive and 300 s request timeouts stay, and SSE sends keep-alives.

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  // No new connections; idle keep-alive ones close now, busy ones when their response ends. The shutdown hooks
  // then drain in-flight chat streams (up to KIT_SHUTDOWN_GRACE_MS), each writing its usage row, before the
  // database closes.
  server.close();
  server.closeIdleConnections();
  await platform.close();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
