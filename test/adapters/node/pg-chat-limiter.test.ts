import { expect } from 'chai';
import { migrateToLatest } from '../../../adapters/node/migrations/index.js';
import { createPgChatLimiter, monthOf } from '../../../adapters/node/pg-chat-limiter.js';
import { createPgUsageStore } from '../../../adapters/node/pg-usage-store.js';
import { newId } from '../../../server/ids.js';
import { describeOnEachDatabase } from '../../support/databases.js';

describe('createPgChatLimiter', () => {
  describeOnEachDatabase('counts', (db) => {
    let orgId: string;
    before(async () => {
      await migrateToLatest(db().knex);
      orgId = newId('org');
      await db().knex('organizations').insert({ id: orgId, name: 'limiter', tier: 'free', created_at: new Date() });
    });

    it('counts the key and the session in the same one-minute window and resets in the next', async () => {
      const limiter = createPgChatLimiter(db().knex);
      const keyId = newId('key');
      const at = new Date('2026-03-01T12:00:10Z');
      const first = await limiter.count({ orgId, keyId, sessionId: 's1', now: at });
      const second = await limiter.count({ orgId, keyId, sessionId: 's2', now: new Date('2026-03-01T12:00:59Z') });
      const other = await limiter.count({ orgId, keyId, sessionId: 's1', now: new Date('2026-03-01T12:00:30Z') });
      expect([first.keyCount, second.keyCount, other.keyCount]).to.deep.equal([1, 2, 3]);
      expect([first.sessionCount, second.sessionCount, other.sessionCount]).to.deep.equal([1, 1, 2]);
      expect(first.windowResetAt.toISOString()).to.equal('2026-03-01T12:01:00.000Z');
      const next = await limiter.count({ orgId, keyId, sessionId: null, now: new Date('2026-03-01T12:01:00Z') });
      expect(next.keyCount).to.equal(1);
      expect(next.sessionCount).to.equal(null);
    });

    it('never admits two requests into one slot when many race from several replicas', async () => {
      const keyId = newId('key');
      const now = new Date();
      const limiters = [createPgChatLimiter(db().knex), createPgChatLimiter(db().knex)];
      const counts = await Promise.all(Array.from({ length: 30 }, (_, i) => limiters[i % 2]!.count({ orgId, keyId, sessionId: null, now })));
      expect(counts.map((c) => c.keyCount).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 30 }, (_, i) => i + 1));
    });

    it("reads the organization's tokens of the current month, kept by the usage trigger (duplicates not counted twice)", async () => {
      const org = newId('org');
      await db().knex('organizations').insert({ id: org, name: 'quota', tier: 'free', created_at: new Date() });
      const usage = createPgUsageStore(db().knex);
      const limiter = createPgChatLimiter(db().knex);
      const event = (requestId: string, createdAt: string, input: number, output: number) =>
        usage.record({ orgId: org, keyId: null, mode: 'remote', model: 'm', inputTokens: input, outputTokens: output, refused: false, requestId, createdAt: new Date(createdAt) });
      const r1 = newId('req');
      await event(r1, '2026-02-28T23:59:59Z', 1000, 1000); // last month
      await event(newId('req'), '2026-03-01T00:00:00Z', 100, 20);
      await event(r1, '2026-03-02T00:00:00Z', 100, 20); // duplicate request id: ignored
      await event(newId('req'), '2026-03-31T23:59:59Z', 7, 3);
      const march = await limiter.count({ orgId: org, keyId: newId('key'), sessionId: null, now: new Date('2026-03-15T00:00:00Z') });
      expect(march.tokensThisMonth).to.equal(130);
      const april = await limiter.count({ orgId: org, keyId: newId('key'), sessionId: null, now: new Date('2026-04-01T00:00:00Z') });
      expect(april.tokensThisMonth).to.equal(0);
      const row = await db().knex('usage_monthly').where({ org_id: org, month: monthOf(new Date('2026-03-09T00:00:00Z')) }).first();
      expect(Number(row.requests)).to.equal(2);
    });
  });
});
