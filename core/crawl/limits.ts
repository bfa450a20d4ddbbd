/**
 * Bounds of one crawl beyond the user's context options (CONTRACT §8). They keep every crawl's memory and
 * request count bounded whatever the site serves; hosts may lower or raise them through `CrawlOptions.limits`.
 */
export interface CrawlLimits {
  /** Sitemap-index nesting followed: 0 is the sitemap itself. Default 3 (the protocol allows 1; real sites nest 2). */
  readonly maxSitemapDepth: number;
  /** Sitemap files fetched per crawl. Default 16. */
  readonly maxSitemapFiles: number;
  /** Bytes read of one sitemap; entries past the cut are ignored. Default 5 MB (the protocol allows 50 MB). */
  readonly maxSitemapBytes: number;
  /** `<url>` entries scanned per sitemap file. Default 50,000 (the protocol's maximum). */
  readonly maxSitemapEntries: number;
  /** Distinct candidate pages kept from the url list and sitemaps. Default 1,000. */
  readonly maxCandidates: number;
  /** Bytes of HTML read of one page; the rest is never downloaded. Default 5 MB. */
  readonly maxPageBytes: number;
  /** A page is kept, cut, when at least this many characters of the corpus budget remain; else it is left out. Default 200. */
  readonly minPageChars: number;
  /** Skipped URLs listed in the result (all of them are counted). Default 100. */
  readonly maxSkippedListed: number;
  /** Bytes of robots.txt read when looking for `Sitemap:` records. Default 512 KiB (Google reads 500 KiB). */
  readonly maxRobotsBytes: number;
  /** Links of the live page considered when the site lists no sitemap. Default 1,000. */
  readonly maxPageLinks: number;
}

/** The defaults of CrawlLimits. */
export const CRAWL_LIMITS: CrawlLimits = Object.freeze({
  maxSitemapDepth: 3,
  maxSitemapFiles: 16,
  maxSitemapBytes: 5 * 1024 * 1024,
  maxSitemapEntries: 50_000,
  maxCandidates: 1_000,
  maxPageBytes: 5 * 1024 * 1024,
  minPageChars: 200,
  maxSkippedListed: 100,
  maxRobotsBytes: 512 * 1024,
  maxPageLinks: 1_000,
});
