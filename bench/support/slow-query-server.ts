/**
 * The Kit server as server/main.ts composes it (same config, platform, database client and HTTP front), plus one
 * route for the benchmark: `GET /bench/slow?n=` runs a CPU-bound query (`generate_series` of n rows) through the
 * app's own knex — the embedded database's worker thread, or PostgreSQL. Run by bench/embedded.bench.ts in its own
 * process; prints `{"port":…}` once listening. Never part of the product.
 */
import 'reflect-metadata';
import { createKnexDatabase } from '../../adapters/node/knex-database.js';
import { loadConfig } from '../../server/config.js';
import { createHttpServer } from '../../server/http-server.js';
import { createLogger } from '../../server/logger.js';
import { createPlatform } from '../../server/platform.js';

const config = loadConfig();
const logger = createLogger('warn');
const database = await createKnexDatabase(config.database, { logger });
const platform = await createPlatform(config, { logger, database });
const app = platform.app.callback();
const server = createHttpServer(async (req, res) => {
  if (!req.url?.startsWith('/bench/slow')) return app(req, res);
  const n = Number(new URL(req.url, 'http://x').searchParams.get('n') ?? 1_000_000);
  const started = performance.now();
  await database.knex.raw('select count(*) from generate_series(1, ?) g where g % 7 = 3', [n]);
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ ms: performance.now() - started }));
}, { ...config.http, trustProxyHops: 0 });
const address = await server.listen(0, '127.0.0.1');
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
process.on('SIGTERM', async () => {
  server.stopAccepting();
  await platform.close();
  await database.close();
  process.exit(0);
});
