import { expect } from 'chai';
import { createSlotQueue } from '../../../adapters/browser/slot-queue.js';

/** A job whose promise the test settles. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('createSlotQueue', () => {
  it('runs at most the limit at once, in push order, and starts the next before handing an outcome on', async () => {
    const log: string[] = [];
    const jobs = new Map<string, ReturnType<typeof deferred<string>>>();
    const q = createSlotQueue<string, string>((item) => {
      log.push(`start ${item}`);
      const d = deferred<string>();
      jobs.set(item, d);
      return d.promise;
    }, (item, outcome) => { log.push(`done ${item}`); void outcome.then((v) => log.push(`value ${v}`)); });
    q.limit(2);
    for (const item of ['a', 'b', 'c', 'd']) q.push(item);
    expect(log).to.deep.equal(['start a', 'start b']);
    expect(q.running).to.equal(2);
    jobs.get('b')!.resolve('B');
    await tick();
    expect(log).to.deep.equal(['start a', 'start b', 'start c', 'done b', 'value B']);
    jobs.get('a')!.reject(new Error('failed'));
    await tick();
    expect(log.slice(5)).to.deep.equal(['start d', 'done a']);
    expect(q.running).to.equal(2);
  });

  it('starts what a raised limit allows, and gives back the items not started', () => {
    const started: number[] = [];
    const q = createSlotQueue<number, void>((n) => { started.push(n); return new Promise<void>(() => undefined); }, () => undefined);
    q.limit(0);
    for (const n of [1, 2, 3, 4]) q.push(n);
    expect(started).to.deep.equal([]);
    q.limit(1);
    expect(started).to.deep.equal([1]);
    expect(q.take()).to.deep.equal([2, 3, 4]);
    q.limit(Infinity);
    expect(started).to.deep.equal([1]);
    expect(q.running).to.equal(1);
  });
});
