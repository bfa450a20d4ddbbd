import type { SourcePage } from '../sources.js';
import { CrawlLog } from './crawl-log.js';
import { fetchWithDeadline } from './fetch-with-deadline.js';
import { CRAWL_LIMITS, type CrawlLimits } from './limits.js';
import { normalizeUrl, originOf } from './normalize-url.js';
import { planCrawl } from './plan-crawl.js';
import { truncateText } from './truncate-text.js';
import type { CrawlOptions, CrawlResult, LimitingPageFetcher, SkipReason } from './types.js';

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
  // The live page may still be being read (a promise): the crawl plans and starts fetching meanwhile, as if it will
  // have text, and makes room for one more page if it has none.
  const given = options.livePage;
  const maxPages = Math.min(context.maxPages, MAX_PAGES);
  // With maxPages 1 the live page decides whether anything is fetched at all: it is awaited first.
  const pendingLive = isPromiseLike<SourcePage | undefined>(given) && maxPages > 1 ? given : null;
  const liveUrl = isPromiseLike(given) ? pageUrl : given ? normalizeUrl(given.url, pageUrl) ?? pageUrl : null;
  let live = null as SourcePage | null;
  let liveKnown = false;
  const settleLive = (page: SourcePage | undefined) => {
    live = page && page.text.trim() !== '' ? { ...page, url: liveUrl! } : null;
    if (page && live === null) log.skip(liveUrl!, 'empty');
    liveKnown = true;
  };
  if (!pendingLive) settleLive(isPromiseLike<SourcePage | undefined>(given) ? await Promise.resolve(given).catch(() => undefined) : given);
  const target = () => Math.max(0, maxPages - (live || !liveKnown ? 1 : 0));

  // With no page left to fetch (maxPages 1 and the live page), even the sitemap is not worth a request.
  const plan = target() === 0 ? { urls: [], sources: [] } : await planCrawl({
    pageUrl, origin, context, fetcher: options.fetcher, limits, log, liveUrl, signal, ...(options.pageLinks && { links: options.pageLinks }),
  });
  const candidates = plan.urls;

  const fetched: Fetched[] = [];
  // The result, built while the crawl runs: a page is final once every earlier candidate is read or skipped (`done`
  // holds the later ones until then), and taken against maxCorpusChars in plan order, the live page first.
  const pages: SourcePage[] = [];
  let budget = context.maxCorpusChars;
  let truncatedPages = 0;
  let truncatedChars = 0;
  const take = ({ page, cut }: { page: SourcePage; cut: number }): void => {
    truncatedChars += cut;
    let kept: SourcePage | null = null;
    if (page.text.length <= budget) {
      kept = page;
      budget -= page.text.length;
    } else if (budget >= limits.minPageChars || (pages.length === 0 && budget > 0)) {
      const cutToBudget = truncateText(page.text, budget);
      kept = { ...page, text: cutToBudget.text };
      truncatedChars += cutToBudget.cut;
      budget = 0;
    } else {
      truncatedPages++;
      truncatedChars += page.text.length;
    }
    if (kept) {
      pages.push(kept);
      try {
        options.onPage?.(kept);
      } catch {
        // The host's bug must not stop the crawl.
      }
    }
  };
  const done = new Map<number, Fetched | null>();
  let head = 0;
  let liveTaken = false;
  const settle = (index: number, page: Fetched | null): void => {
    done.set(index, page);
    advance();
  };
  const advance = (): void => {
    if (!liveKnown) return;
    if (!liveTaken) {
      liveTaken = true;
      if (live) take(cutLive(live, context.maxCharsPerPage));
    }
    for (let f; done.has(head); head++) {
      f = done.get(head)!;
      done.delete(head);
      if (f) take(f);
    }
  };
  const seenFinal = new Set<string>(liveUrl !== null ? [liveUrl] : []);
  let keptChars = 0;
  // Until the live page is read, it counts as a full page against the corpus cap (never a request more than with it).
  const liveChars = () => (!liveKnown ? context.maxCharsPerPage : live ? Math.min(live.text.length, context.maxCharsPerPage) : 0);
  let next = 0;
  let inFlight = 0;
  let loaded = 0;
  let total = Math.min(candidates.length, target());
  const progress = () => {
    total = Math.max(total, loaded + inFlight + queue.length + (extracting ? 1 : 0));
    if (options.onProgress) {
      try {
        options.onProgress({ phase: 'crawl', loaded, total });
      } catch {
        // A throwing progress listener is the host's bug; it must not stop the crawl.
      }
    }
  };

  /** A fetched page waiting for the extractor. */
  interface Loaded { readonly index: number; readonly url: string; readonly finalUrl: string; readonly contentType: string; readonly text: string }
  const fetchOne = async (index: number, ahead: boolean): Promise<Loaded | undefined> => {
    const url = candidates[index]!;
    log.requests++;
    const result = await fetchWithDeadline(options.fetcher, {
      url, timeoutMs: context.fetchTimeoutMs, credentials: context.credentials, maxBytes: limits.maxPageBytes, accept: 'html',
    }, signal, ahead ? 2 * context.fetchTimeoutMs : context.fetchTimeoutMs);
    if (!result.ok) return void log.skip(url, result.code);
    const response = result.value;
    const finalUrl = normalizeUrl(response.url);
    if (finalUrl === null || new URL(finalUrl).origin !== origin) return void log.skip(url, 'redirected_cross_origin');
    if (response.status < 200 || response.status > 299) return void log.skip(url, 'http_error', response.status);
    // A same-origin redirect may land on a page another entry already produced.
    if (finalUrl !== url && seenFinal.has(finalUrl)) return void log.skip(url, 'duplicate');
    return { index, url, finalUrl, contentType: response.contentType, text: response.text };
  };
  const extractOne = async ({ index, url, finalUrl, contentType, text: body }: Loaded): Promise<Fetched | null> => {
    const extracted = await readPage(contentType, body, finalUrl, options.extract);
    if (typeof extracted === 'string') return (log.skip(url, extracted), null);
    if (seenFinal.has(finalUrl)) return (log.skip(url, 'duplicate'), null);
    seenFinal.add(finalUrl);
    const { text, cut } = truncateText(extracted.text, context.maxCharsPerPage);
    keptChars += text.length;
    const page: Fetched = { index, page: { url: finalUrl, title: extracted.title || titleFromUrl(finalUrl), text }, cut };
    fetched.push(page);
    return page;
  };

  // Fetching and extracting are pipelined: a fetch slot is free again as soon as its response is read, and fetched
  // pages wait in `queue` for the extractor, one at a time (it is the page's main thread). At most `concurrency`
  // requests are ever in flight. A page is launched ahead of the extractor only when the pages waiting for it could
  // not fill the corpus even at maxCharsPerPage each — so the pages requested are exactly those a crawl that
  // extracts each page before launching the next would request.
  // A limiting fetcher (LimitingPageFetcher) keeps `concurrency` in flight itself and is handed up to `concurrency`
  // requests more, which it starts as slots free: it refills a slot without waiting for this code to run (on a busy
  // main thread, the crawl's pace). Such a request is handed over only when that crawl would request it whatever
  // the pages before it turn out to be: the pages waiting and in flight could not fill the corpus even at
  // maxCharsPerPage each (maxPages already counts them).
  const queue: Loaded[] = [];
  let extracting = false;
  const waiting = () => queue.length + (extracting ? 1 : 0);
  const limiting = typeof (options.fetcher as Partial<LimitingPageFetcher>).limit === 'function';
  if (limiting) (options.fetcher as LimitingPageFetcher).limit(context.concurrency);
  await new Promise<void>((resolve) => {
    const canLaunch = () => !signal?.aborted && next < candidates.length && fetched.length + inFlight + waiting() < target()
      && keptChars + liveChars() + waiting() * context.maxCharsPerPage < context.maxCorpusChars && (inFlight < context.concurrency
        || (limiting && inFlight < 2 * context.concurrency && keptChars + liveChars() + (waiting() + inFlight) * context.maxCharsPerPage < context.maxCorpusChars));
    const loadedOne = () => {
      loaded++;
      progress();
      pump();
    };
    const drain = () => {
      if (extracting || queue.length === 0) return;
      extracting = true;
      const page = queue.shift()!;
      extractOne(page)
        .catch(() => (log.skip(page.url, 'extract_failed'), null))
        .then((read) => {
          extracting = false;
          settle(page.index, read);
          loadedOne();
          drain();
        });
    };
    const pump = () => {
      while (canLaunch()) {
        const index = next++;
        const ahead = inFlight >= context.concurrency;
        inFlight++;
        fetchOne(index, ahead)
          .catch(() => void log.skip(candidates[index]!, 'network'))
          .then((page) => {
            inFlight--;
            if (page) {
              queue.push(page);
              drain();
            } else {
              settle(index, null);
              loadedOne();
            }
            pump();
          });
      }
      if (inFlight === 0 && waiting() === 0 && liveKnown) resolve();
    };
    progress();
    // Fetching starts with the plan; the live page, once read, only decides whether one more page fits.
    pendingLive?.then(settleLive, () => settleLive(undefined)).then(() => {
      total = Math.max(total, Math.min(candidates.length, target()));
      advance();
      pump();
    });
    advance();
    pump();
  });

  if (total !== loaded && options.onProgress) {
    total = loaded;
    progress();
  }
  const aborted = signal?.aborted === true;
  // Candidates never fetched because maxPages or maxCorpusChars was reached (not when aborted).
  if (!aborted) truncatedPages += candidates.length - next;
  return { pages, truncated: { pages: truncatedPages, chars: truncatedChars }, skipped: log.skipped, counts: log.counts, requests: log.requests, sources: plan.sources, aborted };
}

function isPromiseLike<T>(value: unknown): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
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
