import { expect } from 'chai';
import { KitError } from '../../core/errors/index.js';
import { replayQueue } from '../../sdk/queue.js';
import type { KitInstance } from '../../sdk/types.js';

/** Calls as the snippet's stub records them (server/routes/sdk-files.ts QUEUE_STUB). */
function stubCalls(): { stub: Record<string, unknown>; queue: unknown[]; settled: Promise<[string, string, unknown]>[] } {
  const stub: Record<string, unknown> = {};
  const queue: unknown[] = [[stub, 'init', [{ apiKey: 'bad' }]]];
  const settled: Promise<[string, string, unknown]>[] = [];
  for (const method of ['on', 'open', 'ask', 'feedback', 'destroy']) {
    settled.push(new Promise<unknown>((resolve, reject) => queue.push([stub, method, [], resolve, reject])).then((v) => [method, 'resolved', v], (e) => [method, 'rejected', e]));
  }
  return { stub, queue, settled };
}

describe('replayQueue (the pre-load stub)', () => {
  it('reports a failed init once: a queued question or vote fails with its reason, other calls do nothing', async () => {
    const { queue, settled } = stubCalls();
    const bad = new KitError('invalid_config', "mode must be 'auto', 'local' or 'remote'.");
    const logged: unknown[] = [];
    const error = console.error;
    console.error = (e: unknown) => { logged.push(e); };
    try {
      replayQueue(queue, () => { throw bad; });
      const results = await Promise.all(settled);
      expect(logged).to.deep.equal([bad]);
      expect(results).to.deep.equal([['on', 'resolved', undefined], ['open', 'resolved', undefined], ['ask', 'rejected', bad], ['feedback', 'rejected', bad], ['destroy', 'resolved', undefined]]);
    } finally {
      console.error = error;
    }
  });

  it('still runs queued calls on the instance a good init made', async () => {
    const { stub, queue, settled } = stubCalls();
    const calls: string[] = [];
    const inst = Object.fromEntries(['on', 'open', 'ask', 'feedback', 'destroy'].map((m) => [m, () => { calls.push(m); return m; }])) as unknown as KitInstance;
    for (const m of ['on', 'open', 'ask', 'feedback', 'destroy']) stub[m] = () => undefined;
    replayQueue(queue, () => inst);
    expect((await Promise.all(settled)).map(([m, how, v]) => `${m} ${how} ${String(v)}`)).to.deep.equal(['on resolved on', 'open resolved open', 'ask resolved ask', 'feedback resolved feedback', 'destroy resolved destroy']);
    expect(calls).to.deep.equal(['on', 'open', 'ask', 'feedback', 'destroy']);
  });
});
