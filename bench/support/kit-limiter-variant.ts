/**
 * Kit's server as `server/main.ts` composes it (same config, platform, HTTP server), run from source, with one
 * bench-only choice: `KIT_BENCH_CHAT_LIMITER=noop` replaces the `/chat` limiter port by one that admits every request
 * and settles nothing, without the database (no windows, no quota, no usage row). A diagnostic for
 * `bench/support/chat-db-share.ts` — how much of /chat's cost is the database's — never a way to run Kit: it has no
 * limits and meters nothing. Prints `listening on http://127.0.0.1:<port>`; SIGTERM stops it.
 */
import 'reflect-metadata';
import { ContainerModule } from 'inversify';
import type { ChatLimiter } from '../../adapters/node/pg-chat-limiter.js';
import { createHttpServer } from '../../server/http-server.js';
import { loadConfig } from '../../server/config.js';
import { createProcessLogger } from '../../server/logger.js';
import { createPlatform } from '../../server/platform.js';
import { TOKENS } from '../../server/tokens.js';

const noop: ChatLimiter = {
  admit: async (r) => ({ admitted: true, keyCount: 1, sessionCount: r.sessionId === null ? null : 1, orgCount: 1, tokensUsed: 0, tokensReserved: 0, windowResetAt: new Date(r.now.getTime() + 60_000) }),
  settle: async () => undefined,
  sweep: async () => 0,
};

const config = loadConfig();
const { logger, flushSync } = createProcessLogger(config.logLevel);
const modules = process.env.KIT_BENCH_CHAT_LIMITER === 'noop' ? [new ContainerModule(({ rebind }) => {
  rebind<ChatLimiter>(TOKENS.ChatLimiter).toConstantValue(noop);
})] : [];
const platform = await createPlatform(config, { logger, modules });
const server = createHttpServer(platform.app.callback(), { ...config.http, trustProxyHops: config.trustProxyHops });
const address = await server.listen(config.port, config.host);
console.log(`listening on http://127.0.0.1:${address.port}`);
process.on('SIGTERM', () => {
  server.stopAccepting();
  void platform.close().then(() => {
    flushSync();
    process.exit(0);
  });
});
