import type { Context } from 'koa';

/** The console's session cookie on plain http (development on localhost). */
export const SESSION_COOKIE = 'kit_console';
/** On https the `__Host-` prefix makes the browser insist on Secure, Path=/ and no Domain (no subdomain can set it). */
export const SECURE_SESSION_COOKIE = '__Host-kit_console';
/** The header that carries the CSRF token on unsafe requests authenticated by the cookie. */
export const CSRF_HEADER = 'x-csrf-token';

/** The session cookie's value, or null. */
export function readSessionCookie(ctx: Context): string | null {
  const value = ctx.cookies.get(SECURE_SESSION_COOKIE) ?? ctx.cookies.get(SESSION_COOKIE);
  return value && /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
}

/**
 * Sets the session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Path=/,
 * Secure on https. Lasts `maxAgeSeconds` (the server ends idle sessions sooner).
 */
export function setSessionCookie(ctx: Context, token: string, maxAgeSeconds: number): void {
  const secure = ctx.secure;
  ctx.cookies.secure = secure; // behind a TLS proxy (KIT_TRUST_PROXY) Koa would otherwise refuse a Secure cookie
  ctx.cookies.set(secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: '/',
    maxAge: maxAgeSeconds * 1000,
    overwrite: true,
  });
}

/** Removes the session cookie (both names). */
export function clearSessionCookie(ctx: Context): void {
  const secure = ctx.secure;
  ctx.cookies.secure = secure;
  ctx.cookies.set(SESSION_COOKIE, null, { httpOnly: true, sameSite: 'strict', path: '/', overwrite: true });
  if (secure) ctx.cookies.set(SECURE_SESSION_COOKIE, null, { httpOnly: true, sameSite: 'strict', secure: true, path: '/', overwrite: true });
}

/** The origin this server answers on, as the browser sees it (X-Forwarded-* honoured with KIT_TRUST_PROXY). */
export function ownOrigin(ctx: Context): string {
  return `${ctx.protocol}://${ctx.host}`;
}
