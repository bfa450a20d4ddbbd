import { expect } from 'chai';
import { createMemoryReplayStore } from '../../../adapters/node/memory-replay-store.js';

describe('createMemoryReplayStore', () => {
  it('claims an id once when it is claimed twice before it expires', async () => {
    const store = createMemoryReplayStore();
    const until = new Date(Date.now() + 60_000);
    expect(await store.claimOnce('a', until)).to.equal(true);
    expect(await store.claimOnce('a', until)).to.equal(false);
    expect(await store.claimOnce('b', until)).to.equal(true);
  });

  it('gives exactly one winner when many claims of one id race', async () => {
    const store = createMemoryReplayStore();
    const until = new Date(Date.now() + 60_000);
    const results = await Promise.all(Array.from({ length: 50 }, () => store.claimOnce('x', until)));
    expect(results.filter(Boolean)).to.have.length(1);
  });

  it('sweeps expired claims when it grows past its bound', async () => {
    let t = 1_000;
    const store = createMemoryReplayStore({ now: () => t, sweepAbove: 10 });
    for (let i = 0; i < 10; i++) await store.claimOnce(`old${i}`, new Date(2_000));
    t = 3_000;
    await store.claimOnce('new', new Date(10_000));
    expect(store.size).to.equal(1);
  });
});
