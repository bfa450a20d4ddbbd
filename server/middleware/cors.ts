import cors from '@koa/cors';
import type { Middleware } from 'koa';

/** Response headers a browser script may read. */
export const EXPOSED_HEADERS = ['Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy'];

/**
 * CORS for the API. Dashboard routes use bearer tokens (never cookies), so allowing any origin exposes nothing a
 * script could not already send; `KIT_CORS_ORIGINS` narrows it. Routes that take a publishable key check the
 * key's own `allowed_origins` in the authenticator, before any work is done.
 */
export function corsMiddleware(origins: '*' | readonly string[]): Middleware {
  return cors({
    origin: (ctx) => {
      const origin = ctx.get('origin');
      if (origins === '*') return '*';
      return origins.includes(origin) ? origin : '';
    },
    allowMethods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'Kit-Session'],
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    credentials: false,
  });
}
