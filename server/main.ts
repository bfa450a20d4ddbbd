import 'reflect-metadata';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { createPlatform } from './platform.js';

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
const server = platform.app.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  logger.info({ port, host: config.host, database: platform.database.kind }, `Kit API listening on http://${host}:${port}/v1`);
});

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  server.close();
  server.closeIdleConnections();
  await platform.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
