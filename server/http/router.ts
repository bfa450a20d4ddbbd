import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import { KitError, type ServerErrorCode } from '../../core/errors/index.js';
import type { Authenticator } from '../auth/authenticator.js';
import { readJsonBody } from '../middleware/json-body.js';
import { DEFAULT_BODY_LIMIT_BYTES, type Route } from './route.js';

/** Base path of every API route (CONTRACT §3). */
export const API_PREFIX = '/v1';

/** `/keys/{id}` → `/keys/:id`. */
export function toKoaPath(path: string): string {
  return path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ':$1');
}

/** The first problem of a failed validation, as `field: message` (never echoing the value). */
export function describeIssue(error: z.ZodError, where: string): string {
  const issue = error.issues[0];
  if (!issue) return `${where}: invalid`;
  const path = issue.path.length > 0 ? issue.path.map(String).join('.') : where;
  return `${path}: ${issue.message}`.slice(0, 300);
}

function parse<S extends z.ZodType>(schema: S, value: unknown, where: string, code: ServerErrorCode = 'invalid_request'): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new KitError(code, code === 'not_found' ? 'Not found.' : describeIssue(result.error, where));
  return result.data;
}

async function run(route: Route, authenticator: Authenticator, ctx: Context): Promise<void> {
  const auth = await authenticator.authenticate(route.auth, ctx);
  const params = route.params ? parse(route.params, ctx.params, 'path', 'not_found') : undefined;
  const query = route.query ? parse(route.query, ctx.query, 'query') : undefined;
  let body: unknown;
  if (route.body) {
    const limit = typeof route.bodyLimitBytes === 'function' ? route.bodyLimitBytes(auth as never) : (route.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES);
    const raw = await readJsonBody(ctx, limit, route.bodyMediaTypes);
    if (raw === undefined && route.bodyRequired !== false) throw new KitError('invalid_request', 'body: a JSON body is required');
    body = (raw !== undefined ? route.fastBody?.(raw) : undefined) ?? parse(route.body, raw, 'body');
  }
  const result = await route.handler({ params, query, body, auth, requestId: String(ctx.state.requestId), ip: ctx.ip, ctx } as never);
  if (!result) return;
  ctx.status = result.status;
  if (result.body !== undefined) ctx.body = result.body;
  for (const [name, value] of Object.entries(result.headers ?? {})) ctx.set(name, value);
}

/**
 * Mounts routes under /v1: each runs auth → params → query → body → handler. Unmatched requests end in
 * `not_found`, or `method_not_allowed` with an Allow header when the path exists under another method.
 */
export function mountRoutes(routes: readonly Route[], authenticator: Authenticator): Middleware[] {
  const router = new Router({ prefix: API_PREFIX });
  for (const route of routes) router[route.method](toKoaPath(route.path), (ctx) => run(route, authenticator, ctx as unknown as Context));
  const fallback: Middleware = async (ctx) => {
    const match = router.match(ctx.path, ctx.method);
    if (match.path.length > 0 && ctx.method !== 'OPTIONS') {
      const allowed = new Set(match.path.flatMap((layer) => layer.methods));
      ctx.set('Allow', [...allowed].join(', '));
      throw new KitError('method_not_allowed');
    }
    if (match.path.length > 0) {
      // OPTIONS that is not a CORS preflight (those are answered by the CORS middleware).
      ctx.set('Allow', [...new Set(match.path.flatMap((layer) => layer.methods)), 'OPTIONS'].join(', '));
      ctx.status = 204;
      return;
    }
    throw new KitError('not_found', 'No such route.');
  };
  // Routes without path parameters are found by method and exact path in one map lookup, before the router tries its
  // patterns one by one and composes a middleware chain for the request; anything else (HEAD, a trailing slash,
  // another case, a parameter) goes through the router as before.
  const exact = new Map<string, Route>();
  for (const route of routes) {
    const method = route.method.toUpperCase();
    const path = `${API_PREFIX}${route.path}`;
    // Only where the router itself would run this route alone (no other pattern matches the path).
    if (!route.path.includes('{') && router.match(path, method).pathAndMethod.length === 1) exact.set(`${method} ${path}`, route);
  }
  const direct: Middleware = (ctx, next) => {
    const route = exact.get(`${ctx.method} ${ctx.path}`);
    return route ? run(route, authenticator, ctx as unknown as Context) : next();
  };
  return [direct, router.routes() as unknown as Middleware, fallback];
}
