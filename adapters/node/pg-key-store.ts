import type { Knex } from 'knex';
import { fail, ok } from '../../core/errors/index.js';
import type { KeyKind } from '../../core/keys/key-format.js';
import type { Tier } from '../../core/ports/account-store.port.js';
import type { ApiKeyRecord, KeyStorePort } from '../../core/ports/key-store.port.js';

type KeyRow = {
  id: string;
  org_id: string;
  kind: KeyKind;
  name: string;
  prefix: string;
  last4: string;
  value: string | null;
  hash: string;
  allowed_origins: string[];
  ip_allowlist: string[];
  created_by: string | null;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
};

const toKey = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  orgId: r.org_id,
  kind: r.kind,
  name: r.name,
  prefix: r.prefix,
  last4: r.last4,
  value: r.value,
  hash: r.hash,
  allowedOrigins: r.allowed_origins,
  ipAllowlist: r.ip_allowlist,
  createdAt: r.created_at,
  createdBy: r.created_by,
  lastUsedAt: r.last_used_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
});

// jsonb columns take JSON text: the pg driver would turn a JS array into a PostgreSQL array literal.
const toRow = (k: ApiKeyRecord, rotatedFrom: string | null = null) => ({
  id: k.id,
  org_id: k.orgId,
  kind: k.kind,
  name: k.name,
  prefix: k.prefix,
  last4: k.last4,
  value: k.value,
  hash: k.hash,
  allowed_origins: JSON.stringify(k.allowedOrigins),
  ip_allowlist: JSON.stringify(k.ipAllowlist),
  created_by: k.createdBy,
  created_at: k.createdAt,
  last_used_at: k.lastUsedAt,
  expires_at: k.expiresAt,
  revoked_at: k.revokedAt,
  rotated_from: rotatedFrom,
});

/** Rows per UPDATE when flushing last-use times. */
const TOUCH_CHUNK = 500;

/** API key storage on PostgreSQL or PGlite through knex. */
export function createPgKeyStore(knex: Knex): KeyStorePort {
  const live = (db: Knex | Knex.Transaction, orgId: string) => db<KeyRow>('api_keys').where({ org_id: orgId }).whereNull('revoked_at');

  return {
    async insert(key, maxActive) {
      if (!maxActive) {
        await knex('api_keys').insert(toRow(key));
        return ok(undefined);
      }
      // The organisation's row lock serialises key creation per organisation (replicas included); the count runs
      // after it is held, so it sees every key committed before.
      return knex.transaction(async (trx) => {
        const org = await trx('organizations').where({ id: key.orgId }).forUpdate().first<{ tier: Tier } | undefined>('tier');
        const tier = org?.tier ?? 'free';
        const limit = maxActive(tier);
        const [row] = await trx('api_keys').where({ org_id: key.orgId }).whereNull('revoked_at').whereNull('expires_at').count<{ n: number }[]>('* as n');
        if (Number(row!.n) >= limit) return { ...fail('key_limit' as const, `the ${tier} plan allows ${limit} active keys`), tier, limit, active: Number(row!.n) };
        await trx('api_keys').insert(toRow(key));
        return ok(undefined);
      });
    },

    async list(orgId, page) {
      const query = knex<KeyRow>('api_keys').where({ org_id: orgId });
      if (!page.includeRevoked) {
        query.whereNull('revoked_at').where((q) => q.whereNull('expires_at').orWhere('expires_at', '>', page.now));
      }
      if (page.startingAfter !== undefined) {
        const cursor = await knex<KeyRow>('api_keys').where({ org_id: orgId, id: page.startingAfter }).first('created_at');
        if (!cursor) return fail('bad_cursor', 'starting_after is not a key of this organisation');
        query.whereRaw('(created_at, id) < (?, ?)', [cursor.created_at, page.startingAfter]);
      }
      const rows = await query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(page.limit + 1);
      return ok({ data: rows.slice(0, page.limit).map(toKey), hasMore: rows.length > page.limit });
    },

    async find(orgId, id) {
      const row = await live(knex, orgId).where({ id }).first();
      return row ? toKey(row) : null;
    },

    async update(orgId, id, patch) {
      const changes: Record<string, unknown> = {};
      if (patch.name !== undefined) changes.name = patch.name;
      if (patch.allowedOrigins !== undefined) changes.allowed_origins = JSON.stringify(patch.allowedOrigins);
      if (patch.ipAllowlist !== undefined) changes.ip_allowlist = JSON.stringify(patch.ipAllowlist);
      if (Object.keys(changes).length === 0) return this.find(orgId, id);
      const rows = (await live(knex, orgId).where({ id }).update(changes).returning('*')) as KeyRow[];
      return rows[0] ? toKey(rows[0]) : null;
    },

    async rotate(orgId, id, successor, previousExpiresAt) {
      const result = await knex.transaction(async (trx) => {
        const previous = await live(trx, orgId).where({ id }).forUpdate().first();
        if (!previous) return 'not_found' as const;
        if (previous.expires_at !== null) return 'not_active' as const;
        const [updated] = (await trx('api_keys').where({ id }).update({ expires_at: previousExpiresAt }).returning('*')) as KeyRow[];
        await trx('api_keys').insert(toRow(successor, id));
        return updated!;
      });
      if (result === 'not_found') return fail('not_found', 'no such key');
      if (result === 'not_active') return fail('not_active', 'key was already rotated');
      return ok(toKey(result));
    },

    async revoke(orgId, id, now) {
      const rows = (await live(knex, orgId).where({ id }).update({ revoked_at: now }).returning('*')) as KeyRow[];
      return rows[0] ? toKey(rows[0]) : null;
    },

    async findByHash(hash) {
      const row = await knex('api_keys as k')
        .join('organizations as o', 'o.id', 'k.org_id')
        .where('k.hash', hash)
        .first<(KeyRow & { org_tier: Tier }) | undefined>('k.*', 'o.tier as org_tier');
      return row ? { key: toKey(row), orgTier: row.org_tier } : null;
    },

    async touchLastUsed(uses) {
      for (let i = 0; i < uses.length; i += TOUCH_CHUNK) {
        const chunk = uses.slice(i, i + TOUCH_CHUNK);
        const values = chunk.map(() => '(?, ?::timestamptz)').join(', ');
        await knex.raw(
          `update api_keys as k set last_used_at = greatest(coalesce(k.last_used_at, v.at), v.at)
           from (values ${values}) as v(id, at) where k.id = v.id`,
          chunk.flatMap((u) => [u.id, u.at.toISOString()]),
        );
      }
    },
  };
}
