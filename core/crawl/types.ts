import type { ContextConfig } from '../config/types.js';
import type { PageFetcherPort } from '../ports/page-fetcher.port.js';
import type { SourcePage } from '../sources.js';
import type { CrawlLimits } from './limits.js';

/** Main content of one HTML page, as the host's extractor returns it. */
export interface ExtractedPage {
  readonly title: string;
  readonly text: string;
}

/**
 * Turns fetched HTML into main content; injected by the host (the browser's is adapters/browser/extract-from-html.ts).
 * Returns null when the page has no readable content. A throw skips the page (`extract_failed`).
 */
export type ExtractHtml = (html: string, url: string) => ExtractedPage | null | Promise<ExtractedPage | null>;

/** Progress as the SDK's `progress` event carries it (CONTRACT §8). `total` may grow when a fetch fails and another candidate replaces it. */
export interface CrawlProgress {
  readonly phase: 'crawl';
  readonly loaded: number;
  readonly total: number;
}

/** Why a URL did not become a page. */
export type SkipReason =
  | 'invalid_url' // not an http(s) URL, or carries user:password
  | 'cross_origin' // listed, but on another origin: never requested
  | 'duplicate' // the same page as an earlier entry (fragments and escapes normalised, or a redirect target)
  | 'redirected_cross_origin' // the server redirected to another origin: the response is discarded
  | 'http_error' // status other than 2xx
  | 'timeout'
  | 'network'
  | 'aborted'
  | 'unsupported_type' // not HTML or plain text (a PDF, an image…)
  | 'empty' // no readable text
  | 'extract_failed' // the extractor threw
  | 'not_a_sitemap' // the sitemap URL answered something that is not a sitemap (malformed, an HTML error page…)
  | 'sitemap_truncated' // the sitemap was longer than the byte or entry cap: the rest was not read
  | 'sitemap_limit'; // nested deeper than maxSitemapDepth or past maxSitemapFiles: not fetched

/**
 * Where crawl candidates came from: the `urls` option, the configured sitemap, the sitemaps robots.txt names
 * (`context: 'site'` when the sitemap lists no page), or the live page's links (when robots.txt names none either).
 */
export type CrawlSource = 'urls' | 'sitemap' | 'robots.txt' | 'links';

/** One URL the crawl left out, and why. */
export interface CrawlSkip {
  readonly url: string;
  readonly reason: SkipReason;
  /** HTTP status, for `http_error`. */
  readonly status?: number;
}

/**
 * A fetcher that runs at most `limit(n)`'s `n` requests at once and starts the others, in the order they were asked
 * for, as slots free (sdk's worker fetcher: the worker refills a slot the moment a body arrives, without a round trip
 * through the page's main thread). Given one, the crawl hands it up to `concurrency` requests more than run at once;
 * those wait at most one request's time for a slot, so their deadline guard is twice `fetchTimeoutMs` (the fetcher
 * applies `timeoutMs` itself from the moment it starts a request).
 */
export interface LimitingPageFetcher extends PageFetcherPort {
  limit(n: number): void;
}

/** What crawlSite needs. */
export interface CrawlOptions {
  /** URL of the page Kit runs on: its origin is the only one ever requested; relative paths resolve against it. */
  readonly pageUrl: string;
  readonly context: ContextConfig;
  readonly fetcher: PageFetcherPort;
  readonly extract: ExtractHtml;
  /**
   * The page itself, extracted from the live DOM: first in the corpus and never fetched. May be a promise (the host
   * still reading it, at `pageUrl`; undefined when it has no text): the crawl plans and fetches meanwhile, and fetches
   * one page more if it turns out to have no text.
   */
  readonly livePage?: SourcePage | PromiseLike<SourcePage | undefined>;
  /**
   * The live page's links (hrefs, absolute or relative, in document order). With `context: 'site'`, the candidates of
   * last resort when neither the sitemap nor robots.txt lists a page; other origins and file links are dropped.
   */
  readonly pageLinks?: readonly string[];
  readonly onProgress?: (progress: CrawlProgress) => void;
  /**
   * Each page of the result as soon as it is final — its place in plan order and its share of maxCorpusChars known
   * (every earlier candidate read or skipped): the same pages, in the same order, as `CrawlResult.pages`, so a host
   * can index them while the crawl goes on (the SDK builds its corpus so).
   */
  readonly onPage?: (page: SourcePage) => void;
  /** Aborting stops new fetches, cancels running ones and returns what was read so far with `aborted: true`. */
  readonly signal?: AbortSignal;
  readonly limits?: Partial<CrawlLimits>;
}

/** A crawl's outcome. Expected failures (404s, timeouts, foreign URLs) are listed here, never thrown. */
export interface CrawlResult {
  /** The corpus: the live page first, then crawled pages in plan order (url list, then sitemap order). */
  readonly pages: SourcePage[];
  /**
   * What the limits left out: `pages` known candidates not included because of maxPages or maxCorpusChars
   * (a lower bound when a sitemap was cut at its cap), `chars` characters cut by maxCharsPerPage and maxCorpusChars.
   */
  readonly truncated: { readonly pages: number; readonly chars: number };
  /** The first `limits.maxSkippedListed` URLs left out, in the order it happened. */
  readonly skipped: CrawlSkip[];
  /** Every left-out URL counted by reason (the list above is capped, these counts are not). */
  readonly counts: Partial<Record<SkipReason, number>>;
  /** Requests made (robots.txt, sitemaps and pages). */
  readonly requests: number;
  /** Where the candidates came from (the sources that gave at least one), in the order they were tried. */
  readonly sources: readonly CrawlSource[];
  readonly aborted: boolean;
}
