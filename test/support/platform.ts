import 'reflect-metadata';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { ContainerModule } from 'inversify';
import { createArgon2PasswordHasher } from '../../adapters/node/argon2-password-hasher.js';
import type { KnexDatabase } from '../../adapters/node/knex-database.js';
import type { Role } from '../../core/ports/account-store.port.js';
import { loadConfig, type ServerConfig } from '../../server/config.js';
import { createLogger } from '../../server/logger.js';
import { newId } from '../../server/ids.js';
import { createPlatform, type Platform } from '../../server/platform.js';
import { resolve, type Clock } from '../../server/tokens.js';

/** The JWT secret every test platform signs with (tests forge tokens with it). */
export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123456789';

/** A configuration for tests: silent logs, a fixed JWT secret, generous rate limits unless overridden. */
export function testConfig(env: Record<string, string> = {}): ServerConfig {
  // KIT_DATA_DIR: the development mail outbox (invitations, resets) writes there, never into the work tree.
  return loadConfig({ KIT_LOG_LEVEL: 'silent', KIT_JWT_SECRET: TEST_JWT_SECRET, KIT_DATA_DIR: join(tmpdir(), 'kit-test-data'), KIT_LOGIN_MAX_PER_IP: '10000', KIT_SIGNUPS_PER_IP_PER_HOUR: '10000', KIT_CONFIG_PER_MINUTE: '10000', ...env });
}

/** A clock tests can move. */
export interface TestClock {
  readonly now: Clock;
  set(date: Date): void;
  advance(ms: number): void;
}

export function testClock(start = new Date()): TestClock {
  let current = start.getTime();
  return { now: () => new Date(current), set: (d) => void (current = d.getTime()), advance: (ms) => void (current += ms) };
}

/** Collects log lines (as text) for assertions that nothing secret is logged. */
export function logCapture(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  return {
    lines,
    stream: new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    }),
  };
}

export interface TestPlatformOptions {
  readonly database: KnexDatabase;
  readonly env?: Record<string, string>;
  readonly clock?: TestClock;
  readonly modules?: readonly ContainerModule[];
  readonly logs?: ReturnType<typeof logCapture>;
}

/** A platform on an open database (not closed by platform.close()). */
export async function createTestPlatform(options: TestPlatformOptions): Promise<Platform> {
  const config = testConfig({ ...(options.logs ? { KIT_LOG_LEVEL: 'debug' } : {}), ...options.env });
  return createPlatform(config, {
    database: options.database,
    logger: createLogger(config.logLevel, options.logs?.stream),
    ...(options.clock ? { clock: options.clock.now } : {}),
    ...(options.modules ? { modules: options.modules } : {}),
  });
}

/** Listens on a free loopback port; returns the base URL and a closer. */
export async function listen(platform: Platform): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = platform.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The password of every seeded user. */
export const SEED_PASSWORD = 'seeded password 1';
let seedHash: Promise<string> | null = null;

/** A member of a seeded organisation with a valid dashboard token. */
export interface SeededMember {
  readonly userId: string;
  readonly email: string;
  readonly role: Role;
  readonly token: string;
}

export interface SeededOrg {
  readonly orgId: string;
  readonly members: Readonly<Record<Role, SeededMember>>;
}

/**
 * An organisation with one member per role, written through the account store with one shared Argon2id hash
 * (hashing is the slow part of signup; the signup route itself is tested separately).
 */
export async function seedOrg(platform: Platform, label = 'seed'): Promise<SeededOrg> {
  const accounts = resolve(platform.container, 'AccountStore');
  const tokens = resolve(platform.container, 'AccessTokens');
  const knex = platform.database.knex;
  seedHash ??= createArgon2PasswordHasher().hash(SEED_PASSWORD);
  const passwordHash = await seedHash;
  const now = new Date();
  const orgId = newId('org');
  const members = {} as Record<Role, SeededMember>;
  for (const [index, role] of (['owner', 'admin', 'developer', 'viewer'] as const).entries()) {
    const userId = newId('usr');
    const email = `${label}-${role}-${userId.slice(4, 14).toLowerCase()}@example.test`;
    const user = { id: userId, email, name: `${label} ${role}`, passwordHash, createdAt: now };
    if (role === 'owner') {
      const created = await accounts.createAccount(user, { id: orgId, name: `${label} org`, tier: 'free', createdAt: now });
      if (!created.ok) throw new Error(created.reason);
    } else {
      await knex('users').insert({ id: userId, email, name: user.name, password_hash: passwordHash, created_at: now });
      await knex('memberships').insert({ org_id: orgId, user_id: userId, role, joined_at: new Date(now.getTime() + index) });
    }
    const { token } = await tokens.issue({ userId, orgId, role }, resolve(platform.container, 'Clock')());
    members[role] = { userId, email, role, token };
  }
  return { orgId, members };
}

/** Adds a member with `role` to an organisation (direct insert) and returns its user id. */
export async function addMember(platform: Platform, orgId: string, role: Role): Promise<SeededMember> {
  const knex = platform.database.knex;
  seedHash ??= createArgon2PasswordHasher().hash(SEED_PASSWORD);
  const userId = newId('usr');
  const email = `extra-${userId.slice(4, 16).toLowerCase()}@example.test`;
  await knex('users').insert({ id: userId, email, name: null, password_hash: await seedHash, created_at: new Date() });
  await knex('memberships').insert({ org_id: orgId, user_id: userId, role, joined_at: new Date() });
  const { token } = await resolve(platform.container, 'AccessTokens').issue({ userId, orgId, role }, resolve(platform.container, 'Clock')());
  return { userId, email, role, token };
}

/** A fresh dashboard token for a member, issued at the platform's current (possibly test) time. */
export async function freshToken(platform: Platform, orgId: string, member: Pick<SeededMember, 'userId' | 'role'>): Promise<string> {
  return (await resolve(platform.container, 'AccessTokens').issue({ userId: member.userId, orgId, role: member.role }, resolve(platform.container, 'Clock')())).token;
}
