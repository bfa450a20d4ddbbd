import { ContainerModule } from 'inversify';
import type { KnexDatabase } from '../../adapters/node/knex-database.js';
import { createPgKeyStore } from '../../adapters/node/pg-key-store.js';
import { keyRoutes } from '../routes/keys.routes.js';
import { KeyService } from '../services/key-service.js';
import { KeyVerifier } from '../services/key-verifier.js';
import { LastUsedTracker } from '../services/last-used-tracker.js';
import { TOKENS, type Clock } from '../tokens.js';

/** API keys: store, verification (with its cache and last-use tracker), management and routes. */
export const keysModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.KeyStore).toResolvedValue((db: KnexDatabase) => createPgKeyStore(db.knex), [TOKENS.Database]);
  bind(TOKENS.LastUsedTracker).to(LastUsedTracker);
  bind(TOKENS.KeyVerifier).to(KeyVerifier);
  bind(TOKENS.KeyService).to(KeyService);
  bind(TOKENS.Routes).toResolvedValue((keys: KeyService, clock: Clock) => keyRoutes(keys, clock), [TOKENS.KeyService, TOKENS.Clock]);
  bind(TOKENS.ShutdownHooks).toResolvedValue((tracker: LastUsedTracker) => () => tracker.stop(), [TOKENS.LastUsedTracker]);
});
