// The site crawl and what it needs, one lazy chunk: pages with context 'page' never load it. Nothing here may come
// from the runtime's chunk (extraction, the corpus): this chunk is loaded beside it, not by it (sdk/site-context.ts).
export { crawlSite } from '../core/crawl/index.js';
export { createFetchPageFetcher } from '../adapters/browser/fetch-page-fetcher.js';
export { withPageCache, type CachedPageFetcher } from '../adapters/browser/idb-page-cache.js';
export { createWorkerPageFetcher } from '../adapters/browser/worker-page-fetcher.js';
export { pageLinks } from '../adapters/browser/page-links.js';
export { leanReadability } from '../adapters/browser/lean-readability.js';
export { reportSiteDiscovery } from './site-discovery.js';
export { createTimeSlicer, yieldBehindTasks, yieldToMain } from '../adapters/browser/yield-to-main.js';
