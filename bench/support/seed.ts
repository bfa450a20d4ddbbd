import { keyDisplay } from '../../core/keys/key-format.js';
import { createKnexDatabase, type DatabaseLocation, type KnexDatabase } from '../../adapters/node/knex-database.js';
import { migrateToLatest } from '../../adapters/node/migrations/index.js';
import { newId, newKeyValue, sha256Hex } from '../../server/ids.js';

/** An organisation with secret keys, written straight into a database before the server under test opens it. */
export interface BenchOrg {
  readonly orgId: string;
  readonly secrets: readonly string[];
}

/** Opens `location`, migrates it, and creates one organisation of `tier` with `keys` secret keys. */
export async function seedBenchOrg(location: DatabaseLocation, keys = 1, tier: 'free' | 'pro' | 'business' = 'business'): Promise<BenchOrg> {
  const db = await createKnexDatabase(location);
  try {
    return await seedInto(db, keys, tier);
  } finally {
    await db.close();
  }
}

export async function seedInto(db: KnexDatabase, keys: number, tier: 'free' | 'pro' | 'business'): Promise<BenchOrg> {
  await migrateToLatest(db.knex);
  const orgId = newId('org');
  await db.knex('organizations').insert({ id: orgId, name: 'bench', tier, created_at: new Date() });
  const secrets: string[] = [];
  for (let i = 0; i < keys; i++) {
    const value = newKeyValue('secret');
    const { prefix, last4 } = keyDisplay(value);
    await db.knex('api_keys').insert({ id: newId('key'), org_id: orgId, kind: 'secret', name: `bench ${i}`, prefix, last4, hash: sha256Hex(value), created_at: new Date() });
    secrets.push(value);
  }
  return { orgId, secrets };
}

/** Usage rows and the month's meter of an organisation, for the exactness check after a run. */
export async function usageOf(location: DatabaseLocation, orgId: string): Promise<{ rows: number; tokens: number; reservedRows: number; used: number; reserved: number }> {
  const db = await createKnexDatabase(location);
  try {
    const [r] = await db.knex('usage_events').where({ org_id: orgId }).select(
      db.knex.raw('count(*)::int8 as rows'),
      db.knex.raw('coalesce(sum(input_tokens + output_tokens), 0)::int8 as tokens'),
      db.knex.raw("count(*) filter (where state = 'reserved')::int8 as reserved_rows"),
    );
    const [m] = await db.knex('org_meters').where({ org_id: orgId }).select(db.knex.raw('coalesce(sum(used), 0)::int8 as used'), db.knex.raw('coalesce(sum(reserved), 0)::int8 as reserved'));
    return { rows: Number(r.rows), tokens: Number(r.tokens), reservedRows: Number(r.reserved_rows), used: Number(m.used), reserved: Number(m.reserved) };
  } finally {
    await db.close();
  }
}
