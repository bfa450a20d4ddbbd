import type { Middleware } from 'koa';
import type { KnexDatabase } from '../../adapters/node/knex-database.js';

/** How long /readyz waits for the database (ms). */
export const READY_TIMEOUT_MS = 2_000;

/**
 * GET /healthz (the process answers) and GET /readyz (the database answers `select 1` within 2 s).
 * Operational endpoints outside /v1 and outside the OpenAPI document.
 */
export function healthChecks(db: KnexDatabase): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/healthz') {
      ctx.body = { status: 'ok' };
      return;
    }
    if (ctx.path !== '/readyz') return next();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        db.knex.raw('select 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS);
        }),
      ]);
      ctx.body = { status: 'ready', database: db.kind };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'unavailable', database: db.kind };
    } finally {
      clearTimeout(timer);
    }
  };
}
