/**
 * The sitemap's request, sent by the SDK's entry the moment a site is to be read (the instance's first sign of use),
 * beside the crawl's chunk instead of after it (issue 12 §7: the crawl's first request waited for that chunk to load
 * and run, ~25 ms after `Kit.init` on a quiet machine, and the first pages for the sitemap after it). The crawl
 * (sdk/site-context.ts) adopts the response as its own first fetch: the request is exactly the one its fetcher would
 * make (adapters/browser/fetch-page-fetcher.ts: same URL, Accept, credentials, same-origin mode, redirects followed),
 * its body is read, capped and checked there as any other, and its timeout runs from the crawl's request.
 */
import type { ContextConfig } from '../core/config/types.js';
import { FETCH_ACCEPT } from '../adapters/browser/fetch-accept.js';
import { pageCacheMayHoldPages } from '../adapters/browser/page-cache-mark.js';

/** A sitemap request already under way, for the crawl to take over. */
export interface SitemapHeadStart {
  /** The absolute URL requested (no fragment). */
  readonly url: string;
  readonly credentials: ContextConfig['credentials'];
  readonly response: Promise<Response>;
  /** Cancels the request (or the reading of its body). */
  readonly abort: () => void;
}

/**
 * Requests the context's sitemap now, or returns null where the crawl would not request it first, or not at all: no
 * sitemap, maxPages 1 (the live page alone may be the whole crawl), a sitemap on another origin (never requested),
 * and a public crawl in a browser whose page cache may already hold it (a fresh copy is read with no request, a
 * stale one revalidated with its validators). `signal` cancels it (the instance's lifetime).
 */
export function startSitemapFetch(context: ContextConfig, signal: AbortSignal): SitemapHeadStart | null {
  if (context.scope === 'page' || context.sitemap === null || context.maxPages <= 1 || typeof fetch !== 'function') return null;
  let url: URL;
  try {
    url = new URL(context.sitemap, location.href);
  } catch {
    return null;
  }
  if (url.origin !== location.origin || url.username !== '' || url.password !== '') return null;
  if (context.credentials === 'omit' && pageCacheMayHoldPages()) return null;
  url.hash = '';
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (signal.aborted) return null;
  signal.addEventListener('abort', abort, { once: true });
  const response = fetch(url.href, {
    method: 'GET', headers: { Accept: FETCH_ACCEPT.xml }, credentials: context.credentials, mode: 'same-origin', redirect: 'follow', signal: controller.signal,
  });
  response.catch(() => undefined); // the crawl reads the failure as its own, or never takes the request
  return { url: url.href, credentials: context.credentials, response, abort };
}
