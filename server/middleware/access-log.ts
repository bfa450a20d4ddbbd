import type { Middleware } from 'koa';
import type { Logger } from 'pino';

/**
 * One structured line per request: id, method, path (without the query string), status, duration and
 * client address. Headers and bodies are never logged, so credentials and passwords cannot leak here.
 */
export function accessLog(logger: Logger): Middleware {
  // The line's fields are fixed and none is a redacted path (server/logger.ts): without the redaction pass, which
  // walks every line for those paths, its output is the same for a fraction of the cost (every request logs one).
  const lines = logger.child({}, { redact: [] });
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      lines.info(
        { request_id: ctx.state.requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10, ip: ctx.ip },
        'request',
      );
    }
  };
}
