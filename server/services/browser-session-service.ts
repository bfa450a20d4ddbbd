import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { BrowserSessionStorePort } from '../../core/ports/browser-session-store.port.js';
import type { ServerConfig } from '../config.js';
import { sha256Hex } from '../ids.js';
import { TOKENS, type Clock, type PlatformSecrets } from '../tokens.js';

/** A live browser session as a request sees it. */
export interface ActiveBrowserSession {
  readonly tokenHash: string;
  readonly userId: string;
  readonly orgId: string;
  readonly expiresAt: Date;
}

/** Activity is written at most this often per session (a console polls; every request need not write). */
const TOUCH_EVERY_MS = 60_000;

/**
 * Browser sessions of the console (docs/console.md): a random 256-bit cookie value, stored as its SHA-256, ending
 * after `KIT_CONSOLE_SESSION_IDLE_SECONDS` without a request or `KIT_CONSOLE_SESSION_MAX_SECONDS` after sign-in,
 * revoked on sign-out and on a password reset. The CSRF token is an HMAC of the session (nothing more to store).
 */
@injectable()
export class BrowserSessionService {
  constructor(
    @inject(TOKENS.Config) private readonly config: ServerConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.BrowserSessionStore) private readonly store: BrowserSessionStorePort,
    @inject(TOKENS.PlatformSecrets) private readonly secrets: PlatformSecrets,
  ) {}

  /** Starts a session for a member; the token goes into the cookie only. */
  async start(userId: string, orgId: string): Promise<{ token: string; session: ActiveBrowserSession }> {
    const now = this.clock();
    const token = randomBytes(32).toString('base64url');
    const tokenHash = sha256Hex(token);
    const expiresAt = new Date(now.getTime() + this.config.console.sessionMaxSeconds * 1000);
    await this.store.create({ tokenHash, userId, orgId, createdAt: now, lastSeenAt: now, expiresAt });
    return { token, session: { tokenHash, userId, orgId, expiresAt } };
  }

  /** The live session of a cookie value, or null (unknown, revoked, idle too long or past its end). */
  async resolve(token: string): Promise<ActiveBrowserSession | null> {
    const now = this.clock();
    const tokenHash = sha256Hex(token);
    const record = await this.store.find(tokenHash);
    if (!record) return null;
    const idleEnd = record.lastSeenAt.getTime() + this.config.console.sessionIdleSeconds * 1000;
    if (record.expiresAt.getTime() <= now.getTime() || idleEnd <= now.getTime()) {
      await this.store.revoke(tokenHash);
      return null;
    }
    if (now.getTime() - record.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await this.store.touch(tokenHash, now);
    return { tokenHash, userId: record.userId, orgId: record.orgId, expiresAt: record.expiresAt };
  }

  /** The CSRF token of a session: sent in the sign-in and GET /auth/session answers, echoed in X-CSRF-Token. */
  csrfToken(tokenHash: string): string {
    return createHmac('sha256', this.secrets.sessionSecret).update(`csrf\0${tokenHash}`).digest('base64url');
  }

  /** True when `presented` is the session's CSRF token (constant-time comparison). */
  csrfMatches(tokenHash: string, presented: string): boolean {
    const expected = Buffer.from(this.csrfToken(tokenHash));
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  switchOrganization(tokenHash: string, orgId: string): Promise<void> {
    return this.store.switchOrganization(tokenHash, orgId);
  }

  revoke(tokenHash: string): Promise<boolean> {
    return this.store.revoke(tokenHash);
  }

  /** Deletes sessions past their end; run now and then so the table does not grow. */
  purge(): Promise<number> {
    const now = this.clock();
    return this.store.purgeExpired(now, new Date(now.getTime() - this.config.console.sessionIdleSeconds * 1000));
  }
}
