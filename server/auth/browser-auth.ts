import type { Context } from 'koa';
import { KitError } from '../../core/errors/index.js';
import type { ActiveBrowserSession, BrowserSessionService } from '../services/browser-session-service.js';
import { clearSessionCookie, CSRF_HEADER, ownOrigin, readSessionCookie } from './session-cookie.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** True for a Host that only this machine can reach (links built from it cannot point a stranger elsewhere). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Where links in emails point: KIT_PUBLIC_URL, else this request's origin when its Host is a loopback one, else null
 * (a Host header is the client's to choose: a reset link built from it could send the token to another site).
 */
export function linkBase(ctx: Context, publicUrl: string | null): string | null {
  if (publicUrl) return publicUrl;
  return isLoopbackHost(ctx.hostname) ? ownOrigin(ctx) : null;
}

/** Refuses a cross-origin browser request (login CSRF, same-site pages of another origin). */
export function assertSameOrigin(ctx: Context, publicUrl: string | null): void {
  const origin = ctx.get('origin');
  if (origin !== '' && origin !== ownOrigin(ctx) && origin !== publicUrl) {
    throw new KitError('forbidden', "Cookie sessions are only for this server's own pages.");
  }
}

/**
 * The live browser session of a request, checked like the authenticator checks it: the cookie names a live session,
 * and an unsafe method carries its CSRF token and no foreign Origin. Throws `unauthenticated` / `forbidden`.
 */
export async function requireBrowserSession(ctx: Context, sessions: BrowserSessionService, publicUrl: string | null): Promise<ActiveBrowserSession> {
  const cookie = readSessionCookie(ctx);
  const session = cookie === null ? null : await sessions.resolve(cookie);
  if (!session) {
    if (cookie !== null) clearSessionCookie(ctx);
    throw new KitError('unauthenticated', cookie === null ? 'You are not signed in.' : 'Your session has ended; sign in again.');
  }
  if (!SAFE_METHODS.has(ctx.method)) {
    // SameSite=Strict already keeps other sites' requests cookie-less; these two checks cover same-site pages
    // (another subdomain) and anything that slips past the browser's rules.
    assertSameOrigin(ctx, publicUrl);
    const csrf = ctx.get(CSRF_HEADER);
    if (csrf === '' || !sessions.csrfMatches(session.tokenHash, csrf)) throw new KitError('forbidden', 'The CSRF token is missing or wrong; reload the console.');
  }
  ctx.state.browserSession = session;
  return session;
}
