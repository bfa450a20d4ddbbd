import { expect } from 'chai';
import { migrateToLatest } from '../../../adapters/node/migrations/index.js';
import { createPgKeyStore } from '../../../adapters/node/pg-key-store.js';
import type { ApiKeyRecord } from '../../../core/ports/key-store.port.js';
import { newId } from '../../../server/ids.js';
import { describeOnEachDatabase } from '../../support/databases.js';

describe('createPgKeyStore', () => {
  describeOnEachDatabase('the per-plan key cap', (db) => {
    before(async () => {
      await migrateToLatest(db().knex);
    });

    const key = (orgId: string): ApiKeyRecord => {
      const id = newId('key');
      return {
        id, orgId, kind: 'secret', name: 'burst', prefix: 'kit_sec_abcd', last4: 'wxyz', value: null, hash: id, allowedOrigins: [], ipAllowlist: [],
        createdAt: new Date(), createdBy: null, lastUsedAt: null, expiresAt: null, revokedAt: null,
      };
    };

    it('never lets a parallel burst of creations past the cap, from several store instances (replicas)', async () => {
      const orgId = newId('org');
      await db().knex('organizations').insert({ id: orgId, name: 'cap', tier: 'pro', created_at: new Date() });
      const stores = [createPgKeyStore(db().knex), createPgKeyStore(db().knex)];
      const caps = { free: 1, pro: 7, business: 100 } as const;
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => stores[i % 2]!.insert(key(orgId), (tier) => caps[tier])));
      expect(results.filter((r) => r.ok)).to.have.length(7);
      const refused = results.filter((r) => !r.ok);
      expect(refused.every((r) => !r.ok && r.code === 'key_limit' && r.tier === 'pro' && r.limit === 7 && r.active === 7)).to.equal(true);
      const [row] = await db().knex('api_keys').where({ org_id: orgId }).count<{ n: number }[]>('* as n');
      expect(Number(row!.n)).to.equal(7);
    });

    it('counts neither revoked nor expiring keys', async () => {
      const orgId = newId('org');
      await db().knex('organizations').insert({ id: orgId, name: 'cap', tier: 'free', created_at: new Date() });
      const store = createPgKeyStore(db().knex);
      const one = () => store.insert(key(orgId), () => 2);
      expect((await one()).ok).to.equal(true);
      expect((await one()).ok).to.equal(true);
      expect((await one()).ok).to.equal(false);
      const [first, second] = await db().knex('api_keys').where({ org_id: orgId }).orderBy('id');
      await db().knex('api_keys').where({ id: first.id }).update({ revoked_at: new Date() });
      await db().knex('api_keys').where({ id: second.id }).update({ expires_at: new Date(Date.now() + 3_600_000) });
      expect((await one()).ok).to.equal(true);
      expect((await one()).ok).to.equal(true);
      expect((await one()).ok).to.equal(false);
    });
  });
});
