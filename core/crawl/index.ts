export { crawlSite } from './crawl-site.js';
export { CRAWL_LIMITS, type CrawlLimits } from './limits.js';
export { normalizeUrl, originOf, dedupeSameOrigin, SameOriginUrlSet, type UrlRejection } from './normalize-url.js';
export { scanSitemap, decodeXmlText, type SitemapScan } from './parse-sitemap.js';
export { robotsSitemaps, looksLikePage } from './parse-robots.js';
export { truncateText } from './truncate-text.js';
export { fetchWithDeadline } from './fetch-with-deadline.js';
export type { CrawlOptions, CrawlResult, LimitingPageFetcher, CrawlSkip, CrawlProgress, CrawlSource, ExtractHtml, ExtractedPage, SkipReason } from './types.js';
