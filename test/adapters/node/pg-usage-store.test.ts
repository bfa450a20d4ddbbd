import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { migrateToLatest } from '../../../adapters/node/migrations/index.js';
import { createPgUsageStore } from '../../../adapters/node/pg-usage-store.js';
import type { UsageGroupBy } from '../../../core/ports/usage-store.port.js';
import { newId } from '../../../server/ids.js';
import { seedScale } from '../../../scripts/seed-scale.js';
import { describeOnEachDatabase } from '../../support/databases.js';

const GROUPS: readonly UsageGroupBy[] = ['day', 'key', 'model', 'mode'];
const DAY = 86_400_000;

describe('createPgUsageStore', () => {
  describeOnEachDatabase('reports from daily rollups', (db) => {
    before(async () => {
      await migrateToLatest(db().knex);
    });

    /** The report computed the slow way, straight from the rows. */
    async function fromRows(orgId: string, from: Date, to: Date, groupBy: UsageGroupBy) {
      const expr = { day: "to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')", key: 'key_id', model: 'model', mode: 'mode' }[groupBy];
      const { rows } = (await db().knex.raw(
        `select ${expr} as grp, count(*)::int8 as requests, sum(input_tokens)::int8 as i, sum(output_tokens)::int8 as o, count(*) filter (where refused)::int8 as r
           from usage_events where org_id = ? and state <> 'reserved' and created_at >= ? and created_at < ? group by 1 order by 1 nulls first`,
        [orgId, from, to],
      )) as { rows: Array<{ grp: string | null; requests: number; i: number; o: number; r: number }> };
      return rows.map((r) => ({ group: r.grp, requests: Number(r.requests), inputTokens: Number(r.i), outputTokens: Number(r.o), refusals: Number(r.r) }));
    }

    it('answers every breakdown exactly as the rows say, before, during and after the rollup, for ranges cutting days anywhere', async () => {
      const knex = db().knex;
      const store = createPgUsageStore(knex);
      const orgId = newId('org');
      await knex('organizations').insert({ id: orgId, name: 'report', tier: 'free', created_at: new Date() });
      const keys = [newId('key'), newId('key')];
      for (const id of keys) await knex('api_keys').insert({ id, org_id: orgId, kind: 'secret', name: 'k', prefix: 'kit_sec_', last4: 'abcd', hash: id, created_at: new Date() });
      const start = Date.UTC(2026, 1, 10); // rows over 75 days: whole months, and months mostly or barely inside a range
      const rows = Array.from({ length: 400 }, (_, i) => ({
        org_id: orgId, key_id: i % 5 === 0 ? null : keys[i % 2]!, mode: i % 3 ? 'remote' : 'local', model: i % 4 ? 'extractive' : 'm2',
        input_tokens: i, output_tokens: i % 7, refused: i % 9 === 0, request_id: newId('req'), created_at: new Date(start + ((i * 16_127_003) % (75 * DAY))),
        state: i % 37 === 0 ? 'reserved' : 'settled',
      }));
      await knex('usage_events').insert(rows.slice(0, 250));
      await store.rollUp();
      await knex('usage_events').insert(rows.slice(250)); // not rolled yet
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: -5 * DAY, max: 70 * DAY }), fc.integer({ min: 1, max: 80 * DAY }), fc.constantFrom(...GROUPS), async (offset, length, groupBy) => {
          const from = new Date(start + offset);
          const to = new Date(from.getTime() + length);
          const report = await store.summarize(orgId, { from, to, groupBy });
          expect(report.breakdown).to.deep.equal(await fromRows(orgId, from, to, groupBy));
        }),
        { numRuns: 60, seed: 1234 },
      );
      expect(await store.rollUp()).to.equal(150 - rows.slice(250).filter((r) => r.state === 'reserved').length);
      for (const groupBy of GROUPS) {
        const from = new Date(start + 3_600_000);
        const to = new Date(start + 70 * DAY + 1);
        expect((await store.summarize(orgId, { from, to, groupBy })).breakdown).to.deep.equal(await fromRows(orgId, from, to, groupBy));
      }
    });

    it('reports a seeded organisation of npm run seed:scale exactly (small scale)', async () => {
      const seed = await seedScale(db(), { rows: 3_000, keys: 50 });
      const store = createPgUsageStore(db().knex);
      const now = new Date();
      const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      for (const groupBy of GROUPS) expect((await store.summarize(seed.orgId, { from, to, groupBy })).breakdown).to.deep.equal(await fromRows(seed.orgId, from, to, groupBy));
      const total = (await store.summarize(seed.orgId, { from, to, groupBy: 'mode' })).total;
      expect(total.requests).to.equal(3_000);
      const keys = await db().knex('api_keys').where({ org_id: seed.orgId }).count<{ n: number }[]>('* as n');
      expect(Number(keys[0]!.n)).to.equal(50);
    });
  });
});

describe('ensureUsagePartitions', () => {
  describeOnEachDatabase('monthly partitions', (db, target) => {
    it('creates the coming months ahead of time on PostgreSQL (PGlite keeps one table)', async () => {
      const { ensureUsagePartitions, partitionName } = await import('../../../adapters/node/migrations/0004-usage-partitions.js');
      await migrateToLatest(db().knex);
      const later = new Date(Date.UTC(2031, 4, 15));
      const created = await ensureUsagePartitions(db().knex, later, 1, later);
      if (target.name === 'pglite') {
        expect(created).to.deep.equal([]);
        return;
      }
      expect(created).to.deep.equal([partitionName(new Date(Date.UTC(2031, 4, 1))), partitionName(new Date(Date.UTC(2031, 5, 1)))]);
      expect(await ensureUsagePartitions(db().knex, later, 1, later)).to.deep.equal([]); // idempotent
      const orgId = newId('org');
      await db().knex('organizations').insert({ id: orgId, name: 'partitions', tier: 'free', created_at: new Date() });
      await db().knex('usage_events').insert({ org_id: orgId, key_id: null, mode: 'remote', model: 'm', input_tokens: 1, output_tokens: 1, refused: false, request_id: newId('req'), created_at: new Date(Date.UTC(2031, 4, 20)) });
      const { rows } = await db().knex.raw('select tableoid::regclass::text as part from usage_events where org_id = ?', [orgId]);
      expect(rows).to.deep.equal([{ part: 'usage_events_y2031m05' }]);
    });
  });
});
