import { randomBytes } from 'node:crypto';
import type { ContainerModule, Container } from 'inversify';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { createKnexDatabase, type KnexDatabase } from '../adapters/node/knex-database.js';
import { migrateToLatest } from '../adapters/node/migrations/index.js';
import { createPgSettingsStore } from '../adapters/node/pg-settings-store.js';
import { DEFAULT_REPLACEMENT } from '../core/config/defaults.js';
import type { PasswordHasherPort } from '../core/ports/password-hasher.port.js';
import { loadRedactor } from '../core/redaction/index.js';
import { buildContainer } from './container.js';
import { createApp } from './app.js';
import type { ServerConfig } from './config.js';
import { createLogger } from './logger.js';
import { resolveAll, type Clock } from './tokens.js';

/** Settings key of the generated JWT secret (used when KIT_JWT_SECRET is unset). */
export const JWT_SECRET_SETTING = 'jwt_secret';
/** Settings key of the generated ALTCHA HMAC key. */
export const ALTCHA_KEY_SETTING = 'altcha_hmac_key';
/** Settings key of the generated browser-session signing secret. */
export const SESSION_SECRET_SETTING = 'session_secret';

export interface PlatformOptions {
  readonly logger?: Logger;
  /** An open database to use (and not close); default: open config.database. */
  readonly database?: KnexDatabase;
  readonly clock?: Clock;
  readonly passwordHasher?: PasswordHasherPort;
  /** More container modules (routes of later parts, test routes). */
  readonly modules?: readonly ContainerModule[];
}

/** A ready server: its container, its Koa app (not listening) and how to stop it cleanly. */
export interface Platform {
  readonly container: Container;
  readonly app: Koa;
  readonly database: KnexDatabase;
  /** Runs shutdown hooks (flushes key last-use times) and closes the database if this platform opened it. */
  close(): Promise<void>;
}

/** Opens the database, applies migrations, settles the JWT secret and composes the app. */
export async function createPlatform(config: ServerConfig, options: PlatformOptions = {}): Promise<Platform> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const database = options.database ?? (await createKnexDatabase(config.database, { logger }));
  try {
    const applied = await migrateToLatest(database.knex);
    if (applied.length > 0) logger.info({ migrations: applied }, 'database migrated');
    const settings = createPgSettingsStore(database.knex);
    const generated = () => randomBytes(48).toString('base64url');
    // Generated once and kept in the database: every replica on it signs and verifies alike.
    const secret = config.jwtSecret ?? (await settings.getOrCreate(JWT_SECRET_SETTING, generated));
    const platformSecrets = {
      altchaHmacKey: await settings.getOrCreate(ALTCHA_KEY_SETTING, generated),
      sessionSecret: Buffer.from(await settings.getOrCreate(SESSION_SECRET_SETTING, generated), 'base64url'),
    };
    const sourceRedactor = config.redactSources
      ? await loadRedactor({ ...config.redactSources, patterns: [], replacement: DEFAULT_REPLACEMENT })
      : null;
    const container = buildContainer(
      {
        config,
        logger,
        database,
        clock: options.clock ?? (() => new Date()),
        jwtSecret: new TextEncoder().encode(secret),
        platformSecrets,
        sourceRedactor,
        ...(options.passwordHasher ? { passwordHasher: options.passwordHasher } : {}),
      },
      options.modules ?? [],
    );
    const app = createApp(container);
    let closed = false;
    return {
      container,
      app,
      database,
      async close() {
        if (closed) return;
        closed = true;
        for (const hook of resolveAll(container, 'ShutdownHooks')) await hook();
        if (!options.database) await database.close();
      },
    };
  } catch (err) {
    if (!options.database) await database.close();
    throw err;
  }
}
