import type { SourcePage } from '../sources.js';
import { CrawlLog } from './crawl-log.js';
import { fetchWithDeadline } from './fetch-with-deadline.js';
import { CRAWL_LIMITS, type CrawlLimits } from './limits.js';
import { normalizeUrl, originOf } from './normalize-url.js';
import { planCrawl } from './plan-crawl.js';
import { truncateText } from './truncate-text.js';
import type { CrawlOptions, CrawlResult, SkipReason } from './types.js';

/** SPEC §2.2: maxPages is at most 100, whatever a host passes. */
const MAX_PAGES = 100;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

interface Fetched {
  readonly index: number;
  readonly page: SourcePage;
  /** Characters cut by maxCharsPerPage. */
  readonly cut: number;
}

/**
 * Builds the corpus of a `context` option (SPEC §2.2): plans the same-origin pages (url list, sitemap), fetches
 * them `concurrency` at a time through the fetcher port, extracts their main content with the host's extractor,
 * and applies maxPages, maxCharsPerPage and maxCorpusChars. Never requests another origin; never throws for
 * an expected failure (they are listed in `skipped`). Throws only when `pageUrl` is not an http(s) URL.
 */
export async function crawlSite(options: CrawlOptions): Promise<CrawlResult> {
  const { context, signal } = options;
  const limits: CrawlLimits = { ...CRAWL_LIMITS, ...options.limits };
  const origin = originOf(options.pageUrl);
  if (origin === null) throw new TypeError('crawlSite: pageUrl must be an absolute http(s) URL.');
  const pageUrl = normalizeUrl(options.pageUrl)!;
  const log = new CrawlLog(limits.maxSkippedListed);
  const liveUrl = options.livePage ? normalizeUrl(options.livePage.url, pageUrl) ?? pageUrl : null;
  const live = options.livePage && liveUrl !== null && options.livePage.text.trim() !== '' ? { ...options.livePage, url: liveUrl } : null;
  if (options.livePage && live === null) log.skip(liveUrl!, 'empty');

  const target = Math.max(0, Math.min(context.maxPages, MAX_PAGES) - (live ? 1 : 0));
  // With no page left to fetch (maxPages 1 and the live page), even the sitemap is not worth a request.
  const plan = target === 0 ? { urls: [], sources: [] } : await planCrawl({
    pageUrl, origin, context, fetcher: options.fetcher, limits, log, liveUrl, signal, ...(options.pageLinks && { links: options.pageLinks }),
  });
  const candidates = plan.urls;

  const fetched: Fetched[] = [];
  const seenFinal = new Set<string>(liveUrl !== null ? [liveUrl] : []);
  let keptChars = live ? Math.min(live.text.length, context.maxCharsPerPage) : 0;
  let next = 0;
  let inFlight = 0;
  let loaded = 0;
  let total = Math.min(candidates.length, target);
  const progress = () => {
    total = Math.max(total, loaded + inFlight);
    if (options.onProgress) {
      try {
        options.onProgress({ phase: 'crawl', loaded, total });
      } catch {
        // A throwing progress listener is the host's bug; it must not stop the crawl.
      }
    }
  };

  const fetchOne = async (index: number): Promise<void> => {
    const url = candidates[index]!;
    log.requests++;
    const result = await fetchWithDeadline(options.fetcher, {
      url, timeoutMs: context.fetchTimeoutMs, credentials: context.credentials, maxBytes: limits.maxPageBytes, accept: 'html',
    }, signal);
    if (!result.ok) return log.skip(url, result.code);
    const response = result.value;
    const finalUrl = normalizeUrl(response.url);
    if (finalUrl === null || new URL(finalUrl).origin !== origin) return log.skip(url, 'redirected_cross_origin');
    if (response.status < 200 || response.status > 299) return log.skip(url, 'http_error', response.status);
    // A same-origin redirect may land on a page another entry already produced.
    if (finalUrl !== url && seenFinal.has(finalUrl)) return log.skip(url, 'duplicate');
    const extracted = await readPage(response.contentType, response.text, finalUrl, options.extract);
    if (typeof extracted === 'string') return log.skip(url, extracted);
    if (seenFinal.has(finalUrl)) return log.skip(url, 'duplicate');
    seenFinal.add(finalUrl);
    const { text, cut } = truncateText(extracted.text, context.maxCharsPerPage);
    keptChars += text.length;
    fetched.push({ index, page: { url: finalUrl, title: extracted.title || titleFromUrl(finalUrl), text }, cut });
  };

  await new Promise<void>((resolve) => {
    const canLaunch = () => !signal?.aborted && next < candidates.length && fetched.length + inFlight < target
      && keptChars < context.maxCorpusChars && inFlight < context.concurrency;
    const pump = () => {
      while (canLaunch()) {
        const index = next++;
        inFlight++;
        fetchOne(index)
          .catch(() => log.skip(candidates[index]!, 'extract_failed'))
          .finally(() => {
            inFlight--;
            loaded++;
            progress();
            pump();
          });
      }
      if (inFlight === 0) resolve();
    };
    progress();
    pump();
  });

  if (total !== loaded && options.onProgress) {
    total = loaded;
    progress();
  }
  const aborted = signal?.aborted === true;
  // Candidates never fetched because maxPages or maxCorpusChars was reached (not when aborted).
  let truncatedPages = aborted ? 0 : candidates.length - next;
  let truncatedChars = 0;
  const pages: SourcePage[] = [];
  let budget = context.maxCorpusChars;
  const ordered = fetched.sort((a, b) => a.index - b.index);
  const all = live ? [{ index: -1, ...cutLive(live, context.maxCharsPerPage) }, ...ordered] : ordered;
  for (const { page, cut } of all) {
    truncatedChars += cut;
    if (page.text.length <= budget) {
      pages.push(page);
      budget -= page.text.length;
    } else if (budget >= limits.minPageChars || (pages.length === 0 && budget > 0)) {
      const kept = truncateText(page.text, budget);
      pages.push({ ...page, text: kept.text });
      truncatedChars += kept.cut;
      budget = 0;
    } else {
      truncatedPages++;
      truncatedChars += page.text.length;
    }
  }
  return { pages, truncated: { pages: truncatedPages, chars: truncatedChars }, skipped: log.skipped, counts: log.counts, requests: log.requests, sources: plan.sources, aborted };
}

function cutLive(page: SourcePage, max: number): { page: SourcePage; cut: number } {
  const { text, cut } = truncateText(page.text, max);
  return { page: { ...page, text }, cut };
}

async function readPage(contentType: string, body: string, url: string, extract: CrawlOptions['extract']): Promise<{ title: string; text: string } | SkipReason> {
  let page: { title: string; text: string } | null;
  if (HTML_TYPES.has(contentType) || (contentType === '' && /^\s*</.test(body.slice(0, 1024)))) {
    try {
      page = await extract(body, url);
    } catch {
      return 'extract_failed';
    }
  } else if (contentType === 'text/plain') {
    page = { title: '', text: body };
  } else {
    return 'unsupported_type';
  }
  if (page === null || page.text.trim() === '') return 'empty';
  return { title: page.title.trim(), text: page.text.trim() };
}

/** A readable stand-in title when a page has none: its last path segment, or the host for the root. */
function titleFromUrl(url: string): string {
  const u = new URL(url);
  const segment = u.pathname.split('/').filter(Boolean).pop();
  if (!segment) return u.host;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
