import type { PageFetchRequest, PageFetchResult } from '../../core/ports/page-fetcher.port.js';
import { markPageCacheUsed, pageCacheMayHoldPages, type CachedPageFetcher } from './idb-page-cache.js';
import { createSlotQueue } from './slot-queue.js';

/** Options of createWorkerPageFetcher. */
export interface WorkerPageFetcherOptions {
  /** URL of the worker script (the SDK's `kit-crawl-worker.js`); it may be on another origin than the page. */
  readonly scriptUrl: string;
  /** The version the worker must report: a worker script of another release is not used. */
  readonly version: string;
  /** Takes every request until the worker is ready, and all of them when it cannot start (CSP, no Worker). */
  readonly fallback: CachedPageFetcher;
  /** After this long without a ready worker, it is given up (the fallback already serves). Default 10 s. */
  readonly startTimeoutMs?: number;
}

/** The worker fetcher: a CachedPageFetcher, and `close()` to end the worker once the crawl is over. */
export interface WorkerPageFetcher extends CachedPageFetcher {
  /**
   * At most `n` requests at once, the fallback's and the worker's together; the others wait in order, in the worker
   * once it is ready, which starts the next the moment a body is in (core/crawl's LimitingPageFetcher). Unlimited
   * until called.
   */
  limit(n: number): void;
  /** Ends the worker (after the cache's writes are committed: call it once `flush()` resolved). */
  close(): void;
  /** Requests the worker served so far (for tests and the benchmark's diagnosis). */
  readonly served: number;
}

type Pending = { readonly request: PageFetchRequest; readonly resolve: (result: PageFetchResult | Promise<PageFetchResult>) => void };

/**
 * A PageFetcherPort that fetches (and caches) in a dedicated worker, so that a site crawl's requests, their bodies'
 * decoding and the IndexedDB cache never take the page's main thread, and a busy main thread never holds back the
 * next request (issue 12 goal 7). The worker starts from a blob URL that imports the script: a worker's script must
 * be same-origin, and the SDK usually is not; the blob worker runs on the page's origin, so its requests are the
 * page's own (same-origin mode, the page's cookies with `credentials: 'same-origin'`). Requests made before the
 * worker is ready, and all requests when it cannot start (a CSP without `blob:` in worker-src, no Worker, a script of
 * another version, a load error), go to `fallback` on the main thread: the crawl's results never depend on it.
 */
export function createWorkerPageFetcher(options: WorkerPageFetcherOptions): WorkerPageFetcher {
  const { fallback } = options;
  const pending = new Map<number, Pending>();
  const flushes = new Map<number, () => void>();
  let state: 'starting' | 'ready' | 'failed' = 'starting';
  let worker: Worker | null = null;
  let blobUrl: string | null = null;
  let nextId = 1;
  let served = 0;
  let marked = false;
  // The limit (see limit()): requests of the fallback run here at most `max` at once, the others wait in `mainSlots`;
  // the worker is told how many it may run — what the fallback's running requests leave — whenever that changes.
  let max = Infinity;
  const tellLimit = () => { if (state === 'ready') worker?.postMessage({ type: 'limit', n: Math.max(0, max - mainSlots.running) }); };
  const mainSlots = createSlotQueue<Pending, PageFetchResult>((p) => fallback.fetch(p.request), (p, outcome) => { tellLimit(); p.resolve(outcome); });
  /** On the main thread (before the worker is ready, or without one), within the limit. */
  const viaMain = (request: PageFetchRequest): Promise<PageFetchResult> => new Promise((resolve) => mainSlots.push({ request, resolve }));
  /** In the worker, which holds it until it has a slot. */
  const viaWorker = (request: PageFetchRequest, resolve: Pending['resolve']): void => {
    const id = nextId++;
    const { signal, ...plain } = request;
    const onAbort = () => worker?.postMessage({ type: 'abort', id });
    signal?.addEventListener('abort', onAbort, { once: true });
    pending.set(id, { request, resolve: (result) => { signal?.removeEventListener('abort', onAbort); resolve(result); } });
    worker!.postMessage({ type: 'fetch', id, request: plain });
  };
  // Whether the cache may hold pages, as it was before this crawl: the fallback's first write sets the flag, and a
  // worker told so after it would open IndexedDB and read its keys before its first request (on a first visit, the
  // database being created meanwhile). This crawl's own writes are no loss to it: a crawl requests each page once.
  const stored = pageCacheMayHoldPages();

  const release = () => {
    if (blobUrl !== null) URL.revokeObjectURL(blobUrl);
    blobUrl = null;
  };
  /** The worker is not usable: every request it holds goes to the fallback instead. */
  const giveUp = () => {
    if (state === 'failed') return;
    state = 'failed';
    clearTimeout(startTimer);
    worker?.terminate();
    worker = null;
    release();
    for (const { request, resolve } of pending.values()) resolve(viaMain(request));
    pending.clear();
    for (const done of flushes.values()) done();
    flushes.clear();
  };
  let startTimer: ReturnType<typeof setTimeout> | undefined;
  // Started by the first request, in a task after it: creating a worker costs the main thread several milliseconds,
  // which must not delay that request (usually the sitemap's), which the fallback serves anyway.
  const start = () => {
    if (state !== 'starting') return;
    startTimer = setTimeout(() => { if (state === 'starting') giveUp(); }, options.startTimeoutMs ?? 10_000);
    try {
      blobUrl = URL.createObjectURL(new Blob([`importScripts(${JSON.stringify(options.scriptUrl)});`], { type: 'text/javascript' }));
      worker = new Worker(blobUrl);
      worker.onerror = (event) => { event.preventDefault(); giveUp(); };
      worker.onmessageerror = () => giveUp();
      worker.onmessage = (event: MessageEvent) => {
        const m = event.data as { type?: string; version?: string; id?: number; result?: PageFetchResult };
        if (m.type === 'ready') {
          clearTimeout(startTimer);
          release();
          if (m.version !== options.version) return giveUp();
          state = 'ready';
          worker!.postMessage({ type: 'init', stored });
          tellLimit();
          // What waits for a slot on the main thread waits in the worker from now on.
          for (const { request, resolve } of mainSlots.take()) viaWorker(request, resolve);
          return;
        }
        if (m.id === undefined) return;
        const waiting = pending.get(m.id);
        if (waiting && m.result) {
          pending.delete(m.id);
          served++;
          // The worker has no localStorage: the page notes that the cache now holds pages (see mayHoldPages).
          if (!marked && m.result.ok && m.result.value.status === 200 && waiting.request.credentials === 'omit') { marked = true; markPageCacheUsed(); }
          waiting.resolve(m.result);
          return;
        }
        const flushed = flushes.get(m.id);
        if (flushed) { flushes.delete(m.id); flushed(); }
      };
    } catch {
      giveUp();
    }
  };
  let requested = false;

  return {
    fetch(request: PageFetchRequest): Promise<PageFetchResult> {
      if (!requested) { requested = true; setTimeout(start, 0); }
      if (state !== 'ready' || worker === null) return viaMain(request);
      return new Promise<PageFetchResult>((resolve) => viaWorker(request, resolve));
    },
    limit(n: number) {
      max = n;
      tellLimit();
      mainSlots.limit(n);
    },
    async flush() {
      const inWorker = state === 'ready' && worker !== null
        ? new Promise<void>((resolve) => { const id = nextId++; flushes.set(id, resolve); worker!.postMessage({ type: 'flush', id }); })
        : undefined;
      await Promise.all([fallback.flush(), inWorker]);
    },
    clear: () => fallback.clear(),
    evict: () => fallback.evict(),
    close: giveUp,
    get served() { return served; },
  };
}
