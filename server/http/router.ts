import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
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

type Where = 'path' | 'query' | 'body';
type Def = { type?: string; innerType?: Schema; in?: Schema; element?: Schema; shape?: Record<string, unknown>; entries?: Record<string, unknown>; values?: unknown[]; options?: Schema[]; format?: string | null };
type Schema = { _zod?: { def?: Def } } | undefined;

const FORMATS: Readonly<Record<string, string>> = {
  email: 'an email address',
  url: 'a URL',
  datetime: 'an ISO 8601 date-time such as 2026-01-31T12:00:00Z',
  date: 'a date such as 2026-01-31',
  uuid: 'a UUID',
  base64: 'base64 text',
};

/** A value of `schema` in words: "a number", "an array of {role, content}", "one of day, key". */
export function kindOf(schema: Schema, depth = 0): string {
  const def = schema?._zod?.def;
  switch (def?.type) {
    case 'string':
      return def.format && FORMATS[def.format] ? FORMATS[def.format]! : 'a string';
    case 'number':
      return def.format?.includes('int') ? 'a whole number' : 'a number';
    case 'boolean':
      return 'true or false';
    case 'enum':
      return `one of ${Object.values(def.entries ?? {}).join(', ')}`;
    case 'literal':
      return (def.values ?? []).map((v) => JSON.stringify(v)).join(' or ');
    case 'array':
      return depth > 1 ? 'an array' : `an array of ${kindOf(def.element, depth + 1).replace(/^an? (object )?/, '')}`.replace(/ of (value|string)$/, ' of $1s');
    case 'object': {
      const keys = Object.keys(def.shape ?? {});
      if (keys.length === 0 || depth > 1) return 'an object';
      return `${depth === 0 ? 'an object ' : ''}{${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', …' : ''}}`;
    }
    case 'record':
      return 'an object';
    case 'union':
      return (def.options ?? []).map((o) => kindOf(o, depth)).join(' or ');
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return kindOf(def.innerType, depth);
    case 'pipe':
      return kindOf(def.in, depth);
    default:
      return 'a value';
  }
}

function sizeLimit(origin: unknown, bound: number | bigint, exclusive: boolean, atLeast: boolean): string {
  if (origin === 'string') return bound === 1 && atLeast ? 'must not be empty' : `must be at ${atLeast ? 'least' : 'most'} ${bound} characters`;
  if (origin === 'array' || origin === 'set') return bound === 1 && atLeast ? 'must not be empty' : `must have at ${atLeast ? 'least' : 'most'} ${bound} items`;
  if (exclusive) return `must be ${atLeast ? 'more' : 'less'} than ${bound}`;
  return `must be at ${atLeast ? 'least' : 'most'} ${bound}`;
}

/**
 * The problem of one issue in plain English, for API users ("must be a number", "is required (an array of {role,
 * content})"), where the schema gave no message of its own (a schema's own message wins over this map). Never the
 * value sent.
 */
function plainMessage(issue: z.core.$ZodRawIssue, where: Where): string {
  const inst = issue.inst as Schema;
  switch (issue.code) {
    case 'invalid_type': {
      const kind = kindOf(inst);
      if (issue.input === undefined) return `is required (${kind})`;
      return `must be ${kind}${issue.input === null ? ', not null' : ''}`;
    }
    case 'invalid_value': {
      const kind = issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map(String).join(', ')}`;
      return issue.input === undefined ? `is required (${kind})` : `must be ${kind}`;
    }
    case 'too_small':
      return sizeLimit(issue.origin, issue.minimum as number, issue.inclusive === false, true);
    case 'too_big':
      return sizeLimit(issue.origin, issue.maximum as number, issue.inclusive === false, false);
    case 'invalid_format':
      return `must be ${FORMATS[issue.format] ?? (issue.format === 'regex' ? 'in the expected format' : `a valid ${issue.format}`)}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys': {
      const known = Object.keys(inst?._zod?.def?.shape ?? {});
      const takes = known.length === 0 ? 'none' : known.slice(0, 12).join(', ') + (known.length > 12 ? ', …' : '');
      return where === 'query' ? `is not a query parameter of this route (it takes ${takes})` : `is not a known field (known: ${takes})`;
    }
    case 'invalid_union':
      return issue.input === undefined ? `is required (${kindOf(inst)})` : `must be ${kindOf(inst)}`;
    case 'invalid_key':
      return 'has a key that is not allowed';
    case 'invalid_element':
      return 'has an entry that is not valid';
    default:
      return 'is not valid';
  }
}

const ERROR_MAPS: Readonly<Record<Where, z.core.$ZodErrorMap>> = {
  path: (issue) => plainMessage(issue, 'path'),
  query: (issue) => plainMessage(issue, 'query'),
  body: (issue) => plainMessage(issue, 'body'),
};

// A name a client sent (an unknown field or parameter) is shown only when it looks like a name.
const SHOWABLE_NAME = /^[A-Za-z0-9_.[\]-]{1,64}$/;

/** The first problem of a failed validation, as `field: what is wrong` (never echoing the value). */
export function describeIssue(error: z.ZodError, where: string): string {
  const issue = error.issues[0];
  if (!issue) return `${where}: invalid`;
  let path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const name = issue.keys.find((k) => SHOWABLE_NAME.test(k));
    if (name === undefined) return `${path.length > 0 ? path.join('.') : where}: has ${where === 'query' ? 'a query parameter' : 'a field'} that is not known`.slice(0, 300);
    path = [...path, name];
  }
  return `${path.length > 0 ? path.join('.') : where}: ${issue.message}`.slice(0, 300);
}

function parse<S extends z.ZodType>(schema: S, value: unknown, where: Where, code: ServerErrorCode = 'invalid_request'): z.output<S> {
  const result = schema.safeParse(value, { error: ERROR_MAPS[where] });
  if (!result.success) throw new KitError(code, code === 'not_found' ? 'Not found.' : describeIssue(result.error, where));
  return result.data;
}

/** The query of a route that declares none: any parameter is unknown. */
const NO_QUERY = z.strictObject({});

/**
 * A route's query schema, made strict: a parameter the route does not take is `invalid_request` (docs/api.md,
 * "Errors"), like an unknown body field — not ignored, or `POST /keys/{id}/rotate?dry=1` would rotate for real.
 */
export function strictQuery(route: Route): z.ZodType {
  if (!route.query) return NO_QUERY;
  if (!(route.query instanceof z.ZodObject)) throw new Error(`${route.operationId}: a query schema must be a z.object`);
  return route.query.strict();
}

async function run(route: Route, authenticator: Authenticator, ctx: Context, query: z.ZodType): Promise<void> {
  const auth = await authenticator.authenticate(route.auth, ctx);
  const params = route.params ? parse(route.params, ctx.params, 'path', 'not_found') : undefined;
  if (route.query) {
    const shape = (route.query as z.ZodObject).shape;
    const repeated = Object.keys(ctx.query).find((name) => Array.isArray(ctx.query[name]) && Object.hasOwn(shape, name));
    if (repeated !== undefined) throw new KitError('invalid_request', `${repeated}: must be given once`);
  }
  const parsedQuery = route.query || ctx.querystring !== '' ? parse(query, ctx.query, 'query') : undefined;
  let body: unknown;
  if (route.body) {
    const limit = typeof route.bodyLimitBytes === 'function' ? route.bodyLimitBytes(auth as never) : (route.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES);
    const raw = await readJsonBody(ctx, limit, route.bodyMediaTypes);
    if (raw === undefined && route.bodyRequired !== false) throw new KitError('invalid_request', 'body: a JSON body is required');
    body = (raw !== undefined ? route.fastBody?.(raw) : undefined) ?? parse(route.body, raw, 'body');
  }
  const result = await route.handler({ params, query: route.query ? parsedQuery : undefined, body, auth, requestId: String(ctx.state.requestId), ip: ctx.ip, ctx } as never);
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
  const queries = new Map(routes.map((route) => [route, strictQuery(route)]));
  for (const route of routes) router[route.method](toKoaPath(route.path), (ctx) => run(route, authenticator, ctx as unknown as Context, queries.get(route)!));
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
    return route ? run(route, authenticator, ctx as unknown as Context, queries.get(route)!) : next();
  };
  return [direct, router.routes() as unknown as Middleware, fallback];
}
