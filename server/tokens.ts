import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { KnexDatabase } from '../adapters/node/knex-database.js';
import type { SettingsStore } from '../adapters/node/pg-settings-store.js';
import type { AccessTokenPort } from '../core/ports/access-token.port.js';
import type { AccountStorePort } from '../core/ports/account-store.port.js';
import type { KeyStorePort } from '../core/ports/key-store.port.js';
import type { PasswordHasherPort } from '../core/ports/password-hasher.port.js';
import type { RateLimiterPort } from '../core/ports/rate-limiter.port.js';
import type { UsageStorePort } from '../core/ports/usage-store.port.js';
import type { ServerConfig } from './config.js';
import type { Authenticator } from './auth/authenticator.js';
import type { Route } from './http/route.js';
import type { AccountService } from './services/account-service.js';
import type { KeyService } from './services/key-service.js';
import type { KeyVerifier } from './services/key-verifier.js';
import type { LastUsedTracker } from './services/last-used-tracker.js';
import type { OrgService } from './services/org-service.js';
import type { UsageService } from './services/usage-service.js';

/** The current time; injected so tests can move it. */
export type Clock = () => Date;

/** Something to run when the server stops (flush buffers), in registration order. */
export type ShutdownHook = () => Promise<void>;

/** What each token resolves to. Part 2 adds its services here and in TOKENS. */
export interface Services {
  Config: ServerConfig;
  Logger: Logger;
  Clock: Clock;
  Database: KnexDatabase;
  SettingsStore: SettingsStore;
  RateLimiter: RateLimiterPort;
  PasswordHasher: PasswordHasherPort;
  AccessTokens: AccessTokenPort;
  AccountStore: AccountStorePort;
  KeyStore: KeyStorePort;
  UsageStore: UsageStorePort;
  AccountService: AccountService;
  OrgService: OrgService;
  KeyService: KeyService;
  KeyVerifier: KeyVerifier;
  LastUsedTracker: LastUsedTracker;
  UsageService: UsageService;
  Authenticator: Authenticator;
  /** Multi-bound: each area binds one array of routes; createApp mounts them all. */
  Routes: readonly Route[];
  /** Multi-bound. */
  ShutdownHooks: ShutdownHook;
}

/** The symbol tokens of the server's container, one per entry of Services. */
export const TOKENS: { readonly [K in keyof Services]: symbol } = Object.freeze({
  Config: Symbol.for('kit.Config'),
  Logger: Symbol.for('kit.Logger'),
  Clock: Symbol.for('kit.Clock'),
  Database: Symbol.for('kit.Database'),
  SettingsStore: Symbol.for('kit.SettingsStore'),
  RateLimiter: Symbol.for('kit.RateLimiter'),
  PasswordHasher: Symbol.for('kit.PasswordHasher'),
  AccessTokens: Symbol.for('kit.AccessTokens'),
  AccountStore: Symbol.for('kit.AccountStore'),
  KeyStore: Symbol.for('kit.KeyStore'),
  UsageStore: Symbol.for('kit.UsageStore'),
  AccountService: Symbol.for('kit.AccountService'),
  OrgService: Symbol.for('kit.OrgService'),
  KeyService: Symbol.for('kit.KeyService'),
  KeyVerifier: Symbol.for('kit.KeyVerifier'),
  LastUsedTracker: Symbol.for('kit.LastUsedTracker'),
  UsageService: Symbol.for('kit.UsageService'),
  Authenticator: Symbol.for('kit.Authenticator'),
  Routes: Symbol.for('kit.Routes'),
  ShutdownHooks: Symbol.for('kit.ShutdownHooks'),
});

/** Typed `container.get` by token name. */
export function resolve<K extends keyof Services>(container: Container, name: K): Services[K] {
  return container.get<Services[K]>(TOKENS[name]);
}

/** Every binding of a multi-bound token. */
export function resolveAll<K extends keyof Services>(container: Container, name: K): Services[K][] {
  return container.getAll<Services[K]>(TOKENS[name]);
}
