import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import type { KnexDatabase } from '../../adapters/node/knex-database.js';
import { createArgon2PasswordHasher } from '../../adapters/node/argon2-password-hasher.js';
import { createJoseAccessTokens } from '../../adapters/node/jose-access-tokens.js';
import { createPgRateLimiter } from '../../adapters/node/pg-rate-limiter.js';
import { createPgSettingsStore } from '../../adapters/node/pg-settings-store.js';
import type { PasswordHasherPort } from '../../core/ports/password-hasher.port.js';
import type { Redactor } from '../../core/redaction/index.js';
import { Authenticator } from '../auth/authenticator.js';
import type { ServerConfig } from '../config.js';
import { TOKENS, type Clock, type PlatformSecrets } from '../tokens.js';

/** What the composition root hands the container: values made before it exists. */
export interface InfrastructureDeps {
  readonly config: ServerConfig;
  readonly logger: Logger;
  readonly database: KnexDatabase;
  readonly clock: Clock;
  /** The HS256 secret (from KIT_JWT_SECRET or the settings table). */
  readonly jwtSecret: Uint8Array;
  /** Default: Argon2id at OWASP's parameters. */
  readonly passwordHasher?: PasswordHasherPort;
  /** The ALTCHA and session signing secrets (from the settings table). */
  readonly platformSecrets: PlatformSecrets;
  /** The /chat source redactor when KIT_REDACT_SOURCES is on (loaded before the container: it imports lazily). */
  readonly sourceRedactor: Redactor | null;
}

/** Config, logger, clock, database, rate limiter, password hashing, JWTs, the request authenticator and server secrets. */
export function infrastructureModule(deps: InfrastructureDeps): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.Config).toConstantValue(deps.config);
    bind(TOKENS.Logger).toConstantValue(deps.logger);
    bind(TOKENS.Clock).toConstantValue(deps.clock);
    bind(TOKENS.Database).toConstantValue(deps.database);
    bind(TOKENS.SettingsStore).toResolvedValue((db: KnexDatabase) => createPgSettingsStore(db.knex), [TOKENS.Database]);
    bind(TOKENS.RateLimiter).toResolvedValue((db: KnexDatabase) => createPgRateLimiter(db.knex), [TOKENS.Database]);
    bind(TOKENS.PasswordHasher).toConstantValue(deps.passwordHasher ?? createArgon2PasswordHasher());
    bind(TOKENS.AccessTokens).toConstantValue(createJoseAccessTokens({ secret: deps.jwtSecret }));
    bind(TOKENS.Authenticator).to(Authenticator);
    bind(TOKENS.PlatformSecrets).toConstantValue(deps.platformSecrets);
    bind(TOKENS.SourceRedactor).toConstantValue(deps.sourceRedactor);
  });
}
