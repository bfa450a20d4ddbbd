import { keyDisplay } from '../../core/keys/key-format.js';
import type { PasswordHasherPort } from '../../core/ports/password-hasher.port.js';
import type { KnexDatabase } from '../../adapters/node/knex-database.js';
import { newId, newKeyValue, randomBase62, sha256Hex } from '../ids.js';
import { DEMO_KEY_SETTING } from './demo-site.js';

/** Settings key that marks the demo seeding as done (or skipped): it runs once per database, ever. */
export const DEMO_SEED_SETTING = 'demo_seeded';
/** The demo owner's login. */
export const DEMO_OWNER_EMAIL = 'demo@example.com';

/** What seeding did: `created` carries the owner's password, shown once. */
export type DemoSeed =
  | { readonly kind: 'created'; readonly orgId: string; readonly email: string; readonly password: string; readonly publishableKey: string }
  | { readonly kind: 'existing'; readonly publishableKey: string | null }
  | { readonly kind: 'skipped' };

/**
 * On a fresh database (no organisation yet), creates a demo organisation, its owner and a publishable key whose
 * empty `allowed_origins` allows loopback origins only — so `npm start` answers questions with no setup. Runs at
 * most once per database, even with several replicas starting together (the claim and the rows are one
 * transaction); a database that already had organisations is never seeded.
 */
export async function seedDemo(db: KnexDatabase, hasher: PasswordHasherPort, now: Date): Promise<DemoSeed> {
  const existing = await db.knex('settings').where({ key: DEMO_SEED_SETTING }).first<{ value: string } | undefined>('value');
  if (existing) return existingSeed(db, existing.value);
  const password = randomBase62(16);
  const passwordHash = await hasher.hash(password); // slow: before the transaction holds PGlite's only connection
  const orgId = newId('org');
  const userId = newId('usr');
  const keyId = newId('key');
  const key = newKeyValue('publishable');
  const outcome = await db.knex.transaction(async (trx) => {
    const claimed = await trx('settings').insert({ key: DEMO_SEED_SETTING, value: orgId }).onConflict('key').ignore().returning('key');
    if (claimed.length === 0) return 'raced' as const;
    const { n } = (await trx('organizations').count<{ n: number }[]>('* as n'))[0]!;
    if (Number(n) > 0) {
      await trx('settings').where({ key: DEMO_SEED_SETTING }).update({ value: 'skipped' });
      return 'skipped' as const;
    }
    await trx('organizations').insert({ id: orgId, name: 'Kit demo', tier: 'free', created_at: now });
    await trx('users').insert({ id: userId, email: DEMO_OWNER_EMAIL, name: 'Demo owner', password_hash: passwordHash, created_at: now });
    await trx('memberships').insert({ org_id: orgId, user_id: userId, role: 'owner', joined_at: now });
    const { prefix, last4 } = keyDisplay(key);
    await trx('api_keys').insert({
      id: keyId,
      org_id: orgId,
      kind: 'publishable',
      name: 'Demo site (loopback origins)',
      prefix,
      last4,
      value: key,
      hash: sha256Hex(key),
      allowed_origins: JSON.stringify([]),
      ip_allowlist: JSON.stringify([]),
      created_by: userId,
      created_at: now,
    });
    await trx('settings').insert({ key: DEMO_KEY_SETTING, value: keyId }).onConflict('key').merge();
    return 'created' as const;
  });
  if (outcome === 'created') return { kind: 'created', orgId, email: DEMO_OWNER_EMAIL, password, publishableKey: key };
  if (outcome === 'skipped') return { kind: 'skipped' };
  const value = await db.knex('settings').where({ key: DEMO_SEED_SETTING }).first<{ value: string }>('value');
  return existingSeed(db, value.value);
}

async function existingSeed(db: KnexDatabase, value: string): Promise<DemoSeed> {
  if (value === 'skipped') return { kind: 'skipped' };
  const setting = await db.knex('settings').where({ key: DEMO_KEY_SETTING }).first<{ value: string } | undefined>('value');
  const row = setting ? await db.knex('api_keys').where({ id: setting.value }).whereNull('revoked_at').first<{ value: string | null } | undefined>('value') : undefined;
  return { kind: 'existing', publishableKey: row?.value ?? null };
}
