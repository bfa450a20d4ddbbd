import { expect } from 'chai';
import { CONTEXT_DEFAULTS } from '../../../core/config/defaults.js';
import type { ContextConfig } from '../../../core/config/types.js';
import { crawlSite } from '../../../core/crawl/crawl-site.js';
import type { CrawlOptions, CrawlProgress } from '../../../core/crawl/types.js';
import { fail, ok } from '../../../core/errors/result.js';
import { FakePageFetcher, tagStripExtract, type FakeRoute } from '../../fakes/page-fetcher.fake.js';

const O = 'https://shop.example';
const PAGE = `${O}/docs/start`;
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

function context(overrides: Partial<ContextConfig> = {}): ContextConfig {
  return { ...CONTEXT_DEFAULTS, scope: 'site', urls: [], ...overrides };
}
const html = (title: string, body: string) => `<html><head><title>${title}</title></head><body>${body}</body></html>`;
const urlset = (locs: string[]) => `<?xml version="1.0"?><urlset ${NS}>${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`;
const index = (locs: string[]) => `<sitemapindex ${NS}>${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('')}</sitemapindex>`;
const xml = (body: string): FakeRoute => ({ contentType: 'application/xml', body });
/** n pages /p0…/p(n-1) with distinct text. */
function site(n: number): Record<string, FakeRoute> {
  const routes: Record<string, FakeRoute> = {};
  for (let i = 0; i < n; i++) routes[`${O}/p${i}`] = { body: html(`Page ${i}`, `<p>Text of page ${i}.</p>`) };
  return routes;
}

function crawl(fetcher: FakePageFetcher, ctx: ContextConfig, extra: Partial<CrawlOptions> = {}) {
  return crawlSite({ pageUrl: PAGE, context: ctx, fetcher, extract: tagStripExtract, ...extra });
}

describe('crawlSite', () => {
  it('builds the corpus from the sitemap, live page first and never fetched again', async () => {
    const fetcher = new FakePageFetcher({ ...site(3), [`${O}/sitemap.xml`]: xml(urlset([`${O}/p0`, PAGE, `${O}/p1`, `${O}/p2`])) });
    const progress: CrawlProgress[] = [];
    const result = await crawl(fetcher, context(), { livePage: { url: `${PAGE}#intro`, title: 'Start', text: 'Live page text.' }, onProgress: (p) => progress.push(p) });
    expect(result.pages.map((p) => p.url)).to.deep.equal([PAGE, `${O}/p0`, `${O}/p1`, `${O}/p2`]);
    expect(result.pages[1]).to.deep.equal({ url: `${O}/p0`, title: 'Page 0', text: 'Text of page 0.' });
    expect(fetcher.requests.map((r) => r.url)).to.deep.equal([`${O}/sitemap.xml`, `${O}/p0`, `${O}/p1`, `${O}/p2`]);
    expect(result).to.deep.include({ truncated: { pages: 0, chars: 0 }, requests: 4, aborted: false });
    expect(progress[0]).to.deep.equal({ phase: 'crawl', loaded: 0, total: 3 });
    expect(progress.at(-1)).to.deep.equal({ phase: 'crawl', loaded: 3, total: 3 });
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.loaded).to.be.at.least(progress[i - 1]!.loaded);
  });

  it('drops and counts sitemap entries of other origins without requesting them', async () => {
    const foreign = ['https://evil.example/p0', 'http://shop.example/p1', 'https://shop.example:8443/p2', 'https://sub.shop.example/p3'];
    const fetcher = new FakePageFetcher({ ...site(2), [`${O}/sitemap.xml`]: xml(urlset([...foreign, `${O}/p0`, `${O}/p1`])) });
    const result = await crawl(fetcher, context());
    expect(result.pages.map((p) => p.url)).to.deep.equal([`${O}/p0`, `${O}/p1`]);
    expect(result.counts.cross_origin).to.equal(4);
    expect(fetcher.requestedOrigins()).to.deep.equal([O]);
  });

  it('never requests a sitemap or url on another origin given in the options', async () => {
    const fetcher = new FakePageFetcher({ ...site(1) });
    const result = await crawl(fetcher, context({ scope: 'urls', sitemap: 'https://evil.example/sitemap.xml', urls: ['https://evil.example/x', '/p0'] }));
    expect(fetcher.requests.map((r) => r.url)).to.deep.equal([`${O}/p0`]);
    expect(result.counts.cross_origin).to.equal(2);
  });

  it('fetches each page once when the list repeats it, with fragments or escapes', async () => {
    const fetcher = new FakePageFetcher(site(2));
    const urls = ['/p0', '/p0#a', '/p0#b', `${O}/p0`, '../p0', '/%70%30', '#only-a-fragment', '/p1', '/p1#x'];
    const result = await crawl(fetcher, context({ scope: 'urls', sitemap: null, urls }), { livePage: { url: PAGE, title: 'Start', text: 'Live.' } });
    expect(fetcher.requests.map((r) => r.url)).to.deep.equal([`${O}/p0`, `${O}/p1`]);
    expect(result.pages.map((p) => p.url)).to.deep.equal([PAGE, `${O}/p0`, `${O}/p1`]);
    expect(result.counts.duplicate).to.equal(7); // 5 spellings of /p0, the live page as a bare fragment, /p1#x
  });

  it('drops a page whose redirect leaves the origin, and a same-origin redirect to a page already read', async () => {
    const fetcher = new FakePageFetcher({
      ...site(2),
      [`${O}/out`]: { body: '', redirectTo: 'https://evil.example/landing' },
      'https://evil.example/landing': { body: html('Evil', '<p>Foreign text.</p>') },
      [`${O}/old`]: { body: '', redirectTo: '/p0' },
      [`${O}/moved`]: { body: '', redirectTo: '/p1' },
    });
    const result = await crawl(fetcher, context({ scope: 'urls', sitemap: null, urls: ['/out', '/p0', '/old', '/moved'] }));
    expect(result.pages.map((p) => p.url)).to.deep.equal([`${O}/p0`, `${O}/p1`]);
    expect(result.pages.map((p) => p.text).join(' ')).not.to.include('Foreign');
    expect(result.skipped).to.deep.include({ url: `${O}/out`, reason: 'redirected_cross_origin' });
    expect(result.skipped).to.deep.include({ url: `${O}/old`, reason: 'duplicate' });
    expect(fetcher.requestedOrigins()).to.deep.equal([O]);
  });

  it('drops a sitemap that redirects to another origin', async () => {
    const fetcher = new FakePageFetcher({
      [`${O}/sitemap.xml`]: { body: '', redirectTo: 'https://evil.example/sitemap.xml' },
      'https://evil.example/sitemap.xml': xml(urlset([`${O}/p0`])),
      ...site(1),
    });
    const result = await crawl(fetcher, context());
    expect(result.pages).to.deep.equal([]);
    expect(result.skipped).to.deep.equal([{ url: `${O}/sitemap.xml`, reason: 'redirected_cross_origin' }]);
  });

  it('keeps the live page and reports the sitemap when the sitemap is malformed or an error page', async () => {
    for (const [route, reason] of [
      [xml('<html><body>Oops</body></html>'), 'not_a_sitemap'],
      [xml('\u0000\u0001garbage<<<>>'), 'not_a_sitemap'],
      [{ status: 404, body: 'Not found' }, 'http_error'],
    ] as const) {
      const fetcher = new FakePageFetcher({ [`${O}/sitemap.xml`]: route });
      const result = await crawl(fetcher, context(), { livePage: { url: PAGE, title: 'Start', text: 'Live.' } });
      expect(result.pages.map((p) => p.url)).to.deep.equal([PAGE]);
      expect(result.skipped[0]).to.include({ url: `${O}/sitemap.xml`, reason });
    }
  });

  describe("context 'site' without a sitemap", () => {
    const LINKS = ['/p1', 'https://other.example/x', '/p0', '/brochure.pdf', '#top', 'mailto:a@shop.example', '/p1#again', '/docs/start'];

    it('reads the sitemaps robots.txt names, same-origin only, and says so', async () => {
      const fetcher = new FakePageFetcher({
        ...site(3),
        [`${O}/robots.txt`]: { contentType: 'text/plain', body: `User-agent: *\nDisallow: /cart\nSitemap: https://other.example/sitemap.xml\nSitemap: ${O}/sitemap.xml\nSitemap: /maps/pages.xml\n` },
        [`${O}/maps/pages.xml`]: xml(urlset(['/p2', '/p0'])),
      });
      const result = await crawl(fetcher, context(), { pageLinks: LINKS });
      expect(result.pages.map((p) => p.url)).to.deep.equal([`${O}/p2`, `${O}/p0`]);
      expect(result.sources).to.deep.equal(['robots.txt']);
      expect(fetcher.requestedOrigins()).to.deep.equal([O]);
      const order = fetcher.requests.map((r) => r.url).slice(0, 3);
      expect(order).to.deep.equal([`${O}/sitemap.xml`, `${O}/robots.txt`, `${O}/maps/pages.xml`]); // /sitemap.xml once
      expect(fetcher.requests.find((r) => r.url.endsWith('/robots.txt'))!.accept).to.equal('text');
      expect(result.skipped).to.deep.include({ url: 'https://other.example/sitemap.xml', reason: 'cross_origin' });
    });

    it("falls back to the live page's same-origin links when neither sitemap nor robots.txt lists a page", async () => {
      const fetcher = new FakePageFetcher({ ...site(3), [`${O}/robots.txt`]: { contentType: 'text/plain', body: 'User-agent: *\nDisallow:\n' } });
      const result = await crawl(fetcher, context(), { pageLinks: LINKS, livePage: { url: PAGE, title: 'Start', text: 'Live.' } });
      // Document order, de-duplicated, the live page itself, other origins, files and non-http links left out.
      expect(result.pages.map((p) => p.url)).to.deep.equal([PAGE, `${O}/p1`, `${O}/p0`]);
      expect(result.sources).to.deep.equal(['links']);
      expect(fetcher.requestedOrigins()).to.deep.equal([O]);
      expect(fetcher.requests.some((r) => r.url.endsWith('.pdf'))).to.equal(false);
      // Links are not the site's mistakes: only the missing sitemap is reported.
      expect(result.skipped).to.deep.equal([{ url: `${O}/sitemap.xml`, reason: 'http_error', status: 404 }]);
    });

    it('keeps to the sitemap when there is one, even with few pages, and never asks robots.txt', async () => {
      const fetcher = new FakePageFetcher({ ...site(3), [`${O}/sitemap.xml`]: xml(urlset(['/p2'])) });
      const result = await crawl(fetcher, context(), { pageLinks: LINKS });
      expect(result.pages.map((p) => p.url)).to.deep.equal([`${O}/p2`]);
      expect(result.sources).to.deep.equal(['sitemap']);
      expect(fetcher.requests.map((r) => r.url)).to.deep.equal([`${O}/sitemap.xml`, `${O}/p2`]);
    });

    it('uses neither robots.txt nor links for an explicit url list', async () => {
      const fetcher = new FakePageFetcher({ ...site(3) });
      const result = await crawl(fetcher, context({ scope: 'urls', sitemap: null, urls: ['/p0'] }), { pageLinks: LINKS });
      expect(result.pages.map((p) => p.url)).to.deep.equal([`${O}/p0`]);
      expect(result.sources).to.deep.equal(['urls']);
      expect(fetcher.requests.map((r) => r.url)).to.deep.equal([`${O}/p0`]);
    });

    it('reads at most maxPageLinks links and maxRobotsBytes of robots.txt', async () => {
      const many = Array.from({ length: 50 }, (_, i) => `/p${i}`);
      const fetcher = new FakePageFetcher({ ...site(50), [`${O}/robots.txt`]: { contentType: 'text/plain', body: '#'.repeat(100) + '\nSitemap: /late.xml\n' }, [`${O}/late.xml`]: xml(urlset(['/p9'])) });
      const result = await crawl(fetcher, context({ maxPages: 100 }), { pageLinks: many, limits: { maxPageLinks: 5, maxRobotsBytes: 64 } });
      expect(result.sources).to.deep.equal(['links']);
      expect(result.pages.map((p) => p.url)).to.deep.equal(many.slice(0, 5).map((p) => O + p));
    });
  });

  it('uses the complete entries of a sitemap cut mid-way and says so', async () => {
    const fetcher = new FakePageFetcher({ ...site(3), [`${O}/sitemap.xml`]: xml(urlset([`${O}/p0`, `${O}/p1`]).replace('</urlset>', `<url><loc>${O}/p`)) });
    const result = await crawl(fetcher, context());
    expect(result.pages.map((p) => p.url)).to.deep.equal([`${O}/p0`, `${O}/p1`]);
    expect(result.counts.sitemap_truncated).to.equal(1);
  });

  it('follows nested sitemap indexes within the depth bound and survives cycles', async () => {
    const fetcher = new FakePageFetcher({
      ...site(4),
      [`${O}/sitemap.xml`]: xml(index(['/s1.xml', '/sitemap.xml', '/s2.xml'])),
      [`${O}/s1.xml`]: xml(urlset([`${O}/p0`])),
      [`${O}/s2.xml`]: xml(index(['/s3.xml'])),
      [`${O}/s3.xml`]: xml(index([`${O}/s4.xml`])),
      [`${O}/s4.xml`]: xml(urlset([`${O}/p3`])),
    });
    const result = await crawl(fetcher, context(), { limits: { maxSitemapDepth: 2 } });
    expect(result.pages.map((p) => p.url)).to.deep.equal([`${O}/p0`]);
    expect(result.skipped).to.deep.include({ url: `${O}/sitemap.xml`, reason: 'duplicate' });
    expect(result.skipped).to.deep.include({ url: `${O}/s4.xml`, reason: 'sitemap_limit' });
    expect(fetcher.requests.map((r) => r.url)).not.to.include(`${O}/s4.xml`);
  });

  it('fetches at most maxSitemapFiles sitemaps from an index listing thousands', async () => {
    const children = Array.from({ length: 5000 }, (_, i) => `/s${i}.xml`);
    const fetcher = new FakePageFetcher({ [`${O}/sitemap.xml`]: xml(index(children)) });
    const result = await crawl(fetcher, context());
    expect(fetcher.requests).to.have.length(16);
    expect(result.counts.http_error).to.equal(15);
    expect(result.counts.sitemap_limit).to.equal(5000 - 15);
    expect(result.skipped).to.have.length(100);
  });

  it('reads a 50 MB sitemap only up to the byte cap and fetches at most maxPages', async () => {
    const entry = (i: number) => `<url><loc>${O}/p${i}</loc><lastmod>2024-01-01</lastmod></url>\n`;
    let asked = 0;
    // A sitemap of 50 MB: the fake streams only what the request's byte cap allows, as the real fetcher does.
    const huge: FakeRoute = (request) => {
      asked = request.maxBytes;
      let text = `<urlset ${NS}>`;
      for (let i = 0; text.length < request.maxBytes; i++) text += entry(i);
      return ok({ status: 200, url: request.url, contentType: 'application/xml', text: text.slice(0, request.maxBytes), bytes: request.maxBytes, truncated: true, validators: { etag: null, lastModified: null } });
    };
    const fetcher = new FakePageFetcher({ ...site(30), [`${O}/sitemap.xml`]: huge });
    const result = await crawl(fetcher, context({ maxPages: 25 }), { limits: { maxSitemapBytes: 1_000_000 } });
    expect(asked).to.equal(1_000_000);
    expect(result.pages).to.have.length(25);
    expect(fetcher.requests).to.have.length(26);
    expect(result.counts.sitemap_truncated).to.equal(1);
    expect(result.truncated.pages).to.equal(1000 - 25); // maxCandidates kept, the rest of the sitemap never considered
  });

  it('bounds its work even when a fetcher ignores the byte cap and returns 50 MB', async () => {
    const entry = `<url><loc>${O}/p0</loc></url>`;
    const body = `<urlset ${NS}>` + entry.repeat(Math.ceil(50_000_000 / entry.length));
    const rogue: FakeRoute = (request) => ok({ status: 200, url: request.url, contentType: 'text/xml', text: body, bytes: body.length, truncated: false, validators: { etag: null, lastModified: null } });
    const fetcher = new FakePageFetcher({ ...site(1), [`${O}/sitemap.xml`]: rogue });
    const result = await crawl(fetcher, context(), { limits: { maxSitemapBytes: 500_000 } });
    expect(result.pages.map((p) => p.url)).to.deep.equal([`${O}/p0`]);
    expect(result.counts.duplicate).to.be.below(500_000 / entry.length);
  });

  it('caps maxPages at 100 whatever the context says, and replaces failed fetches by further candidates', async () => {
    const routes = site(150);
    for (let i = 0; i < 10; i++) routes[`${O}/p${i}`] = { status: 500, body: 'err' };
    const fetcher = new FakePageFetcher({ ...routes, [`${O}/sitemap.xml`]: xml(urlset(Array.from({ length: 150 }, (_, i) => `${O}/p${i}`))) });
    const result = await crawl(fetcher, context({ maxPages: 500, concurrency: 8 }), { livePage: { url: PAGE, title: 'S', text: 'Live.' } });
    expect(result.pages).to.have.length(100);
    expect(result.pages[1]!.url).to.equal(`${O}/p10`);
    expect(result.counts.http_error).to.equal(10);
    expect(result.skipped[0]).to.deep.equal({ url: `${O}/p0`, reason: 'http_error', status: 500 });
    expect(fetcher.requests.length).to.equal(1 + 109);
    expect(result.truncated.pages).to.equal(150 - 109);
  });

  it('keeps at most `concurrency` fetches in flight', async () => {
    const fetcher = new FakePageFetcher({ ...site(12), [`${O}/sitemap.xml`]: xml(urlset(Array.from({ length: 12 }, (_, i) => `/p${i}`))) }, { delayMs: 5 });
    const result = await crawl(fetcher, context({ concurrency: 3 }));
    expect(result.pages).to.have.length(12);
    expect(fetcher.maxInFlight).to.equal(3);
    expect(result.pages.map((p) => p.url)).to.deep.equal(Array.from({ length: 12 }, (_, i) => `${O}/p${i}`));
  });

  it('keeps fetching while pages wait for a slow extractor, never over `concurrency` requests, same corpus', async () => {
    const routes = { ...site(8), [`${O}/sitemap.xml`]: xml(urlset(Array.from({ length: 8 }, (_, i) => `/p${i}`))) };
    const fetcher = new FakePageFetcher(routes, { delayMs: 2 });
    const requestedAtExtraction: number[] = [];
    const slowExtract = async (h: string) => {
      requestedAtExtraction.push(fetcher.requests.length - 1); // pages requested so far (not the sitemap)
      await new Promise((r) => setTimeout(r, 15));
      return tagStripExtract(h);
    };
    const result = await crawl(fetcher, context({ concurrency: 2 }), { extract: slowExtract });
    expect(fetcher.maxInFlight).to.equal(2);
    // Extracting page 3 while pages beyond the 2 slots of a fetch-then-extract crawl were already requested.
    expect(requestedAtExtraction[2]).to.be.at.least(5);
    const plain = await crawl(new FakePageFetcher(routes), context({ concurrency: 2 }));
    expect(result).to.deep.equal(plain);
  });

  it('requests no page past the corpus cap while pages wait for the extractor', async () => {
    const words = (n: number, w: string) => Array.from({ length: n }, () => w).join(' ');
    const fetcher = new FakePageFetcher(Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((k) => [`${O}/${k}`, { body: html(k, words(100, `${k}word`)) }])));
    const slowExtract = async (h: string) => { await new Promise((r) => setTimeout(r, 10)); return tagStripExtract(h); };
    const result = await crawl(fetcher, context({ scope: 'urls', sitemap: null, urls: ['/a', '/b', '/c', '/d', '/e'], maxCharsPerPage: 300, maxCorpusChars: 700, concurrency: 2 }), { extract: slowExtract });
    expect(result.pages.map((p) => p.url)).to.deep.equal([`${O}/a`, `${O}/b`]);
    // c and d: launched by the two slots while the corpus held less than the cap (as without pipelining); e never.
    expect(fetcher.requests.map((r) => r.url)).to.not.include(`${O}/e`);
  });

  describe('with a limiting fetcher (it runs `concurrency` requests and holds the others until a slot frees)', () => {
    /** Runs at most limit(n) fetches of `inner` at once, the others in order as slots free; counts what it holds. */
    class LimitingFake {
      outstanding = 0;
      maxOutstanding = 0;
      limits: number[] = [];
      #max = Infinity;
      #running = 0;
      #held: (() => void)[] = [];
      constructor(readonly inner: FakePageFetcher) {}
      limit(n: number) { this.limits.push(n); this.#max = n; }
      async fetch(request: Parameters<FakePageFetcher['fetch']>[0]) {
        this.outstanding++;
        this.maxOutstanding = Math.max(this.maxOutstanding, this.outstanding);
        if (this.#running >= this.#max) await new Promise<void>((r) => this.#held.push(r));
        this.#running++;
        try {
          return await this.inner.fetch(request);
        } finally {
          this.#running--;
          this.outstanding--;
          this.#held.shift()?.();
        }
      }
    }
    const limited = (f: LimitingFake, ctx: ContextConfig, extra: Partial<CrawlOptions> = {}) =>
      crawlSite({ pageUrl: PAGE, context: ctx, fetcher: f, extract: tagStripExtract, ...extra });

    it('hands it up to `concurrency` requests ahead, never more than `concurrency` run at once: same result', async () => {
      const routes = { ...site(16), [`${O}/sitemap.xml`]: xml(urlset(Array.from({ length: 16 }, (_, i) => `/p${i}`))) };
      const slowExtract = async (h: string) => { await new Promise((r) => setTimeout(r, 6)); return tagStripExtract(h); };
      const f = new LimitingFake(new FakePageFetcher(routes, { delayMs: 3 }));
      const result = await limited(f, context({ concurrency: 3 }), { extract: slowExtract });
      expect(f.limits).to.deep.equal([3]);
      expect(f.inner.maxInFlight).to.equal(3);
      expect(f.maxOutstanding).to.be.within(4, 6);
      const plain = await crawl(new FakePageFetcher(routes), context({ concurrency: 3 }));
      expect(result).to.deep.equal(plain);
      expect(f.inner.requests.map((r) => r.url)).to.deep.equal([`${O}/sitemap.xml`, ...Array.from({ length: 16 }, (_, i) => `${O}/p${i}`)]);
    });

    it('requests no page past the corpus cap: the pages a fetch-then-extract crawl would request, no more', async () => {
      const words = (n: number, w: string) => Array.from({ length: n }, () => w).join(' ');
      const routes = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((k) => [`${O}/${k}`, { body: html(k, words(100, `${k}word`)) }]));
      const slowExtract = async (h: string) => { await new Promise((r) => setTimeout(r, 10)); return tagStripExtract(h); };
      const ctx = context({ scope: 'urls', sitemap: null, urls: ['/a', '/b', '/c', '/d', '/e', '/f'], maxCharsPerPage: 300, maxCorpusChars: 700, concurrency: 2 });
      const f = new LimitingFake(new FakePageFetcher(routes, { delayMs: 2 }));
      const result = await limited(f, ctx, { extract: slowExtract });
      const plain = new FakePageFetcher(routes, { delayMs: 2 });
      expect(result).to.deep.equal(await crawl(plain, ctx, { extract: slowExtract }));
      expect(f.inner.requests.map((r) => r.url)).to.deep.equal(plain.requests.map((r) => r.url));
      expect(f.inner.requests.map((r) => r.url)).to.not.include(`${O}/e`);
    });

    it('gives a request it holds its own fetchTimeoutMs from when it starts, not from when it was handed over', async () => {
      const answer = (path: string, ms: number): FakeRoute => async () => {
        await new Promise((r) => setTimeout(r, ms));
        const body = html(path, `<p>Text of ${path}.</p>`);
        return ok({ url: `${O}${path}`, status: 200, contentType: 'text/html', text: body, bytes: body.length, truncated: false, validators: { etag: null, lastModified: null } });
      };
      // One slot: /b waits ~60 ms for /a, then takes ~60 ms itself — over fetchTimeoutMs since handed over, within it since started.
      const f = new LimitingFake(new FakePageFetcher({ [`${O}/a`]: answer('/a', 60), [`${O}/b`]: answer('/b', 60) }));
      const result = await limited(f, context({ scope: 'urls', sitemap: null, urls: ['/a', '/b'], concurrency: 1, fetchTimeoutMs: 100 }));
      expect(f.maxOutstanding).to.equal(2);
      expect(result.skipped).to.deep.equal([]);
      expect(result.pages.map((p) => p.url)).to.deep.equal([`${O}/a`, `${O}/b`]);
    });
  });

  it('hands over each page once it is final, while the crawl goes on: the result\'s pages, in its order, cuts included', async () => {
    const words = (n: number, w: string) => Array.from({ length: n }, () => w).join(' ');
    let p4Answered = false;
    const slow = (path: string, body: string, ms: number, then = () => {}): FakeRoute => async () => {
      await new Promise((r) => setTimeout(r, ms));
      then();
      return ok({ url: `${O}${path}`, status: 200, contentType: 'text/html', text: body, bytes: body.length, truncated: false, validators: { etag: null, lastModified: null } });
    };
    // p0 answers after p2 and p3, p1 fails, p4 is slow and cut to what is left of maxCorpusChars.
    const routes: Record<string, FakeRoute> = {
      [`${O}/p0`]: slow('/p0', html('P0', words(100, 'alpha')), 20),
      [`${O}/p1`]: { body: 'gone', status: 404 },
      [`${O}/p2`]: { body: html('P2', words(100, 'bravo')) },
      [`${O}/p3`]: { body: html('P3', words(100, 'charl')) },
      [`${O}/p4`]: slow('/p4', html('P4', words(100, 'delta')), 60, () => { p4Answered = true; }),
    };
    const options = (onPage?: CrawlOptions['onPage']) => ({ livePage: { url: PAGE, title: 'Start', text: 'Live page text.' }, ...(onPage && { onPage }) });
    const ctx = context({ scope: 'urls', sitemap: null, urls: ['/p0', '/p1', '/p2', '/p3', '/p4'], maxCorpusChars: 2_200, concurrency: 2 });
    const handed: { url: string; text: string; beforeP4: boolean }[] = [];
    const result = await crawl(new FakePageFetcher(routes, { delayMs: 2 }), ctx, options((p) => handed.push({ url: p.url, text: p.text, beforeP4: !p4Answered })));
    expect(handed.map(({ url, text }) => ({ url, text }))).to.deep.equal(result.pages.map(({ url, text }) => ({ url, text })));
    expect(result.pages.map((p) => p.url)).to.deep.equal([PAGE, `${O}/p0`, `${O}/p2`, `${O}/p3`, `${O}/p4`]);
    expect(result.pages[4]!.text.length).to.be.below(599);
    expect(handed.map((h) => h.beforeP4)).to.deep.equal([true, true, true, true, false]);
    p4Answered = false;
    expect(result).to.deep.equal(await crawl(new FakePageFetcher(routes, { delayMs: 2 }), ctx, options()));
  });

  it('gives up on a fetch after fetchTimeoutMs and goes on with the others', async () => {
    const fetcher = new FakePageFetcher({ ...site(2), [`${O}/slow`]: () => new Promise(() => {}) });
    const started = Date.now();
    const result = await crawl(fetcher, context({ scope: 'urls', sitemap: null, urls: ['/slow', '/p0', '/p1'], fetchTimeoutMs: 50 }));
    expect(Date.now() - started).to.be.below(1000);
    expect(result.pages.map((p) => p.url)).to.deep.equal([`${O}/p0`, `${O}/p1`]);
    expect(result.skipped).to.deep.equal([{ url: `${O}/slow`, reason: 'timeout' }]);
    expect(fetcher.requests[0]!.timeoutMs).to.equal(50);
  });

  it('cuts each page to maxCharsPerPage and the corpus to maxCorpusChars, reporting what was cut', async () => {
    const words = (n: number, w: string) => Array.from({ length: n }, () => w).join(' ');
    const fetcher = new FakePageFetcher({
      [`${O}/a`]: { body: html('A', words(100, 'alpha')) }, // 599 chars
      [`${O}/b`]: { body: html('B', words(100, 'bravo')) },
      [`${O}/c`]: { body: html('C', words(100, 'charl')) },
      [`${O}/d`]: { body: html('D', words(100, 'delta')) },
    });
    const result = await crawl(fetcher, context({ scope: 'urls', sitemap: null, urls: ['/a', '/b', '/c', '/d'], maxCharsPerPage: 300, maxCorpusChars: 700, concurrency: 1 }));
    const lengths = result.pages.map((p) => p.text.length);
    expect(lengths).to.deep.equal([299, 299]);
    expect(lengths.reduce((a, b) => a + b)).to.be.at.most(700);
    // Pages a, b: 300 cut each; page c: fetched while budget remained, then dropped (299 kept chars) since 102 < 200 remain.
    expect(result.pages.map((p) => p.url)).to.deep.equal([`${O}/a`, `${O}/b`]);
    expect(fetcher.requests.map((r) => r.url)).to.deep.equal([`${O}/a`, `${O}/b`, `${O}/c`]);
    expect(result.truncated).to.deep.equal({ pages: 2, chars: 300 + 300 + 599 });
  });

  it('keeps a cut part of a page while enough of the corpus budget remains', async () => {
    const fetcher = new FakePageFetcher({ [`${O}/a`]: { body: html('A', 'word '.repeat(200)) }, [`${O}/b`]: { body: html('B', 'more '.repeat(200)) } });
    const result = await crawl(fetcher, context({ scope: 'urls', sitemap: null, urls: ['/a', '/b'], maxCorpusChars: 1500 }));
    expect(result.pages.map((p) => p.text.length)).to.deep.equal([999, 499]);
    expect(result.truncated).to.deep.equal({ pages: 0, chars: 1000 - 500 });
  });

  it('lists pages it could not read with the reason, and counts every kind', async () => {
    const fetcher = new FakePageFetcher({
      [`${O}/pdf`]: { contentType: 'application/pdf', body: '%PDF-1.4' },
      [`${O}/blank`]: { body: html('Blank', '   ') },
      [`${O}/txt`]: { contentType: 'text/plain', body: 'Plain  text page.' },
      [`${O}/boom`]: { body: html('Boom', 'x') },
      [`${O}/net`]: () => fail('network', 'refused'),
      [`${O}/throws`]: () => { throw new Error('fetcher bug'); },
    });
    const extract = (h: string, url: string) => { if (url.endsWith('/boom')) throw new Error('parser bug'); return tagStripExtract(h); };
    const result = await crawl(fetcher, context({ scope: 'urls', sitemap: null, urls: ['/pdf', '/blank', '/txt', '/boom', '/net', '/throws', '/missing'] }), { extract });
    expect(result.pages).to.deep.equal([{ url: `${O}/txt`, title: 'txt', text: 'Plain  text page.' }]);
    expect(result.skipped).to.deep.equal([
      { url: `${O}/pdf`, reason: 'unsupported_type' },
      { url: `${O}/blank`, reason: 'empty' },
      { url: `${O}/boom`, reason: 'extract_failed' },
      { url: `${O}/net`, reason: 'network' },
      { url: `${O}/throws`, reason: 'network' },
      { url: `${O}/missing`, reason: 'http_error', status: 404 },
    ].sort((a, b) => result.skipped.findIndex((s) => s.url === a.url) - result.skipped.findIndex((s) => s.url === b.url)));
    expect(result.skipped).to.have.length(6);
  });

  it('stops at once and returns what it has when aborted', async () => {
    const controller = new AbortController();
    const fetcher = new FakePageFetcher({
      ...site(1),
      [`${O}/hang`]: () => new Promise(() => {}),
      [`${O}/hang2`]: () => new Promise(() => {}),
      [`${O}/sitemap.xml`]: xml(urlset(['/p0', '/hang', '/hang2', '/hang3'])),
    });
    setTimeout(() => controller.abort(), 30);
    const started = Date.now();
    const result = await crawl(fetcher, context({ concurrency: 2 }), { signal: controller.signal });
    expect(Date.now() - started).to.be.below(1000);
    expect(result.aborted).to.equal(true);
    expect(result.pages.map((p) => p.url)).to.deep.equal([`${O}/p0`]);
    expect(fetcher.requests.map((r) => r.url)).not.to.include(`${O}/hang3`);
  });

  it("makes no request for context 'page'", async () => {
    const fetcher = new FakePageFetcher(site(2));
    const result = await crawl(fetcher, { ...context(), scope: 'page', sitemap: null, maxPages: 1 }, { livePage: { url: PAGE, title: 'S', text: 'Live text.' } });
    expect(fetcher.requests).to.deep.equal([]);
    expect(result.pages).to.deep.equal([{ url: PAGE, title: 'S', text: 'Live text.' }]);
  });

  it('makes no request when maxPages is 1 and the live page fills it', async () => {
    const fetcher = new FakePageFetcher({ ...site(1), [`${O}/sitemap.xml`]: xml(urlset(['/p0'])) });
    const result = await crawl(fetcher, context({ maxPages: 1 }), { livePage: { url: PAGE, title: 'S', text: 'Live text.' } });
    expect(fetcher.requests).to.deep.equal([]);
    expect(result.pages.map((p) => p.url)).to.deep.equal([PAGE]);
  });

  it('passes credentials, timeout and byte cap through to every fetch', async () => {
    const fetcher = new FakePageFetcher({ ...site(1), [`${O}/sitemap.xml`]: xml(urlset(['/p0'])) });
    await crawl(fetcher, context({ credentials: 'same-origin', fetchTimeoutMs: 1234 }), { limits: { maxPageBytes: 777 } });
    expect(fetcher.requests.map((r) => [r.credentials, r.timeoutMs, r.accept])).to.deep.equal([['same-origin', 1234, 'xml'], ['same-origin', 1234, 'html']]);
    expect(fetcher.requests[1]!.maxBytes).to.equal(777);
  });

  describe('with the live page still being read (a promise)', () => {
    const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
    const routes = () => ({ ...site(5), [`${O}/sitemap.xml`]: xml(urlset(Array.from({ length: 5 }, (_, i) => `/p${i}`))) });

    it('plans and fetches meanwhile, and gives the same corpus as with the page in hand', async () => {
      const fetcher = new FakePageFetcher(routes());
      let requestsBeforeLive = -1;
      const livePage = later({ url: PAGE, title: 'Start', text: 'Live.' }, 30).then((p) => { requestsBeforeLive = fetcher.requests.length; return p; });
      const pending = await crawl(fetcher, context({ maxPages: 4 }), { livePage });
      const inHand = await crawl(new FakePageFetcher(routes()), context({ maxPages: 4 }), { livePage: { url: PAGE, title: 'Start', text: 'Live.' } });
      expect(requestsBeforeLive).to.equal(4); // the sitemap and 3 pages, none waiting for the live page
      expect(pending).to.deep.equal(inHand);
      expect(pending.pages.map((p) => p.url)).to.deep.equal([PAGE, `${O}/p0`, `${O}/p1`, `${O}/p2`]);
    });

    it('fetches one page more when the live page turns out to have no text', async () => {
      const fetcher = new FakePageFetcher(routes());
      const result = await crawl(fetcher, context({ maxPages: 4 }), { livePage: later(undefined, 30) });
      expect(result.pages.map((p) => p.url)).to.deep.equal([`${O}/p0`, `${O}/p1`, `${O}/p2`, `${O}/p3`]);
      const blank = await crawl(new FakePageFetcher(routes()), context({ maxPages: 4 }), { livePage: later({ url: PAGE, title: 'S', text: '  ' }, 5) });
      expect(blank.pages).to.have.length(4);
      expect(blank.skipped).to.deep.equal([{ url: PAGE, reason: 'empty' }]);
    });

    it('waits for it when maxPages is 1, and makes no request when it has text', async () => {
      const fetcher = new FakePageFetcher(routes());
      const result = await crawl(fetcher, context({ maxPages: 1 }), { livePage: later({ url: PAGE, title: 'S', text: 'Live text.' }, 10) });
      expect(fetcher.requests).to.deep.equal([]);
      expect(result.pages.map((p) => p.url)).to.deep.equal([PAGE]);
    });
  });

  it('throws only when the page URL itself is not http(s)', async () => {
    let error: unknown;
    try {
      await crawlSite({ pageUrl: 'file:///etc/passwd', context: context(), fetcher: new FakePageFetcher({}), extract: tagStripExtract });
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(TypeError);
  });
});
