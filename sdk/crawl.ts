// The site crawl and what it needs, one lazy chunk: pages with context 'page' never load it.
import type { ContextConfig } from '../core/config/types.js';
import { crawlSite, type CrawlProgress } from '../core/crawl/index.js';
import type { SourcePage } from '../core/sources.js';
import { extractFromHtml } from '../adapters/browser/extract-from-html.js';
import { createFetchPageFetcher } from '../adapters/browser/fetch-page-fetcher.js';
import { withPageCache, type CachedPageFetcher } from '../adapters/browser/idb-page-cache.js';
import { pageLinks } from '../adapters/browser/page-links.js';
import { createWorkerPageFetcher } from '../adapters/browser/worker-page-fetcher.js';
import { yieldToMain } from '../adapters/browser/yield-to-main.js';
import { reportSiteDiscovery } from './site-discovery.js';
import { SDK_VERSION } from './version.js';

/** Where webpack loads the SDK's files from (the directory of kit.js); undefined outside a webpack build. */
declare const __webpack_public_path__: string | undefined;
/** The crawl's fetch worker, built beside kit.js (webpack.config.js). */
export const CRAWL_WORKER_FILE = 'kit-crawl-worker.js';

export { createTimeSlicer, yieldToMain } from '../adapters/browser/yield-to-main.js';

/** What the runtime passes to {@link readSite}. */
export interface ReadSiteOptions {
  /** The page's URL (no fragment). */
  readonly url: string;
  readonly context: ContextConfig;
  /** The live page as the runtime reads it (undefined: no text); the crawl plans and fetches while it is read. */
  readonly livePage: Promise<SourcePage | undefined>;
  readonly onProgress: (progress: CrawlProgress) => void;
  readonly signal: AbortSignal;
}

/**
 * The site's pages for a `context` other than 'page' (SPEC §2.2): the live page first, then the crawled pages,
 * and what the limits cut. The crawl starts as soon as this chunk runs: the page cache opens and the sitemap is
 * requested while the live page is still being read (it only decides whether one more page fits). Fetched pages go
 * through the IndexedDB page cache (public pages only), each page is parsed in a task of its own (the main thread
 * goes back to the page between pages: issue 12, no long task), and the cache's writes are committed before the
 * pages are handed over, so the next page view finds them.
 */
export async function readSite(options: ReadSiteOptions): Promise<{ pages: SourcePage[]; cut: { pages: number; chars: number } }> {
  const { context } = options;
  // Requests, decoding and the cache run in a worker once it has started (the first requests do not wait for it);
  // on the main thread where no worker can start.
  const inPage = withPageCache(createFetchPageFetcher());
  const base = typeof __webpack_public_path__ === 'string' && typeof Worker === 'function' ? __webpack_public_path__ : null;
  const fetcher: CachedPageFetcher & { close?(): void } = base === null ? inPage : createWorkerPageFetcher({ scriptUrl: new URL(CRAWL_WORKER_FILE, new URL(base, location.href)).href, version: SDK_VERSION, fallback: inPage });
  const result = await crawlSite({
    pageUrl: options.url,
    context,
    fetcher,
    // One page per task: the main thread goes back to the page between pages (issue 12: no long task).
    extract: async (html, pageUrl) => { await yieldToMain(); return extractFromHtml(html, pageUrl); },
    livePage: options.livePage,
    pageLinks: context.scope === 'site' ? pageLinks(document) : [],
    onProgress: options.onProgress,
    signal: options.signal,
  });
  // Committed, not awaited: the transactions are on their way before `ready`; the corpus need not wait for the disk.
  void fetcher.flush().then(() => fetcher.close?.());
  if (context.scope === 'site' && !result.aborted) reportSiteDiscovery(result, context.sitemap, location.origin);
  return { pages: result.pages, cut: { ...result.truncated } };
}
