/**
 * Hands the main thread back to the page between slices of Kit's work (issue 12 goal 6: no long task over 50 ms),
 * so input, rendering and the page's own scripts run between them. `scheduler.yield()` where the browser has it
 * (the continuation keeps its priority); elsewhere a MessageChannel task — not `setTimeout(0)`, which is clamped
 * after nesting and throttled to once a second in background tabs, where a crawl may well be running.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return yieldBehindTasks();
}

/**
 * Yields like {@link yieldToMain}, but the continuation runs behind the tasks already queued, as a new task would
 * (a MessageChannel task; `scheduler.yield()`'s continuation instead runs ahead of them). The site crawl's extraction
 * yields so: a worker's response that arrived meanwhile is handled first, and its request slot refilled at once,
 * instead of waiting for every page queued for the extractor (sdk/site-context.ts).
 */
export function yieldBehindTasks(): Promise<void> {
  if (typeof MessageChannel === 'function') {
    // One channel for every yield, its messages answered in order: a channel per yield cost a pair of message pipes
    // created and closed for every crawled page.
    if (!behind) {
      const channel = new MessageChannel();
      const waiting: (() => void)[] = [];
      channel.port1.onmessage = () => waiting.shift()?.();
      // Node's ports keep its event loop alive while open: this one must not.
      (channel.port1 as { unref?: () => void }).unref?.();
      behind = { port: channel.port2, waiting };
    }
    const { port, waiting } = behind;
    return new Promise((resolve) => {
      waiting.push(resolve);
      port.postMessage(null);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}
let behind: { readonly port: MessagePort; readonly waiting: (() => void)[] } | null = null;

/** Milliseconds of work a slice may take before {@link TimeSlicer.next} yields: well under the 50 ms of a long task. */
export const SLICE_MS = 12;

/** Yields only once `sliceMs` have passed since the last yield: cheap to call in a loop over many small items. */
export interface TimeSlicer {
  /** Resolves at once while the slice has time left; otherwise yields to the main thread first. */
  next(): Promise<void>;
}

export function createTimeSlicer(sliceMs = SLICE_MS, now: () => number = () => performance.now()): TimeSlicer {
  let start = now();
  return {
    async next() {
      if (now() - start < sliceMs) return;
      await yieldToMain();
      start = now();
    },
  };
}
