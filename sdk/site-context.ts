/**
 * Reading a site (`context: 'site'`, `urls` or a sitemap): the crawl and its time slicing, in the crawl's chunk
 * (`kit-crawl`, with sdk/crawl.ts), so a page-context assistant loads none of it — not even this orchestration
 * (docs/sdk.md "Budgets"). Called by the runtime's loadContext.
 */
import type { KitConfig } from '../core/config/index.js';
import type { SourcePage } from '../core/sources.js';
import type { KitEvents } from './types.js';
import { crawlSite, createFetchPageFetcher, createTimeSlicer, createWorkerPageFetcher, extractFromHtml, pageLinks, reportSiteDiscovery, withPageCache, yieldToMain, type CachedPageFetcher } from './crawl.js';
import { SDK_VERSION } from './version.js';

/** Where webpack loads the SDK's files from (the directory of kit.js); undefined outside a webpack build. */
declare const __webpack_public_path__: string | undefined;
/** The crawl's fetch worker, built beside kit.js (webpack.config.js, config `sdk-crawl-worker`). */
export const CRAWL_WORKER_FILE = 'kit-crawl-worker.js';

/**
 * The site's pages (the live page first when it has text), what the limits cut, and the slicing helpers. The crawl
 * starts as soon as this chunk runs: the sitemap is requested while the live page (`live`, a promise) is still being
 * read — it only decides whether one more page fits. Requests, decoding and the IndexedDB page cache run in a worker
 * once it has started (the first requests do not wait for it; where no worker can start, all run on the main thread:
 * adapters/browser/worker-page-fetcher.ts); each page is parsed in a task of its own, and the cache's writes are
 * committed before this returns, so the next page view finds them.
 */
export async function readSite(config: KitConfig, url: string, live: SourcePage | undefined | Promise<SourcePage | undefined>, onProgress: (p: KitEvents['progress']) => void, signal: AbortSignal): Promise<{ pages: SourcePage[]; cut: { pages: number; chars: number }; pause: () => Promise<void>; yieldNow: () => Promise<void> }> {
  const inPage = withPageCache(createFetchPageFetcher());
  const base = typeof __webpack_public_path__ === 'string' && typeof Worker === 'function' ? __webpack_public_path__ : null;
  const fetcher: CachedPageFetcher & { close?(): void } = base === null ? inPage
    : createWorkerPageFetcher({ scriptUrl: new URL(CRAWL_WORKER_FILE, new URL(base, location.href)).href, version: SDK_VERSION, fallback: inPage });
  const result = await crawlSite({
    pageUrl: url,
    context: config.context,
    fetcher,
    // One page per task: the main thread goes back to the page between pages (issue 12: no long task).
    extract: async (html, pageUrl) => { await yieldToMain(); return extractFromHtml(html, pageUrl); },
    livePage: live,
    pageLinks: config.context.scope === 'site' ? pageLinks(document) : [],
    onProgress,
    signal,
  });
  // The cache's last writes are committed before `ready`: a worker's queue would die with a visitor who navigates at
  // once, and the next page view would crawl again.
  const flushed = fetcher.flush();
  if (config.context.scope === 'site' && !result.aborted) reportSiteDiscovery(result, config.context.sitemap, location.origin);
  await flushed;
  fetcher.close?.();
  // With a site to read, the work after the crawl is sliced too (issue 12: no long task).
  return { pages: result.pages, cut: { ...result.truncated }, pause: createTimeSlicer().next, yieldNow: yieldToMain };
}
