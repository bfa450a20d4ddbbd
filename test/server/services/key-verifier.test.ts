import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import type { Knex } from 'knex';
import { BASE62, parseKey } from '../../../core/keys/key-format.js';
import type { Platform } from '../../../server/platform.js';
import type { KeyVerifier } from '../../../server/services/key-verifier.js';
import { resolve } from '../../../server/tokens.js';
import { sharedPglite } from '../../support/databases.js';
import { createTestPlatform, seedOrg, testClock, type SeededOrg, type TestClock } from '../../support/platform.js';
import type { MemberAuth } from '../../../server/auth/auth-context.js';

/** Counts every SQL statement knex sends while `fn` runs. */
async function countQueries(knex: Knex, fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (q: { sql: string }) => seen.push(q.sql);
  knex.on('query', listener);
  try {
    await fn();
  } finally {
    knex.off('query', listener);
  }
  return seen;
}

describe('KeyVerifier', () => {
  let platform: Platform;
  let replica: Platform;
  let clock: TestClock;
  let org: SeededOrg;
  let owner: MemberAuth;
  let verifier: KeyVerifier;
  let knex: Knex;

  before(async function () {
    this.timeout(180_000);
    const database = await sharedPglite();
    clock = testClock();
    const env = { KIT_KEY_CACHE_TTL_MS: '5000', KIT_LAST_USED_FLUSH_MS: '3600000', KIT_PLAN_LIMITS: JSON.stringify({ free: { max_keys: 10_000 } }) };
    platform = await createTestPlatform({ database, clock, env });
    replica = await createTestPlatform({ database, clock, env }); // a second server sharing the database
    org = await seedOrg(platform, 'verifier');
    owner = { kind: 'member', userId: org.members.owner.userId, orgId: org.orgId, role: 'owner' };
    verifier = resolve(platform.container, 'KeyVerifier');
    knex = platform.database.knex;
  });
  after(async () => {
    await platform.close();
    await replica.close();
  });

  async function newKey(kind: 'publishable' | 'secret' = 'secret'): Promise<{ id: string; value: string }> {
    const issued = await resolve(platform.container, 'KeyService').create(owner, kind, { name: 'verifier test' });
    if (!issued.ok) throw new Error(issued.reason);
    return { id: issued.value.key.id, value: issued.value.secret };
  }

  it('refuses keys with a wrong prefix, shape or checksum without any database query', async () => {
    const { value } = await newKey();
    const malformed = fc.oneof(
      // one character of a real key changed: the CRC32 catches it (filtered in the rare case it does not)
      fc.tuple(fc.integer({ min: 8, max: value.length - 1 }), fc.constantFrom(...BASE62)).map(([i, c]) => value.slice(0, i) + c + value.slice(i + 1)),
      fc.string({ maxLength: 60 }),
      fc.stringMatching(/^kit_(pub|sec)_[0-9A-Za-z]{30,40}$/),
    ).filter((k) => !parseKey(k).ok);
    const samples = fc.sample(malformed, 300);
    const queries = await countQueries(knex, async () => {
      for (const key of samples) expect((await verifier.verify(key)).ok).to.equal(false);
    });
    expect(queries).to.deep.equal([]);
  });

  it('looks a valid key up once and serves repeats from the cache within the bound', async () => {
    const { value, id } = await newKey('publishable');
    const first = await countQueries(knex, async () => {
      const r = await verifier.verify(value);
      expect(r.ok && r.value.id).to.equal(id);
    });
    expect(first).to.have.length(1);
    const repeats = await countQueries(knex, async () => {
      for (let i = 0; i < 20; i++) expect((await verifier.verify(value)).ok).to.equal(true);
    });
    expect(repeats).to.deep.equal([]);
    clock.advance(5_001);
    expect(await countQueries(knex, () => verifier.verify(value))).to.have.length(1);
  });

  it('stops a deleted key at once on the replica that deleted it', async () => {
    const { value, id } = await newKey();
    expect((await verifier.verify(value)).ok).to.equal(true); // now cached
    const removed = await resolve(platform.container, 'KeyService').remove(owner, id);
    expect(removed.ok).to.equal(true);
    expect((await verifier.verify(value)).ok).to.equal(false);
  });

  it('stops a key deleted on another replica within the 5 s cache bound, never later', async () => {
    const { value, id } = await newKey();
    const other = resolve(replica.container, 'KeyVerifier');
    expect((await other.verify(value)).ok).to.equal(true); // cached on the replica
    expect((await resolve(platform.container, 'KeyService').remove(owner, id)).ok).to.equal(true);
    clock.advance(4_000);
    expect((await other.verify(value)).ok, 'within the bound, from the cache').to.equal(true);
    clock.advance(1_001);
    expect((await other.verify(value)).ok, 'after the bound').to.equal(false);
  });

  it('accepts a rotated key until its grace period ends, even from the cache', async () => {
    const { value, id } = await newKey();
    expect((await verifier.verify(value)).ok).to.equal(true);
    const rotated = await resolve(platform.container, 'KeyService').rotate(owner, id, 60);
    expect(rotated.ok).to.equal(true);
    expect((await verifier.verify(value)).ok).to.equal(true);
    clock.advance(30_000);
    expect((await verifier.verify(value)).ok).to.equal(true);
    clock.advance(30_001);
    expect((await verifier.verify(value)).ok).to.equal(false);
    if (rotated.ok) expect((await verifier.verify(rotated.value.secret)).ok).to.equal(true);
  });

  it('refuses a key rotated without grace at once', async () => {
    const { value, id } = await newKey();
    expect((await verifier.verify(value)).ok).to.equal(true);
    expect((await resolve(platform.container, 'KeyService').rotate(owner, id, 0)).ok).to.equal(true);
    expect((await verifier.verify(value)).ok).to.equal(false);
  });

  it('records last use in one batched write instead of one per request', async () => {
    const a = await newKey();
    const b = await newKey('publishable');
    const tracker = resolve(platform.container, 'LastUsedTracker');
    await tracker.flush();
    clock.advance(10_000);
    const during = await countQueries(knex, async () => {
      for (let i = 0; i < 25; i++) {
        if ((await verifier.verify(a.value)).ok) verifier.used(a.id);
        if ((await verifier.verify(b.value)).ok) verifier.used(b.id);
      }
    });
    expect(during.filter((sql) => /^update/i.test(sql))).to.deep.equal([]);
    const flushed = await countQueries(knex, () => tracker.flush());
    expect(flushed.filter((sql) => /^update/i.test(sql))).to.have.length(1);
    const rows = await knex('api_keys').whereIn('id', [a.id, b.id]).select('id', 'last_used_at');
    for (const row of rows) expect(new Date(row.last_used_at).getTime()).to.equal(clock.now().getTime());
  });
});
