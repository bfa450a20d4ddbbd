import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { fail, ok, type Result } from '../../core/errors/index.js';

/** What a browser session is bound to (CONTRACT §1): the key it was issued for and the page's origin. */
export interface SessionBinding {
  readonly keyId: string;
  /** The request's Origin; null when the caller sent none (curl, a server). */
  readonly origin: string | null;
}

/** A verified session: its id names the per-session rate-limit window. */
export interface SessionClaims extends SessionBinding {
  readonly sessionId: string;
  readonly expiresAt: Date;
}

/** Issues and verifies browser sessions. */
export interface SessionTokens {
  issue(binding: SessionBinding, ttlSeconds: number, now: Date): { readonly token: string; readonly expiresAt: Date; readonly sessionId: string };
  /** `session_required` when the token is malformed, forged, expired or bound to another key or origin. */
  verify(token: string, binding: SessionBinding, now: Date): Result<SessionClaims, 'session_required'>;
}

const PREFIX = 'kit_ses_';
/** Longer tokens are refused unread (a real one is ~150 characters plus the origin). */
const MAX_TOKEN_CHARS = 2_048;

interface Payload {
  readonly v: 1;
  readonly sid: string;
  readonly key: string;
  readonly org: string | null;
  readonly exp: number;
}

/**
 * Stateless sessions: `kit_ses_<base64url JSON>.<base64url HMAC-SHA256>` signed with a secret every replica shares
 * (generated once and kept in the database, like the JWT secret). Verifying costs one HMAC and no query, which keeps
 * it off the database on `/chat`'s hot path. A session cannot be revoked before it expires (≤ the tier's
 * session_ttl_seconds, 10 min); deleting its key ends it at once because the key is checked first.
 */
export function createSessionTokens(secret: Uint8Array): SessionTokens {
  if (secret.byteLength < 32) throw new TypeError('createSessionTokens: the secret needs at least 32 bytes');
  const mac = (body: string): Buffer => createHmac('sha256', secret).update(body).digest();

  return {
    issue(binding, ttlSeconds, now) {
      const expiresAt = new Date(Math.floor(now.getTime() / 1000) * 1000 + ttlSeconds * 1000);
      const sessionId = randomBytes(12).toString('base64url');
      const payload: Payload = { v: 1, sid: sessionId, key: binding.keyId, org: binding.origin, exp: expiresAt.getTime() / 1000 };
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return { token: `${PREFIX}${body}.${mac(body).toString('base64url')}`, expiresAt, sessionId };
    },

    verify(token, binding, now) {
      const refused = (reason: string) => fail('session_required' as const, reason);
      if (token.length > MAX_TOKEN_CHARS || !token.startsWith(PREFIX)) return refused('not a Kit session');
      const dot = token.lastIndexOf('.');
      if (dot <= PREFIX.length) return refused('not a Kit session');
      const body = token.slice(PREFIX.length, dot);
      // Compare the encoded text, not decoded bytes: base64 ignores trailing bits, and a token must have one spelling.
      const given = Buffer.from(token.slice(dot + 1));
      const expected = Buffer.from(mac(body).toString('base64url'));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return refused('bad signature');
      let payload: Payload;
      try {
        payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
      } catch {
        return refused('unreadable');
      }
      if (payload.v !== 1 || typeof payload.exp !== 'number' || typeof payload.sid !== 'string') return refused('unreadable');
      if (payload.exp * 1000 <= now.getTime()) return refused('expired');
      if (payload.key !== binding.keyId) return refused('issued for another key');
      if (payload.org !== binding.origin) return refused('issued for another origin');
      return ok({ sessionId: payload.sid, keyId: payload.key, origin: payload.org, expiresAt: new Date(payload.exp * 1000) });
    },
  };
}
