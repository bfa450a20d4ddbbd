import { expect } from 'chai';
import { migrateToLatest } from '../../../adapters/node/migrations/index.js';
import { createPgReplayStore } from '../../../adapters/node/pg-replay-store.js';
import { describeOnEachDatabase } from '../../support/databases.js';

describe('createPgReplayStore', () => {
  describeOnEachDatabase('claims', (db) => {
    before(async () => {
      await migrateToLatest(db().knex);
    });
    const id = (label: string) => `test:${label}:${Math.random().toString(36).slice(2)}`;

    it('accepts a token once and refuses it again until its claim expires', async () => {
      let t = Date.parse('2026-03-01T12:00:00Z');
      const store = createPgReplayStore(db().knex, { now: () => t });
      const token = id('once');
      const expires = new Date(t + 60_000);
      expect(await store.claimOnce(token, expires)).to.equal(true);
      expect(await store.claimOnce(token, expires)).to.equal(false);
      t += 59_000;
      expect(await store.claimOnce(token, expires)).to.equal(false);
      t += 1_000; // the old claim expired: the token itself is invalid by now, the row may be reused
      expect(await store.claimOnce(token, new Date(t + 60_000))).to.equal(true);
    });

    it('grants exactly one of many concurrent claims of one token, through separate stores (replicas)', async () => {
      const token = id('race');
      const expires = new Date(Date.now() + 60_000);
      const stores = Array.from({ length: 4 }, () => createPgReplayStore(db().knex));
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => stores[i % 4]!.claimOnce(token, expires)));
      expect(results.filter(Boolean)).to.have.length(1);
    });

    it('sweeps expired claims in the background without failing a claim', async () => {
      let t = Date.now();
      const store = createPgReplayStore(db().knex, { now: () => t, sweepEveryMs: 1_000 });
      const old = id('old');
      await store.claimOnce(old, new Date(t + 10));
      t += 5_000;
      expect(await store.claimOnce(id('new'), new Date(t + 60_000))).to.equal(true);
      for (let i = 0; i < 50 && (await db().knex('challenge_claims').where({ id: old }).first()); i++) await new Promise((r) => setTimeout(r, 20));
      expect(await db().knex('challenge_claims').where({ id: old }).first()).to.equal(undefined);
    });
  });
});
