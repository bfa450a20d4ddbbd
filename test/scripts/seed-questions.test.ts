import { expect } from 'chai';
import { seedQuestions } from '../../scripts/seed-questions.js';
import type { Platform } from '../../server/platform.js';
import { sharedPglite } from '../support/databases.js';
import { createTestPlatform, seedOrg } from '../support/platform.js';

/** The insights benchmark's seeder (bench/insights.bench.ts) on the embedded database, at a small count. */
describe('scripts/seed-questions', function () {
  this.timeout(60_000);
  let platform: Platform;
  before(async () => {
    platform = await createTestPlatform({ database: await sharedPglite() });
  });
  after(async () => {
    await platform?.close();
  });

  it('writes the asked number of questions ending in "?", with the summaries kept by the triggers', async () => {
    const org = await seedOrg(platform, 'seed-questions');
    const knex = platform.database.knex;
    const progress: number[] = [];
    await seedQuestions(platform.database, { orgId: org.orgId, keyId: null, count: 1_500, onProgress: (n) => progress.push(n) });
    const rows = await knex('question_log').where({ org_id: org.orgId }).select('question', 'outcome');
    expect(rows).to.have.length(1_500);
    expect(progress).to.deep.equal([1_500]);
    expect(rows.every((r: { question: string }) => /^[A-Z].* product \d+\?$/.test(r.question))).to.equal(true);
    expect(new Set(rows.map((r: { outcome: string }) => r.outcome))).to.have.all.keys('answered', 'refused', 'error');
    const grouped = await knex('question_groups').where({ org_id: org.orgId }).sum<{ n: string }[]>({ n: 'total' });
    expect(Number(grouped[0]!.n)).to.equal(1_500);
  });
});
