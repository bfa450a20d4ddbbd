/**
 * The Accept header of the crawl's requests by what the caller expects back (adapters/browser/fetch-page-fetcher.ts).
 * A module of its own: the SDK's entry sends the sitemap's request ahead of the crawl (sdk/sitemap-head-start.ts) with
 * the very header the crawl's fetcher would send, without bringing the fetcher with it.
 */
export const FETCH_ACCEPT = {
  html: 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.5',
  xml: 'application/xml,text/xml;q=0.9,*/*;q=0.1',
  text: 'text/plain,*/*;q=0.1',
} as const;
