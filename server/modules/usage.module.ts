import { ContainerModule } from 'inversify';
import type { KnexDatabase } from '../../adapters/node/knex-database.js';
import { createPgUsageStore } from '../../adapters/node/pg-usage-store.js';
import { usageRoutes } from '../routes/usage.routes.js';
import { UsageService } from '../services/usage-service.js';
import { TOKENS } from '../tokens.js';

/** Usage: the table /chat fills, the report and its route. */
export const usageModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.UsageStore).toResolvedValue((db: KnexDatabase) => createPgUsageStore(db.knex), [TOKENS.Database]);
  bind(TOKENS.UsageService).to(UsageService);
  bind(TOKENS.Routes).toResolvedValue((usage: UsageService) => usageRoutes(usage), [TOKENS.UsageService]);
});
