/**
 * Issue 12 goals 6–7, by design rather than by the clock: the SDK hands the main thread back to the page between
 * slices of its work (a crawled page, a slice of redaction, the corpus), so no one task holds the page for the whole
 * crawl. Timings (long tasks, ratios to DocSearch and to fetch + DOMParser) are `npm run bench -- sdk-page`'s job;
 * this test counts the yields themselves, through the browser's own `scheduler.yield`.
 */
import { expect } from 'chai';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, newTestPage } from '../support/chromium.js';
import { ensureSdkBuilt, startKitServer, type KitServer } from './support/kit-server.js';
import { startSiteServer, type SiteServer } from './support/site-server.js';

const PAGES = 30;

function sitePage(i: number, kitUrl: string | null): string {
  const paragraphs = Array.from({ length: 6 }, (_, k) => `<p>Guide ${i}, part ${k}: the Ridgeline ${i} tent pitches with two trekking poles and weighs ${800 + i} grams; seam sealing takes an afternoon.</p>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Guide ${i}</title></head><body>
<header><nav><a href="/">Home</a> <a href="/g1">Guide 1</a></nav></header>
<main><article><h1>Guide ${i}</h1>${paragraphs}</article></main><footer>© Test site</footer>
${kitUrl ? `<script src="${kitUrl}/sdk/kit.js"></script>` : ''}</body></html>`;
}

describe('SDK main-thread slices (Chromium + real server)', function () {
  this.timeout(240_000);
  let kit: KitServer;
  let key: string;
  let site: SiteServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ensureSdkBuilt();
    kit = await startKitServer();
    ({ key } = await kit.developerKey([]));
    site = await startSiteServer();
    for (let i = 1; i <= PAGES; i++) site.set(`/g${i}`, sitePage(i, null));
    site.set('/start', sitePage(0, kit.url));
    site.set('/sitemap.xml', `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${
      Array.from({ length: PAGES }, (_, i) => `<url><loc>${site.origin}/g${i + 1}</loc></url>`).join('')}</urlset>`);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await kit?.stop();
  });
  beforeEach(async () => {
    page = await newTestPage(browser);
    // Counts the yields the page's scripts make: scheduler.yield() (Chromium has it; Kit prefers it), and the
    // MessageChannel tasks of adapters/browser/yield-to-main.ts's yieldBehindTasks (the crawl's extraction yields so):
    // each is a message posted on a MessagePort (one channel serves them all).
    await page.addInitScript(() => {
      const w = window as unknown as { __yields: number; scheduler?: { yield(): Promise<void> }; MessagePort: typeof MessagePort };
      w.__yields = 0;
      const s = w.scheduler;
      if (s?.yield) {
        const original = s.yield.bind(s);
        s.yield = () => { w.__yields++; return original(); };
      }
      const proto = w.MessagePort.prototype as unknown as { postMessage(...args: unknown[]): void };
      const post = proto.postMessage;
      proto.postMessage = function (this: MessagePort, ...args: unknown[]) { w.__yields++; post.apply(this, args); };
    });
  });
  afterEach(async () => { await page?.close(); });

  const start = async (options: Record<string, unknown>) => {
    await page.goto(`${site.origin}/start`);
    expect(await page.evaluate(() => typeof (window as unknown as { scheduler?: { yield?: unknown } }).scheduler?.yield)).to.equal('function');
    return page.evaluate((options) => new Promise<{ pages: number; yields: number }>((resolve, reject) => {
      const w = window as unknown as { Kit: { init(o: unknown): { on(e: string, f: (p: any) => void): void } }; __yields: number };
      const before = w.__yields;
      const instance = w.Kit.init(options);
      instance.on('ready', (r) => resolve({ pages: r.context.pages, yields: w.__yields - before }));
      instance.on('error', (e) => { if (e.code !== 'network_error') reject(new Error(JSON.stringify(e))); });
    }), options);
  };

  it('yields to the page at least once per crawled page', async () => {
    const r = await start({ apiKey: key, mode: 'remote', context: { sitemap: '/sitemap.xml', maxPages: PAGES + 1 } });
    expect(r.pages).to.equal(PAGES + 1);
    expect(r.yields).to.be.at.least(PAGES);
  });

  it('still yields per page with redaction on (the pages are masked in slices)', async () => {
    const r = await start({ apiKey: key, mode: 'remote', redact: true, context: { sitemap: '/sitemap.xml', maxPages: PAGES + 1 } });
    expect(r.pages).to.equal(PAGES + 1);
    expect(r.yields).to.be.at.least(PAGES);
  });

  it('keeps the page cache within maxEntries with one eviction after a burst of writes, reading no page back', async () => {
    const bundle = await build({
      stdin: { contents: "export { withPageCache } from './adapters/browser/idb-page-cache.ts';", resolveDir: process.cwd(), loader: 'ts' },
      bundle: true, format: 'iife', globalName: 'Cache', target: 'es2022', write: false,
    });
    await page.goto(`${site.origin}/g1`);
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    const r = await page.evaluate(async () => {
      const { withPageCache } = (window as any).Cache;
      let calls = 0;
      const inner = { fetch: async (req: { url: string }) => { calls++; return { ok: true, value: { status: 200, url: req.url, contentType: 'text/html', text: `<p>${req.url}</p>`, bytes: 10, truncated: false, validators: { etag: null, lastModified: null } } }; } };
      const cache = withPageCache(inner, { dbName: `kit-test-${Math.random()}`, maxEntries: 3 });
      const get = (i: number) => cache.fetch({ url: `https://a.test/${i}`, credentials: 'omit', accept: 'html', timeoutMs: 1000, maxBytes: 1e6 });
      // IndexedDB reads made while evicting: the page store must not be read, only the sizes.
      const reads: string[] = [];
      const getAll = IDBObjectStore.prototype.getAll;
      IDBObjectStore.prototype.getAll = function (this: IDBObjectStore, ...a: any[]) { reads.push(this.name); return (getAll as any).apply(this, a); };
      for (let i = 0; i < 6; i++) await get(i);
      const fetched = calls;
      await get(5); // fresh: from the cache
      const cached = calls === fetched;
      await cache.evict();
      calls = 0;
      for (let i = 0; i < 6; i++) await get(i);
      return { fetched, cached, refetched: calls, reads };
    });
    expect(r.fetched).to.equal(6);
    expect(r.cached).to.equal(true);
    expect(r.refetched).to.equal(3); // the 3 most recent stayed, the 3 oldest were evicted
    expect(r.reads).to.deep.equal(['meta']);
  });
});
