/** Items run at most `limit` at once, in the order they were pushed (createSlotQueue). */
export interface SlotQueue<T> {
  /** Queues `item`; it starts at once when a slot is free. */
  push(item: T): void;
  /** At most `n` at once from now on (Infinity until called); starts what the new limit allows. */
  limit(n: number): void;
  /** Removes and returns the items not started yet, in order. */
  take(): T[];
  /** How many run now. */
  readonly running: number;
}

/**
 * A queue of requests with a limited number of slots, shared by the crawl's worker (sdk/crawl-worker.ts) and its
 * main-thread fallback (adapters/browser/worker-page-fetcher.ts). `start` begins an item's work and returns its
 * promise; when it settles, the slot goes to the next item, which starts before `done` hands the outcome on (its
 * continuation on the page's busy main thread must not hold the next request back: issue 12 §7).
 */
export function createSlotQueue<T, R>(start: (item: T) => Promise<R>, done: (item: T, outcome: Promise<R>) => void): SlotQueue<T> {
  const held: T[] = [];
  let max = Infinity;
  let running = 0;
  const pump = () => {
    while (running < max && held.length > 0) {
      const item = held.shift()!;
      running++;
      const outcome = start(item);
      const free = () => { running--; pump(); done(item, outcome); };
      void outcome.then(free, free);
    }
  };
  return {
    push(item) { held.push(item); pump(); },
    limit(n) { max = n; pump(); },
    take: () => held.splice(0),
    get running() { return running; },
  };
}
