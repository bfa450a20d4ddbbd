import type { ContextConfig } from '../config/types.js';
import type { PageFetcherPort } from '../ports/page-fetcher.port.js';
import type { CrawlLog } from './crawl-log.js';
import { fetchWithDeadline } from './fetch-with-deadline.js';
import type { CrawlLimits } from './limits.js';
import { SameOriginUrlSet } from './normalize-url.js';
import { scanSitemap } from './parse-sitemap.js';

/** What planCrawl needs: the origin, the user's context options and the means to read sitemaps. */
export interface PlanInput {
  readonly pageUrl: string;
  readonly origin: string;
  readonly context: ContextConfig;
  readonly fetcher: PageFetcherPort;
  readonly limits: CrawlLimits;
  readonly log: CrawlLog;
  /** URL of the live page, if the host already has it: a candidate (for de-duplication) that is never fetched. */
  readonly liveUrl: string | null;
  readonly signal?: AbortSignal;
}

/**
 * The ordered, de-duplicated same-origin pages to crawl: the explicit `urls` first, then the sitemap's pages
 * (sitemap indexes followed depth-first in document order, within maxSitemapDepth and maxSitemapFiles).
 * Foreign, invalid and duplicate entries are counted in the log and never requested. The live page is excluded.
 */
export async function planCrawl(input: PlanInput): Promise<string[]> {
  const { context, origin, limits, log } = input;
  const pages = new SameOriginUrlSet(origin);
  if (input.liveUrl !== null) pages.add(input.liveUrl);
  const reserved = pages.size;
  const full = () => pages.size - reserved >= limits.maxCandidates;

  const addPage = (raw: string, base: string) => {
    if (full()) return;
    const added = pages.add(raw, base);
    if (!added.ok) log.skip(added.url ?? raw.slice(0, 200), added.reason);
  };

  if (context.scope === 'page') return [];
  for (const raw of context.urls) addPage(raw, input.pageUrl);

  if (context.sitemap !== null) {
    const sitemaps = new SameOriginUrlSet(origin);
    let files = 0;
    const visit = async (raw: string, base: string, depth: number): Promise<void> => {
      if (full() || input.signal?.aborted) return;
      const added = sitemaps.add(raw, base);
      if (!added.ok) return log.skip(added.url ?? raw.slice(0, 200), added.reason);
      const url = added.url;
      if (depth > limits.maxSitemapDepth || files >= limits.maxSitemapFiles) return log.skip(url, 'sitemap_limit');
      files++;
      log.requests++;
      const result = await fetchWithDeadline(input.fetcher, {
        url, timeoutMs: context.fetchTimeoutMs, credentials: context.credentials, maxBytes: limits.maxSitemapBytes, accept: 'xml',
      }, input.signal);
      if (!result.ok) return log.skip(url, result.code);
      const response = result.value;
      if (!sameOrigin(response.url, origin)) return log.skip(url, 'redirected_cross_origin');
      if (response.status < 200 || response.status > 299) return log.skip(url, 'http_error', response.status);
      const scan = scanSitemap(response.text, { maxEntries: limits.maxSitemapEntries, maxChars: limits.maxSitemapBytes });
      if (scan.kind === null) return log.skip(url, 'not_a_sitemap');
      if (scan.truncated || response.truncated) log.skip(url, 'sitemap_truncated');
      for (const loc of scan.locs) {
        if (full()) break;
        if (scan.kind === 'urlset') addPage(loc, response.url);
        else await visit(loc, response.url, depth + 1);
      }
    };
    await visit(context.sitemap, input.pageUrl, 0);
  }
  return pages.toArray().slice(reserved);
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}
