import { expect } from 'chai';
import request from 'supertest';
import type { UsageEvent } from '../../../core/ports/usage-store.port.js';
import type { Platform } from '../../../server/platform.js';
import { resolve } from '../../../server/tokens.js';
import { sharedPglite } from '../../support/databases.js';
import { createTestPlatform, seedOrg, type SeededOrg } from '../../support/platform.js';
import { newId } from '../../../server/ids.js';

describe('usageRoutes', () => {
  let platform: Platform;
  let org: SeededOrg;
  let keyA: string;
  let keyB: string;
  const api = () => request(platform.app.callback());
  const get = (query: string, token = org.members.viewer.token) => api().get(`/v1/usage${query}`).set('authorization', `Bearer ${token}`);

  // Seeded rows: [day, key, mode, model, input, output, refused]
  const ROWS: Array<[string, 'A' | 'B' | null, 'remote' | 'local', string, number, number, boolean]> = [
    ['2026-03-01T00:00:00.000Z', 'A', 'remote', 'extractive', 100, 20, false],
    ['2026-03-01T23:59:59.999Z', 'A', 'remote', 'extractive', 50, 0, true],
    ['2026-03-02T10:00:00.000Z', 'B', 'remote', 'gpt-4o-mini', 300, 80, false],
    ['2026-03-02T11:00:00.000Z', 'B', 'local', 'small', 0, 0, true],
    ['2026-03-03T09:00:00.000Z', null, 'remote', 'gpt-4o-mini', 10, 5, false],
    ['2026-03-05T00:00:00.000Z', 'A', 'remote', 'extractive', 7, 7, false], // outside [03-01, 03-04)
  ];

  before(async function () {
    this.timeout(180_000);
    platform = await createTestPlatform({ database: await sharedPglite() });
    org = await seedOrg(platform, 'usage');
    const other = await seedOrg(platform, 'usage-other');
    const keys = resolve(platform.container, 'KeyService');
    const owner = { kind: 'member' as const, userId: org.members.owner.userId, orgId: org.orgId, role: 'owner' as const };
    const a = await keys.create(owner, 'publishable', { name: 'A' });
    const b = await keys.create(owner, 'secret', { name: 'B' });
    if (!a.ok || !b.ok) throw new Error('keys');
    keyA = a.value.key.id;
    keyB = b.value.key.id;
    const usage = resolve(platform.container, 'UsageService');
    const event = (orgId: string, row: (typeof ROWS)[number]): UsageEvent => ({
      orgId,
      keyId: row[1] === 'A' ? keyA : row[1] === 'B' ? keyB : null,
      createdAt: new Date(row[0]),
      mode: row[2],
      model: row[3],
      inputTokens: row[4],
      outputTokens: row[5],
      refused: row[6],
      requestId: newId('req'),
    });
    for (const row of ROWS) expect(await usage.record(event(org.orgId, row))).to.equal('recorded');
    // another organisation's usage in the same window must not show up
    for (const row of ROWS) await usage.record({ ...event(other.orgId, row), keyId: null });
  });
  after(() => platform.close());

  const range = '?from=2026-03-01&to=2026-03-04';

  it('totals a range, refusals included, for every role', async () => {
    for (const member of Object.values(org.members)) {
      const res = await get(range, member.token);
      expect(res.status).to.equal(200);
      expect(res.body.total).to.deep.equal({ requests: 5, input_tokens: 460, output_tokens: 105, refusals: 2 });
      expect(res.body.from).to.equal('2026-03-01T00:00:00.000Z');
      expect(res.body.to).to.equal('2026-03-04T00:00:00.000Z');
    }
  });

  it('breaks down by UTC day (the default)', async () => {
    const res = await get(range);
    expect(res.body.group_by).to.equal('day');
    expect(res.body.breakdown).to.deep.equal([
      { day: '2026-03-01', requests: 2, input_tokens: 150, output_tokens: 20, refusals: 1 },
      { day: '2026-03-02', requests: 2, input_tokens: 300, output_tokens: 80, refusals: 1 },
      { day: '2026-03-03', requests: 1, input_tokens: 10, output_tokens: 5, refusals: 0 },
    ]);
  });

  it('breaks down by key, model and mode', async () => {
    const byKey = (await get(`${range}&group_by=key`)).body.breakdown;
    const keyRow = (id: string | null) => byKey.find((r: { key_id: string | null }) => r.key_id === id);
    expect(keyRow(keyA)).to.include({ requests: 2, input_tokens: 150, refusals: 1 });
    expect(keyRow(keyB)).to.include({ requests: 2, input_tokens: 300, refusals: 1 });
    expect(keyRow(null)).to.include({ requests: 1 });
    expect((await get(`${range}&group_by=model`)).body.breakdown).to.deep.equal([
      { model: 'extractive', requests: 2, input_tokens: 150, output_tokens: 20, refusals: 1 },
      { model: 'gpt-4o-mini', requests: 2, input_tokens: 310, output_tokens: 85, refusals: 0 },
      { model: 'small', requests: 1, input_tokens: 0, output_tokens: 0, refusals: 1 },
    ]);
    expect((await get(`${range}&group_by=mode`)).body.breakdown).to.deep.equal([
      { mode: 'local', requests: 1, input_tokens: 0, output_tokens: 0, refusals: 1 },
      { mode: 'remote', requests: 4, input_tokens: 460, output_tokens: 105, refusals: 1 },
    ]);
  });

  it('treats to as exclusive and accepts date-times', async () => {
    const res = await get('?from=2026-03-01T00:00:00Z&to=2026-03-01T23:59:59.999Z');
    expect(res.body.total.requests).to.equal(1);
  });

  it('answers an empty report for an organization without usage', async () => {
    const fresh = await seedOrg(platform, 'usage-empty');
    const res = await get('', fresh.members.owner.token);
    expect(res.status).to.equal(200);
    expect(res.body.total).to.deep.equal({ requests: 0, input_tokens: 0, output_tokens: 0, refusals: 0 });
    expect(res.body.breakdown).to.deep.equal([]);
    const to = Date.parse(res.body.to);
    expect(Date.parse(res.body.from)).to.equal(Math.floor(to / 86400_000) * 86400_000 - 30 * 86400_000); // a midnight
  });

  it("counts today's rows, rolled up or not, in a report that reaches the present, and none after a past to", async () => {
    const fresh = await seedOrg(platform, 'usage-today');
    const usage = resolve(platform.container, 'UsageService');
    const now = Date.now();
    const at = (msAgo: number, inputTokens: number): UsageEvent => ({ orgId: fresh.orgId, keyId: null, mode: 'remote', model: 'm', inputTokens, outputTokens: 0, refused: false, requestId: newId('req'), createdAt: new Date(now - msAgo) });
    const dayStart = Math.floor(now / 86400_000) * 86400_000;
    const ago = Math.min(60_000, now - dayStart); // today, even just after midnight
    await usage.record(at(ago, 1));
    await usage.rollUp();
    await usage.record(at(ago / 2, 10)); // not rolled up yet
    const tokens = async (q: string) => ((await get(q, fresh.members.owner.token)).body as { total: { input_tokens: number } }).total.input_tokens;
    expect(await tokens('')).to.equal(11);
    expect(await tokens('?group_by=key')).to.equal(11);
    expect(await tokens(`?to=${new Date(now + 3_600_000).toISOString()}`)).to.equal(11);
    // A past `to` inside today stays exact: the later row is left out.
    expect(await tokens(`?from=${new Date(dayStart).toISOString()}&to=${new Date(now - ago / 2).toISOString()}`)).to.equal(1);
  });

  it('refuses bad ranges and groupings with invalid_request', async () => {
    for (const q of ['?from=2026-03-04&to=2026-03-01', '?from=2024-01-01&to=2026-01-01', '?group_by=week', '?from=yesterday', '?from=2026-02-30', '?to=2026-03-01T00:00:00']) {
      const res = await get(q);
      expect(res.status, q).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_request');
    }
  });

  it('records each request id once', async () => {
    const usage = resolve(platform.container, 'UsageService');
    const event: UsageEvent = { orgId: org.orgId, keyId: keyA, mode: 'remote', model: 'x', inputTokens: 1, outputTokens: 1, refused: false, requestId: newId('req'), createdAt: new Date('2026-03-10T00:00:00Z') };
    expect(await usage.record(event)).to.equal('recorded');
    expect(await usage.record({ ...event, inputTokens: 999 })).to.equal('duplicate');
    expect((await get('?from=2026-03-10&to=2026-03-11')).body.total.input_tokens).to.equal(1);
  });
});
