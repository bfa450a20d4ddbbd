import { z } from 'zod';
import { ERROR_CODES, type ServerErrorCode } from '../../core/errors/index.js';
import { API_PREFIX } from './router.js';
import type { Route } from './route.js';
import { ErrorBody } from './schemas.js';

type JsonSchema = Record<string, unknown>;

/** The error codes a route may answer: those its auth, params, query and body imply, plus its own. */
export function errorCodesOf(route: Route): ServerErrorCode[] {
  const codes = new Set<ServerErrorCode>(route.errors ?? []);
  if (route.auth.kind !== 'none') ['unauthenticated', 'invalid_api_key', 'forbidden'].forEach((c) => codes.add(c as ServerErrorCode));
  if (route.auth.kind === 'key' && route.auth.kinds.includes('publishable')) codes.add('origin_not_allowed');
  if (route.auth.kind === 'key' && route.auth.kinds.includes('secret')) codes.add('ip_not_allowed');
  if (route.params) codes.add('not_found');
  // Every route refuses a query parameter it does not take (server/http/router.ts, strictQuery).
  codes.add('invalid_request');
  if (route.body) ['invalid_request', 'payload_too_large', 'unsupported_media_type'].forEach((c) => codes.add(c as ServerErrorCode));
  codes.add('internal_error');
  // Any route that reads the database answers 503 while it is unreachable (error-handler.ts).
  if (route.operationId !== 'getOpenApiDocument') codes.add('service_unavailable');
  return [...codes].sort((a, b) => ERROR_CODES[a].status - ERROR_CODES[b].status || a.localeCompare(b));
}

/** Converts zod schemas to OpenAPI 3.1 (JSON Schema 2020-12), hoisting named schemas into components. */
class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    delete json.$schema;
    for (const [name, def] of Object.entries(defs)) this.#add(name, def);
    const id = (json as { id?: unknown }).id;
    if (typeof id === 'string') {
      delete (json as { id?: unknown }).id;
      this.#add(id, json);
      return { $ref: `#/components/schemas/${id}` };
    }
    return JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
  }

  #add(name: string, def: JsonSchema): void {
    const rewritten = JSON.parse(JSON.stringify(def).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
    delete rewritten.id;
    const existing = this.components[name];
    if (existing && JSON.stringify(existing) !== JSON.stringify(rewritten)) throw new Error(`two different schemas are named ${name}`);
    this.components[name] = rewritten;
  }
}

function parameters(collector: SchemaCollector, schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = collector.convert(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property as JsonSchema & { description?: string };
    return { name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: rest, ...(description ? { description } : {}) };
  });
}

const SECURITY: Readonly<Record<string, JsonSchema>> = Object.freeze({
  dashboardToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token from POST /auth/signup or /auth/login (1 hour).' },
  publishableKey: { type: 'http', scheme: 'bearer', description: 'A publishable key, kit_pub_…' },
  secretKey: { type: 'http', scheme: 'bearer', description: 'A secret key, kit_sec_…' },
  consoleSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'kit_console',
    description:
      'The console\'s browser session: the HttpOnly cookie set by POST /auth/session (`__Host-kit_console` over HTTPS). Accepted wherever a dashboard token is; unsafe methods also need `X-CSRF-Token` and an Origin of this server (docs/console.md).',
  },
});

const REQUEST_ID_HEADER = { description: 'The id of this request (also in error bodies).', schema: { type: 'string' } };

/** The OpenAPI 3.1 document of every route, generated from the same schemas that validate requests. */
export function buildOpenApiDocument(routes: readonly Route[], info: { title: string; version: string }): JsonSchema {
  const collector = new SchemaCollector();
  collector.convert(ErrorBody, 'output');
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const responses: Record<string, JsonSchema> = {};
    for (const [status, spec] of Object.entries(route.responses)) {
      responses[status] = {
        description: spec.description,
        headers: { 'Request-Id': REQUEST_ID_HEADER },
        ...(spec.schema
          ? {
              content: {
                [spec.contentType ?? 'application/json']: { schema: collector.convert(spec.schema, 'output') },
                ...Object.fromEntries(Object.entries(spec.alternatives ?? {}).map(([type, schema]) => [type, { schema: collector.convert(schema, 'output') }])),
              },
            }
          : {}),
      };
    }
    const byStatus = new Map<number, ServerErrorCode[]>();
    const codes = errorCodesOf(route);
    for (const code of codes) byStatus.set(ERROR_CODES[code].status, [...(byStatus.get(ERROR_CODES[code].status) ?? []), code]);
    for (const [status, group] of byStatus) {
      responses[String(status)] = {
        description: group.map((c) => `\`${c}\`: ${ERROR_CODES[c].message}`).join(' '),
        headers: {
          'Request-Id': REQUEST_ID_HEADER,
          ...(group.includes('service_unavailable') ? { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } } : {}),
          ...(group.includes('rate_limited') || group.includes('quota_exceeded')
            ? {
                'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
                RateLimit: { description: 'The window: `limit=<n>, remaining=<n>, reset=<seconds>`.', schema: { type: 'string' } },
              }
            : {}),
        },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const security =
      route.auth.kind === 'none'
        ? route.cookieSession
          ? [{ consoleSession: [] }]
          : []
        : route.auth.kind === 'jwt'
          ? [{ dashboardToken: [] }, { consoleSession: [] }]
          : route.auth.kinds.map((k) => ({ [k === 'publishable' ? 'publishableKey' : 'secretKey']: [] }));
    const operation: JsonSchema = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [...route.tags],
      security,
      parameters: [...parameters(collector, route.params, 'path'), ...parameters(collector, route.query, 'query')],
      ...(route.body
        ? {
            requestBody: {
              required: route.bodyRequired !== false,
              content: Object.fromEntries((route.bodyMediaTypes ?? ['application/json']).map((type) => [type, { schema: collector.convert(route.body!, 'input') }])),
            },
          }
        : {}),
      responses,
      'x-error-codes': codes,
      ...(route.auth.kind === 'jwt' ? { 'x-permission': route.auth.permission } : {}),
    };
    (paths[route.path] ??= {})[route.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { ...info, description: 'The Kit Platform API. Errors: `{ "error": { "code", "message", "request_id" } }`.' },
    servers: [{ url: API_PREFIX }],
    paths,
    components: { schemas: collector.components, securitySchemes: SECURITY },
  };
}
