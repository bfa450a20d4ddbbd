/**
 * The crawl's fetch worker (issue 12 goal 7): the site's pages are fetched, decoded and cached (IndexedDB) here, off
 * the page's main thread, which only parses and extracts them. Built as its own classic script, `kit-crawl-worker.js`
 * beside `kit.js` (the SDK webpack config), and started by adapters/browser/worker-page-fetcher.ts from a blob URL
 * (a worker runs on the page's origin, so its same-origin requests and cookies are the page's, as on the main
 * thread). Messages: `{ type: 'fetch', id, request }` → `{ id, result }`; `{ type: 'abort', id }`; `{ type: 'limit', n }`
 * (at most n requests at once: adapters/browser/worker-page-fetcher.ts);
 * `{ type: 'flush', id }` → `{ id }` once the cache's writes are committed. Ready: `{ type: 'ready', version }`.
 */
import type { PageFetchRequest, PageFetchResult } from '../core/ports/page-fetcher.port.js';
import { createFetchPageFetcher } from '../adapters/browser/fetch-page-fetcher.js';
import { withPageCache } from '../adapters/browser/idb-page-cache.js';
import { createSlotQueue } from '../adapters/browser/slot-queue.js';
import { SDK_VERSION } from './version.js';

interface WorkerScope {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
  location: { origin: string };
}
const scope = globalThis as unknown as WorkerScope;
let fetcher: ReturnType<typeof withPageCache> | null = null;
const running = new Map<number, AbortController>();
// Requests run at most `limit` at once (`{ type: 'limit', n }`; none until told); the others wait here in order and
// start the moment a body is in — before its result is posted — without a round trip through the page's main thread.
const slots = createSlotQueue<{ id: number; request: PageFetchRequest }, PageFetchResult>(
  ({ id, request }) => fetcher!.fetch({ ...request, signal: (running.get(id) ?? new AbortController()).signal })
    .catch(() => ({ ok: false as const, code: 'network' as const, reason: 'The request failed in the crawl worker.' })),
  ({ id }, outcome) => {
    running.delete(id);
    void outcome.then((result) => scope.postMessage({ id, result }));
  },
);

scope.onmessage = (event: MessageEvent) => {
  const m = event.data as { type: string; id: number; request?: PageFetchRequest; stored?: boolean; n?: number };
  if (m.type === 'init') {
    fetcher = withPageCache(createFetchPageFetcher({ documentOrigin: scope.location.origin }), { mayHoldPages: m.stored !== false });
  } else if (m.type === 'fetch' && fetcher && m.request) {
    running.set(m.id, new AbortController());
    slots.push({ id: m.id, request: m.request });
  } else if (m.type === 'limit' && typeof m.n === 'number') {
    slots.limit(m.n);
  } else if (m.type === 'abort') {
    // A request still held starts aborted, and answers at once.
    running.get(m.id)?.abort();
  } else if (m.type === 'flush' && fetcher) {
    void fetcher.flush().then(() => scope.postMessage({ id: m.id }));
  }
};
scope.postMessage({ type: 'ready', version: SDK_VERSION });
