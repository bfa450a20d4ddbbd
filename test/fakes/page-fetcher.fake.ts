import { fail, ok } from '../../core/errors/result.js';
import type { PageFetcherPort, PageFetchRequest, PageFetchResult } from '../../core/ports/page-fetcher.port.js';

/** A route of the fake site: a static answer, or a function of the request (for slow, huge or odd answers). */
export type FakeRoute =
  | { status?: number; contentType?: string; body: string; redirectTo?: string; etag?: string }
  | ((request: PageFetchRequest) => Promise<PageFetchResult> | PageFetchResult);

/**
 * An in-memory PageFetcherPort over a map of absolute URLs. It follows `redirectTo` like fetch's
 * `redirect: 'follow'` (reporting the final URL), honours maxBytes, and records every request, so tests can
 * assert that nothing outside the origin was ever asked for. Unknown URLs answer 404.
 */
export class FakePageFetcher implements PageFetcherPort {
  readonly requests: PageFetchRequest[] = [];
  /** Peak number of fetches in flight at once. */
  maxInFlight = 0;
  #inFlight = 0;

  constructor(readonly routes: Record<string, FakeRoute>, readonly options: { delayMs?: number } = {}) {}

  async fetch(request: PageFetchRequest): Promise<PageFetchResult> {
    this.requests.push(request);
    this.#inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.#inFlight);
    try {
      if (this.options.delayMs) await new Promise((r) => setTimeout(r, this.options.delayMs));
      if (request.signal?.aborted) return fail('aborted', 'aborted');
      let url = request.url;
      for (let hops = 0; hops < 10; hops++) {
        const route = this.routes[url];
        if (route === undefined) return ok({ status: 404, url, contentType: 'text/html', text: 'Not found', bytes: 9, truncated: false, validators: { etag: null, lastModified: null } });
        if (typeof route === 'function') return await route({ ...request, url });
        if (route.redirectTo) {
          url = new URL(route.redirectTo, url).href;
          continue;
        }
        const bytes = new TextEncoder().encode(route.body);
        const truncated = bytes.length > request.maxBytes;
        const text = truncated ? new TextDecoder().decode(bytes.subarray(0, request.maxBytes)) : route.body;
        return ok({
          status: route.status ?? 200, url, contentType: route.contentType ?? 'text/html', text,
          bytes: Math.min(bytes.length, request.maxBytes), truncated, validators: { etag: route.etag ?? null, lastModified: null },
        });
      }
      return fail('network', 'too many redirects');
    } finally {
      this.#inFlight--;
    }
  }

  /** Origins of every URL requested. */
  requestedOrigins(): string[] {
    return [...new Set(this.requests.map((r) => new URL(r.url).origin))];
  }
}

/** A trivial extractor for crawl tests: the `<title>` and the tag-stripped `<body>`. */
export function tagStripExtract(html: string): { title: string; text: string } | null {
  const title = /<title>([^<]*)<\/title>/i.exec(html)?.[1] ?? '';
  const body = /<body[^>]*>([\s\S]*?)(?:<\/body>|$)/i.exec(html)?.[1] ?? html;
  const text = body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return text === '' ? null : { title, text };
}
