import type { ContextConfig } from '../config/types.js';
import type { PageFetcherPort } from '../ports/page-fetcher.port.js';
import type { CrawlLog } from './crawl-log.js';
import { fetchWithDeadline } from './fetch-with-deadline.js';
import type { CrawlLimits } from './limits.js';
import { normalizeUrl, SameOriginUrlSet } from './normalize-url.js';
import { looksLikePage, robotsSitemaps } from './parse-robots.js';
import { scanSitemap } from './parse-sitemap.js';
import type { CrawlSource } from './types.js';

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
  /** Links of the live page, in document order: the candidates of last resort for `context: 'site'`. */
  readonly links?: readonly string[];
  readonly signal?: AbortSignal;
}

/** The plan: candidate URLs in crawl order, and where they came from. */
export interface CrawlPlan {
  readonly urls: string[];
  /** The sources that gave at least one candidate, in the order they were tried. */
  readonly sources: CrawlSource[];
}

/**
 * The ordered, de-duplicated same-origin pages to crawl: the explicit `urls` first, then the sitemap's pages
 * (sitemap indexes followed depth-first in document order, within maxSitemapDepth and maxSitemapFiles).
 * For `context: 'site'` on a site without a sitemap where it was looked for (a 404, an error page, not a sitemap),
 * the sitemaps named by `Sitemap:` in /robots.txt are read instead; when still no page is known, the same-origin
 * links of the live page become the candidates. Foreign, invalid and duplicate entries of lists and sitemaps are counted in the
 * log and never requested (page links are only filtered: a page's links to other sites are no finding). The live
 * page is excluded.
 */
export async function planCrawl(input: PlanInput): Promise<CrawlPlan> {
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

  const sources: CrawlSource[] = [];
  /** Runs one source of candidates and notes it when it added any. */
  const from = async (source: CrawlSource, run: () => void | Promise<void>) => {
    const before = pages.size;
    await run();
    if (pages.size > before) sources.push(source);
  };

  if (context.scope === 'page') return { urls: [], sources };
  await from('urls', () => { for (const raw of context.urls) addPage(raw, input.pageUrl); });

  const sitemaps = new SameOriginUrlSet(origin);
  let files = 0;
  let sitemapsFound = 0;
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
    if (depth === 0) sitemapsFound++;
    if (scan.truncated || response.truncated) log.skip(url, 'sitemap_truncated');
    for (const loc of scan.locs) {
      if (full()) break;
      if (scan.kind === 'urlset') addPage(loc, response.url);
      else await visit(loc, response.url, depth + 1);
    }
  };
  if (context.sitemap !== null) await from('sitemap', () => visit(context.sitemap!, input.pageUrl, 0));
  // robots.txt only when the site has no sitemap where it was looked for (a sitemap that lists nothing is an answer).
  if (context.scope === 'site' && sitemapsFound === 0 && pages.size === reserved && !input.signal?.aborted) {
    await from('robots.txt', async () => {
      for (const raw of await readRobotsSitemaps(input)) {
        const url = normalizeUrl(raw, `${origin}/robots.txt`);
        if (url !== null && !sitemaps.has(url)) await visit(url, origin, 0); // /sitemap.xml was tried already
      }
    });
  }
  if (context.scope === 'site' && pages.size === reserved && input.links) {
    await from('links', () => {
      for (const raw of input.links!.slice(0, limits.maxPageLinks)) {
        if (full()) break;
        // Only filtered, not logged: a page's links to other sites or to files are not the site's mistakes.
        const url = normalizeUrl(raw, input.pageUrl);
        if (url !== null && looksLikePage(url)) pages.add(url);
      }
    });
  }
  return { urls: pages.toArray().slice(reserved), sources };
}

/** `Sitemap:` URLs of the origin's robots.txt; none when it is missing, unreadable or lists none (not a skip). */
async function readRobotsSitemaps(input: PlanInput): Promise<string[]> {
  const url = `${input.origin}/robots.txt`;
  input.log.requests++;
  const result = await fetchWithDeadline(input.fetcher, {
    url, timeoutMs: input.context.fetchTimeoutMs, credentials: input.context.credentials, maxBytes: input.limits.maxRobotsBytes, accept: 'text',
  }, input.signal);
  if (!result.ok || !sameOrigin(result.value.url, input.origin) || result.value.status < 200 || result.value.status > 299) return [];
  return robotsSitemaps(result.value.text, input.limits.maxSitemapFiles);
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}
