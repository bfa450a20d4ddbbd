import { expect } from 'chai';
import { createPgRateLimiter } from '../../../adapters/node/pg-rate-limiter.js';
import { sharedPglite } from '../../support/databases.js';

describe('createPgRateLimiter', () => {
  const bucket = () => `test:${Math.random().toString(36).slice(2)}`;
  const at = (iso: string) => new Date(iso);

  it('counts hits in a fixed window and refuses past the limit until the next window', async function () {
    this.timeout(180_000);
    const limiter = createPgRateLimiter((await sharedPglite()).knex);
    const b = bucket();
    const states = [];
    for (let i = 0; i < 4; i++) states.push(await limiter.hit(b, 3, 60, at('2026-05-01T10:00:10Z')));
    expect(states.map((s) => s.allowed)).to.deep.equal([true, true, true, false]);
    expect(states.map((s) => s.remaining)).to.deep.equal([2, 1, 0, 0]);
    expect(states[3]!.resetAt.toISOString()).to.equal('2026-05-01T10:01:00.000Z');
    expect((await limiter.peek(b, 3, 60, at('2026-05-01T10:00:59Z'))).allowed).to.equal(false);
    const next = await limiter.hit(b, 3, 60, at('2026-05-01T10:01:00Z'));
    expect(next).to.include({ allowed: true, count: 1 });
  });

  it('peeks without counting', async () => {
    const limiter = createPgRateLimiter((await sharedPglite()).knex);
    const b = bucket();
    for (let i = 0; i < 5; i++) expect((await limiter.peek(b, 2, 60, at('2026-05-01T10:00:00Z'))).count).to.equal(0);
    await limiter.hit(b, 2, 60, at('2026-05-01T10:00:00Z'));
    expect(await limiter.peek(b, 2, 60, at('2026-05-01T10:00:30Z'))).to.include({ count: 1, allowed: true, remaining: 1 });
  });

  it('takes back one hit of the same window with undo, never below zero', async () => {
    const limiter = createPgRateLimiter((await sharedPglite()).knex);
    const b = bucket();
    const t = at('2026-05-01T10:00:10Z');
    await limiter.hit(b, 2, 60, t);
    await limiter.hit(b, 2, 60, t);
    await limiter.undo(b, 60, t);
    expect(await limiter.peek(b, 2, 60, t)).to.include({ count: 1, allowed: true });
    await limiter.undo(b, 60, t);
    await limiter.undo(b, 60, t);
    expect((await limiter.peek(b, 2, 60, t)).count).to.equal(0);
    await limiter.undo(bucket(), 60, t); // a bucket never hit: nothing to take back, no error
  });

  it('shares counts between limiters on the same database (replicas)', async () => {
    const knex = (await sharedPglite()).knex;
    const [a, b] = [createPgRateLimiter(knex), createPgRateLimiter(knex)];
    const key = bucket();
    await a.hit(key, 2, 60, at('2026-05-01T10:00:00Z'));
    await b.hit(key, 2, 60, at('2026-05-01T10:00:01Z'));
    expect((await a.hit(key, 2, 60, at('2026-05-01T10:00:02Z'))).allowed).to.equal(false);
  });

  it('deletes expired windows as it goes', async () => {
    const knex = (await sharedPglite()).knex;
    const limiter = createPgRateLimiter(knex, { cleanupEveryMs: 0 });
    const old = bucket();
    await limiter.hit(old, 5, 60, at('2020-01-01T00:00:00Z'));
    await limiter.hit(bucket(), 5, 60, at('2026-05-01T10:00:00Z'));
    expect(await knex('rate_limits').where({ bucket: old }).first()).to.equal(undefined);
  });
});
