import { expect } from 'chai';
import type { PasswordHasherPort } from '../../../core/ports/password-hasher.port.js';
import { createArgon2PasswordHasher } from '../../../adapters/node/argon2-password-hasher.js';
import { DEMO_KEY_SETTING } from '../../../server/demo/demo-site.js';
import { DEMO_OWNER_EMAIL, seedDemo } from '../../../server/demo/seed-demo.js';
import { sharedPglite } from '../../support/databases.js';
import { freshPglite } from '../support/fresh-database.js';

describe('seedDemo', () => {
  const hasher: PasswordHasherPort = createArgon2PasswordHasher();

  it('creates the demo organization, owner and loopback publishable key once on a fresh database, even when replicas race', async function () {
    this.timeout(60_000);
    const db = await freshPglite();
    const results = await Promise.all([seedDemo(db, hasher, new Date()), seedDemo(db, hasher, new Date())]);
    const created = results.filter((r) => r.kind === 'created');
    expect(created).to.have.length(1);
    const seed = created[0]!;
    if (seed.kind !== 'created') throw new Error('unreachable');
    expect(seed.email).to.equal(DEMO_OWNER_EMAIL);
    expect(seed.publishableKey).to.match(/^kit_pub_/);
    expect(results.find((r) => r !== seed)).to.deep.equal({ kind: 'existing', publishableKey: seed.publishableKey });

    const user = await db.knex('users').where({ email: DEMO_OWNER_EMAIL }).first();
    expect(await hasher.verify(user.password_hash, seed.password)).to.equal(true);
    expect(await db.knex('memberships').where({ org_id: seed.orgId, user_id: user.id }).first()).to.include({ role: 'owner' });
    const key = await db.knex('api_keys').where({ value: seed.publishableKey }).first();
    expect(key).to.include({ org_id: seed.orgId, kind: 'publishable' });
    expect(key.allowed_origins).to.deep.equal([]);
    expect((await db.knex('settings').where({ key: DEMO_KEY_SETTING }).first()).value).to.equal(key.id);
    expect(await db.knex('organizations').count<{ n: number }[]>('* as n')).to.deep.equal([{ n: 1 }]);

    // a restart: nothing new, the key again (no password)
    expect(await seedDemo(db, hasher, new Date())).to.deep.equal({ kind: 'existing', publishableKey: seed.publishableKey });
  });

  it('never seeds a database that already has organizations', async function () {
    this.timeout(60_000);
    const db = await sharedPglite();
    const orgs = await db.knex('organizations').count<{ n: number }[]>('* as n');
    if (Number(orgs[0]!.n) === 0) await db.knex('organizations').insert({ id: 'org_preexisting', name: 'x', tier: 'free', created_at: new Date() });
    const before = await db.knex('organizations').count<{ n: number }[]>('* as n');
    const seed = await seedDemo(db, hasher, new Date());
    expect(seed.kind === 'skipped' || seed.kind === 'existing').to.equal(true);
    expect(await db.knex('organizations').count<{ n: number }[]>('* as n')).to.deep.equal(before);
    expect(await seedDemo(db, hasher, new Date())).to.deep.equal(seed);
  });
});
