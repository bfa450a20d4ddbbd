import { ContainerModule } from 'inversify';
import type { KnexDatabase } from '../../adapters/node/knex-database.js';
import { createPgUsageStore } from '../../adapters/node/pg-usage-store.js';
import { usageRoutes } from '../routes/usage.routes.js';
import { UsageService } from '../services/usage-service.js';
import type { Logger } from 'pino';
import type { UsageStorePort } from '../../core/ports/usage-store.port.js';
import type { ChatService } from '../services/chat-service.js';
import { TOKENS, type Clock } from '../tokens.js';

/** Usage: the table /chat fills, the report and its route. */
export const usageModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.UsageStore).toResolvedValue((db: KnexDatabase) => createPgUsageStore(db.knex), [TOKENS.Database]);
  bind(TOKENS.UsageService).toResolvedValue(
    (clock: Clock, store: UsageStorePort, logger: Logger, chat: ChatService) => {
      const service = new UsageService(clock, store, logger, (orgId) => chat.settledFor(orgId));
      service.startRollups();
      return service;
    },
    [TOKENS.Clock, TOKENS.UsageStore, TOKENS.Logger, TOKENS.ChatService],
  );
  bind(TOKENS.Routes).toResolvedValue((usage: UsageService) => usageRoutes(usage), [TOKENS.UsageService]);
  bind(TOKENS.ShutdownHooks).toResolvedValue((usage: UsageService) => () => usage.stop(), [TOKENS.UsageService]);
});
