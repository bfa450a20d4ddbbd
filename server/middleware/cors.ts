import cors from '@koa/cors';
import type { Middleware } from 'koa';

/** Response headers a browser script may read, on every route. */
export const EXPOSED_HEADERS = ['Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy'];

/**
 * Response headers a dashboard on another origin reads besides those: `ETag` (the version a settings `PATCH` must send
 * back as `If-Match`) and `Content-Disposition` (the file name of `GET /questions/export`).
 */
export const DASHBOARD_EXPOSED_HEADERS = [...EXPOSED_HEADERS, 'ETag', 'Content-Disposition'];

/**
 * Request headers a dashboard on another origin may send: its token and JSON, `If-Match` (settings `PATCH`es answer
 * `428` without it), `Idempotency-Key` (`POST /billing/checkout`) and `Kit-Session`. `X-CSRF-Token` is not among
 * them: it goes with the console's cookie, which the dashboard policy never lets another origin send.
 */
export const DASHBOARD_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'If-Match', 'Idempotency-Key', 'Kit-Session'];

/** Request headers the SDK sends to the browser routes; `Kit-Preview`: the console's preview on the owner's site. */
export const BROWSER_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Kit-Session', 'Kit-Preview'];

/** The routes browsers call with a publishable key; their CORS follows the key's `allowed_origins`. */
export const BROWSER_PATHS: ReadonlySet<string> = new Set(['/v1/config', '/v1/session', '/v1/chat', '/v1/feedback', '/v1/beacon']);

/**
 * CORS for the API. Dashboard routes use bearer tokens (never cookies), so allowing any origin exposes nothing a
 * script could not already send; `KIT_CORS_ORIGINS` narrows it. The browser routes (/config, /session, /chat) follow
 * each key's own `allowed_origins` instead: a preflight carries no key, so any origin may preflight, and a successful
 * answer gets `Access-Control-Allow-Origin` from the authenticator only when the key allows that origin. Error
 * answers carry it for any origin, so the SDK can read the contract error and tell the site's developer what is wrong.
 */
export function corsMiddleware(origins: '*' | readonly string[]): Middleware {
  const dashboard = cors({
    origin: (ctx) => {
      const origin = ctx.get('origin');
      if (origins === '*') return '*';
      return origins.includes(origin) ? origin : '';
    },
    allowMethods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'],
    allowHeaders: DASHBOARD_ALLOWED_HEADERS,
    exposeHeaders: DASHBOARD_EXPOSED_HEADERS,
    maxAge: 600,
    credentials: false,
  });
  return async (ctx, next) => {
    if (!BROWSER_PATHS.has(ctx.path)) return dashboard(ctx, next);
    const origin = ctx.get('origin');
    if (origin === '') return next();
    ctx.vary('Origin');
    if (ctx.method === 'OPTIONS' && ctx.get('access-control-request-method') !== '') {
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', BROWSER_ALLOWED_HEADERS.join(', '));
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    // Date lets the SDK measure a session's lifetime on the server's clock.
    ctx.set('Access-Control-Expose-Headers', [...EXPOSED_HEADERS, 'Date'].join(', '));
    try {
      await next();
    } catch (err) {
      // An error answer (`origin_not_allowed`, `invalid_api_key`, …) is readable from any origin: it holds no data,
      // and without it the SDK sees only an opaque network failure, so a misconfigured site fails silently (#10).
      ctx.set('Access-Control-Allow-Origin', origin);
      throw err;
    }
  };
}
