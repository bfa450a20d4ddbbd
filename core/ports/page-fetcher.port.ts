import type { CredentialsOption } from '../config/types.js';
import type { Fail, Ok } from '../errors/result.js';

/** HTTP validators of a response, for conditional re-fetches (If-None-Match / If-Modified-Since). */
export interface PageValidators {
  readonly etag: string | null;
  readonly lastModified: string | null;
}

/** One fetch the crawler asks for. The crawler has already checked that `url` is on the page's origin. */
export interface PageFetchRequest {
  /** Absolute http(s) URL without fragment. */
  readonly url: string;
  /** The fetch (headers and body) must settle within this many milliseconds, or fail with `timeout`. */
  readonly timeoutMs: number;
  /** `'omit'`: public content only (default); `'same-origin'`: the visitor's cookies go along. Never `'include'`. */
  readonly credentials: CredentialsOption;
  /** Read at most this many bytes of the body; the rest is never read, and `truncated` says so. */
  readonly maxBytes: number;
  /** What the caller expects back (sets the Accept header): a page, a sitemap, or plain text (robots.txt). */
  readonly accept: 'html' | 'xml' | 'text';
  readonly signal?: AbortSignal;
  /** When given, the fetch is conditional; an unchanged resource answers status 304 with empty text. */
  readonly validators?: PageValidators;
}

/** A response, whatever its status: the caller decides what a 404 or a redirect to elsewhere means. */
export interface PageFetchResponse {
  readonly status: number;
  /** URL after redirects. When its origin differs from the request's, `text` is empty (the body is never read). */
  readonly url: string;
  /** Lower-case media type without parameters (`text/html`), or '' when the server sent none. */
  readonly contentType: string;
  readonly text: string;
  /** Body bytes read (at most maxBytes). */
  readonly bytes: number;
  /** True when the body was longer than maxBytes and was cut. */
  readonly truncated: boolean;
  readonly validators: PageValidators;
}

/** Expected ways a fetch fails: the time ran out, the caller aborted, or the network refused (incl. CORS/mode). */
export type PageFetchFailure = 'timeout' | 'aborted' | 'network';

export type PageFetchResult = Ok<PageFetchResponse> | Fail<PageFetchFailure>;

/**
 * Fetches one same-origin page or sitemap for the crawler (SPEC §2.2). Expected failures are values;
 * an implementation throws only on a bug. The browser implementation is adapters/browser/fetch-page-fetcher.ts.
 */
export interface PageFetcherPort {
  fetch(request: PageFetchRequest): Promise<PageFetchResult>;
}
