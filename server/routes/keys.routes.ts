import { z } from 'zod';
import type { KeyService } from '../services/key-service.js';
import { MAX_ROTATION_GRACE_SECONDS } from '../services/key-service.js';
import { unwrap } from '../services/service-result.js';
import { defineRoute, type Route } from '../http/route.js';
import { humanText, listOf, pageQuery, prefixedId, Timestamp } from '../http/schemas.js';
import { KeyView, keyView } from '../http/views.js';
import type { Clock } from '../tokens.js';

const KeyId = z.object({ id: prefixedId('key') });
const Entries = (what: string) => z.array(z.string().max(300, 'must be at most 300 characters')).max(100, 'at most 100 entries').meta({ description: what });
const AllowedOrigins = Entries('Publishable keys: exact origins, https://*.example.com wildcards, chrome-extension://ID. Empty = loopback origins only.');
const IpAllowlist = Entries('Secret keys: IPv4/IPv6 addresses and CIDR ranges. Empty = any address.');
const IssuedKey = z.strictObject({ key: KeyView, secret: z.string().meta({ description: 'The full key. Shown once: store it now.' }) });

/** GET/POST /keys, PATCH/DELETE /keys/{id}, POST /keys/{id}/rotate. */
export function keyRoutes(keys: KeyService, clock: Clock): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/keys',
      operationId: 'listKeys',
      summary: 'List API keys',
      description: 'Newest first. Revoked keys (deleted, or rotated and past their grace period) only with `include_revoked=true`.',
      tags: ['Keys'],
      auth: { kind: 'jwt', permission: 'keys:read' },
      query: pageQuery('key').extend({ include_revoked: z.enum(['true', 'false']).default('false').transform((v) => v === 'true') }),
      responses: { 200: { description: 'A page of keys.', schema: listOf(KeyView) } },
      async handler({ auth, query }) {
        const page = unwrap(await keys.list(auth, { limit: query.limit, startingAfter: query.starting_after, includeRevoked: query.include_revoked }));
        const now = clock();
        return { status: 200, body: { data: page.data.map((k) => keyView(k, now)), has_more: page.hasMore } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/keys',
      operationId: 'createKey',
      summary: 'Create an API key',
      description: "At most the plan's `max_keys` active keys per organization (free 5, pro 25, business 100); past it, `409 conflict`.",
      tags: ['Keys'],
      auth: { kind: 'jwt', permission: 'keys:write' },
      body: z.strictObject({ kind: z.enum(['publishable', 'secret']), name: humanText(100), allowed_origins: AllowedOrigins.optional(), ip_allowlist: IpAllowlist.optional() }),
      responses: { 201: { description: 'The key and, once, its full value.', schema: IssuedKey } },
      errors: ['conflict'],
      async handler({ auth, body }) {
        const issued = unwrap(await keys.create(auth, body.kind, { name: body.name, allowedOrigins: body.allowed_origins, ipAllowlist: body.ip_allowlist }));
        return { status: 201, body: { key: keyView(issued.key, clock()), secret: issued.secret } };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/keys/{id}',
      operationId: 'updateKey',
      summary: "Rename a key or change its allowed origins or IP allowlist",
      description: 'Changes apply on this server at once and on other replicas within the key cache bound (KIT_KEY_CACHE_TTL_MS, 5 s).',
      tags: ['Keys'],
      auth: { kind: 'jwt', permission: 'keys:write' },
      params: KeyId,
      body: z.strictObject({ name: humanText(100).optional(), allowed_origins: AllowedOrigins.optional(), ip_allowlist: IpAllowlist.optional() }),
      responses: { 200: { description: 'The updated key.', schema: z.strictObject({ key: KeyView }) } },
      async handler({ auth, params, body }) {
        const key = unwrap(await keys.update(auth, params.id, { name: body.name, allowedOrigins: body.allowed_origins, ipAllowlist: body.ip_allowlist }));
        return { status: 200, body: { key: keyView(key, clock()) } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/keys/{id}/rotate',
      operationId: 'rotateKey',
      summary: 'Rotate a key',
      description:
        'Creates a successor with the same name and settings. The old key keeps working for `expire_previous_in_seconds` (status `expiring`), then stops. A key can be rotated once; delete it to end its grace period early.',
      tags: ['Keys'],
      auth: { kind: 'jwt', permission: 'keys:write' },
      params: KeyId,
      body: z
        .strictObject({ expire_previous_in_seconds: z.number().int('must be a whole number').min(0, 'must be at least 0').max(MAX_ROTATION_GRACE_SECONDS, `must be at most ${MAX_ROTATION_GRACE_SECONDS}`).default(0) })
        .optional(),
      bodyRequired: false,
      responses: {
        201: {
          description: 'The successor and, once, its full value.',
          schema: IssuedKey.extend({ previous: z.strictObject({ id: z.string(), expires_at: Timestamp }) }),
        },
      },
      errors: ['conflict'],
      async handler({ auth, params, body }) {
        const rotated = unwrap(await keys.rotate(auth, params.id, body?.expire_previous_in_seconds ?? 0));
        return {
          status: 201,
          body: { key: keyView(rotated.key, clock()), secret: rotated.secret, previous: { id: rotated.previous.id, expires_at: rotated.previous.expiresAt!.toISOString() } },
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/keys/{id}',
      operationId: 'deleteKey',
      summary: 'Delete a key',
      description: 'The key stops working at once on this server, and within the key cache bound (5 s) on other replicas.',
      tags: ['Keys'],
      auth: { kind: 'jwt', permission: 'keys:write' },
      params: KeyId,
      responses: { 204: { description: 'Deleted.' } },
      async handler({ auth, params }) {
        unwrap(await keys.remove(auth, params.id));
        return { status: 204 };
      },
    }),
  ];
}
