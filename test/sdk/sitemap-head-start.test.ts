/**
 * The sitemap's head start (issue 12 §7): the SDK's entry requests a site's sitemap the moment the site is to be read,
 * exactly as the crawl's fetcher would, and the crawl takes that request over as its first fetch of that URL
 * (sdk/sitemap-head-start.ts, sdk/site-context.ts `adoptingFetch`). In Node with a stand-in `location`, `fetch` and
 * `localStorage`; the order of the requests in a real crawl is test/e2e/crawl.e2e.test.ts's.
 */
import { expect } from 'chai';
import { normalizeConfig } from '../../core/config/index.js';
import { formatKey } from '../../core/keys/key-format.js';
import { FETCH_ACCEPT } from '../../adapters/browser/fetch-accept.js';
import { createFetchPageFetcher } from '../../adapters/browser/fetch-page-fetcher.js';
import { adoptingFetch } from '../../sdk/site-context.js';
import { startSitemapFetch, type SitemapHeadStart } from '../../sdk/sitemap-head-start.js';

const KEY = formatKey('publishable', Uint8Array.from({ length: 32 }, (_, i) => i + 7));
const contextOf = (context: Record<string, unknown>) => normalizeConfig({ apiKey: KEY, context }).config.context;
type Call = { url: string; init: RequestInit };

describe('sitemap head start', () => {
  const saved = { location: Object.getOwnPropertyDescriptor(globalThis, 'location'), fetch: globalThis.fetch, localStorage: Object.getOwnPropertyDescriptor(globalThis, 'localStorage') };
  let calls: Call[];
  let stored: Map<string, string>;
  beforeEach(() => {
    calls = [];
    stored = new Map();
    Object.defineProperty(globalThis, 'location', { value: new URL('https://shop.test/guides/start#top'), configurable: true, writable: true });
    Object.defineProperty(globalThis, 'localStorage', { value: { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => stored.set(k, v), removeItem: (k: string) => stored.delete(k) }, configurable: true, writable: true });
    globalThis.fetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response('<urlset/>', { headers: { 'content-type': 'application/xml' } });
    }) as typeof fetch;
  });
  afterEach(() => {
    for (const k of ['location', 'localStorage'] as const) {
      const d = saved[k];
      if (d) Object.defineProperty(globalThis, k, d);
      else delete (globalThis as Record<string, unknown>)[k];
    }
    globalThis.fetch = saved.fetch;
  });

  it("requests the sitemap at once, as the crawl's fetcher would: same URL, Accept, credentials, same-origin mode", async () => {
    const head = startSitemapFetch(contextOf({ sitemap: '/sitemap.xml#x', maxPages: 25 }), new AbortController().signal);
    expect(head?.url).to.equal('https://shop.test/sitemap.xml');
    expect(calls).to.have.length(1);
    expect(calls[0]!.url).to.equal('https://shop.test/sitemap.xml');
    expect(calls[0]!.init).to.include({ method: 'GET', credentials: 'omit', mode: 'same-origin', redirect: 'follow' });
    expect(calls[0]!.init.headers).to.deep.equal({ Accept: FETCH_ACCEPT.xml });
    expect(await (await head!.response).text()).to.equal('<urlset/>');
    const withCookies = startSitemapFetch(contextOf({ sitemap: '/sitemap.xml', credentials: 'same-origin' }), new AbortController().signal);
    expect(withCookies?.credentials).to.equal('same-origin');
    expect(calls[1]!.init.credentials).to.equal('same-origin');
  });

  it('requests nothing where the crawl would not request the sitemap first, or not at all', () => {
    const signal = new AbortController().signal;
    expect(startSitemapFetch(contextOf({ sitemap: 'https://other.test/sitemap.xml' }), signal)).to.equal(null); // never another origin
    expect(startSitemapFetch(contextOf({ sitemap: '/sitemap.xml', maxPages: 1 }), signal)).to.equal(null); // the live page may be all
    expect(startSitemapFetch(contextOf({ urls: ['/a', '/b'] }), signal)).to.equal(null); // no sitemap
    expect(startSitemapFetch(normalizeConfig({ apiKey: KEY }).config.context, signal)).to.equal(null); // the page alone
    const aborted = new AbortController();
    aborted.abort();
    expect(startSitemapFetch(contextOf({ sitemap: '/sitemap.xml' }), aborted.signal)).to.equal(null);
    // The page cache may hold it (a fresh copy answers with no request, a stale one is revalidated): the crawl asks it.
    stored.set('kit-page-cache:stored', '1');
    expect(startSitemapFetch(contextOf({ sitemap: '/sitemap.xml' }), signal)).to.equal(null);
    // … but a crawl with the visitor's cookies never uses the cache.
    expect(startSitemapFetch(contextOf({ sitemap: '/sitemap.xml', credentials: 'same-origin' }), signal)).to.not.equal(null);
    expect(calls.map((c) => c.url)).to.deep.equal(['https://shop.test/sitemap.xml']);
  });

  it("is cancelled by the instance's lifetime", async () => {
    let seen: AbortSignal | undefined;
    globalThis.fetch = ((_url: string, init: RequestInit) => { seen = init.signal ?? undefined; return new Promise(() => undefined); }) as typeof fetch;
    const lifetime = new AbortController();
    startSitemapFetch(contextOf({ sitemap: '/sitemap.xml' }), lifetime.signal);
    expect(seen?.aborted).to.equal(false);
    lifetime.abort();
    expect(seen?.aborted).to.equal(true);
  });

  describe('adoptingFetch (the crawl takes the request over)', () => {
    const head = (): SitemapHeadStart & { aborted: () => boolean } => {
      let aborted = false;
      return { url: 'https://shop.test/sitemap.xml', credentials: 'omit', response: Promise.resolve(new Response('<urlset><url><loc>https://shop.test/a</loc></url></urlset>', { headers: { 'content-type': 'application/xml' } })), abort: () => { aborted = true; }, aborted: () => aborted };
    };
    const request = { url: 'https://shop.test/sitemap.xml', timeoutMs: 5_000, credentials: 'omit' as const, maxBytes: 1_000_000, accept: 'xml' as const };

    it("answers the crawl's first request of that sitemap with the head start's response, read as any other; then fetches", async () => {
      const next: string[] = [];
      const fetcher = createFetchPageFetcher({ documentOrigin: 'https://shop.test', fetch: adoptingFetch(head(), async (url) => { next.push(String(url)); return new Response('<urlset/>', { headers: { 'content-type': 'application/xml' } }); }) });
      const first = await fetcher.fetch(request);
      expect(first.ok && first.value).to.deep.include({ status: 200, url: 'https://shop.test/sitemap.xml', contentType: 'application/xml', text: '<urlset><url><loc>https://shop.test/a</loc></url></urlset>' });
      expect(next).to.deep.equal([]);
      const again = await fetcher.fetch(request); // taken once: a second request of it is a request
      expect(again.ok && again.value.text).to.equal('<urlset/>');
      expect(next).to.deep.equal(['https://shop.test/sitemap.xml']);
    });

    it('leaves every other request to fetch: another URL, Accept or credentials, or a conditional request', async () => {
      const next: string[] = [];
      const h = head();
      const fetcher = createFetchPageFetcher({ documentOrigin: 'https://shop.test', fetch: adoptingFetch(h, async (url, init) => { next.push(`${String(url)} ${(init?.headers as Record<string, string>).Accept === FETCH_ACCEPT.xml ? 'xml' : 'other'} ${init?.credentials}`); return new Response(''); }) });
      await fetcher.fetch({ ...request, url: 'https://shop.test/other.xml' });
      await fetcher.fetch({ ...request, accept: 'html' });
      await fetcher.fetch({ ...request, credentials: 'same-origin' });
      await fetcher.fetch({ ...request, validators: { etag: '"1"', lastModified: null } });
      expect(next).to.deep.equal(['https://shop.test/other.xml xml omit', 'https://shop.test/sitemap.xml other omit', 'https://shop.test/sitemap.xml xml same-origin', 'https://shop.test/sitemap.xml xml omit']);
      expect(h.aborted()).to.equal(false);
    });

    it("cancels the head start's request with the crawl's request (its timeout, the crawl's abort)", async function () {
      this.timeout(2_000); // a request never cancelled never settles
      // A response that never comes, until its request is cancelled (as fetch's signal would).
      let cancel!: (err: unknown) => void;
      let aborted = false;
      const pending: SitemapHeadStart = { url: request.url, credentials: 'omit', response: new Promise((_r, reject) => { cancel = reject; }), abort: () => { aborted = true; cancel(new DOMException('aborted', 'AbortError')); } };
      const fetcher = createFetchPageFetcher({ documentOrigin: 'https://shop.test', fetch: adoptingFetch(pending) });
      const result = await fetcher.fetch({ ...request, timeoutMs: 20 });
      expect(!result.ok && result.code).to.equal('timeout');
      expect(aborted).to.equal(true);
    });
  });
});
