/**
 * Reading a site (`context: 'site'`, `urls` or a sitemap): the crawl and its time slicing, in the crawl's chunk
 * (`kit-crawl`, with sdk/crawl.ts), so a page-context assistant loads none of it — not even this orchestration
 * (docs/sdk.md "Budgets"). Called by the runtime's loadContext.
 */
import type { KitConfig } from '../core/config/index.js';
import type { SourcePage } from '../core/sources.js';
import type { KitEvents } from './types.js';
import { crawlSite, createFetchPageFetcher, createTimeSlicer, extractFromHtml, pageLinks, reportSiteDiscovery, withPageCache, yieldToMain } from './crawl.js';

/** The site's pages (the live page first when it has text), what the limits cut, and the slicing helpers. */
export async function readSite(config: KitConfig, url: string, live: SourcePage | undefined, onProgress: (p: KitEvents['progress']) => void, signal: AbortSignal): Promise<{ pages: SourcePage[]; cut: { pages: number; chars: number }; pause: () => Promise<void>; yieldNow: () => Promise<void> }> {
  const fetcher = withPageCache(createFetchPageFetcher());
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
  if (config.context.scope === 'site' && !result.aborted) reportSiteDiscovery(result, config.context.sitemap, location.origin);
  // With a site to read, the work after the crawl is sliced too (issue 12: no long task).
  return { pages: result.pages, cut: { ...result.truncated }, pause: createTimeSlicer().next, yieldNow: yieldToMain };
}
