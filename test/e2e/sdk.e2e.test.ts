/**
 * The SDK end to end (issue 6 §9): real Chromium, the real Kit server (child process, embedded database), the built
 * SDK bundles it serves, and loopback websites. Only the local model is faked (no weights on this machine), behind
 * the SDK's `localEngine` host port.
 */
import { expect } from 'chai';
import { build } from 'esbuild';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createKitProxy } from '../../adapters/node/kit-proxy.js';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, newTestPage } from '../support/chromium.js';
import { ensureSdkBuilt, startKitServer, type KitServer } from './support/kit-server.js';
import { articlePage, startSiteServer, type SiteServer } from './support/site-server.js';

const FACTS = [
  'The Summit membership costs $49 per year and includes free standard shipping.',
  'The Expedition membership costs $129 per year and includes unlimited free repairs.',
  'Orders placed before 1 pm Eastern time leave the workshop the same day.',
  'The Ridgeline 2 tent weighs 890 grams and pitches in under three minutes with two trekking poles.',
];
const OFF_TOPIC = 'What is the boiling point of liquid nitrogen in kelvin?';

declare global {
  interface Window {
    Kit: { init(options: unknown, host?: unknown): any };
    __kit: any;
    __events: [string, any][];
    KitFake: any;
  }
}

type Events = [string, any][];

async function initKit(page: Page, options: Record<string, unknown>, host: 'none' | 'fake-local' | 'slow-local' = 'none'): Promise<void> {
  await page.evaluate(({ options, host }) => {
    window.__events = [];
    // The fake engine stands in for model weights no machine here has; it reports WebLLM-shaped load progress.
    const answer = host === 'slow-local' ? 'The Summit membership costs $49 per year [1]. '.repeat(8) : 'The Summit membership costs $49 per year [1].';
    const hostOptions = host !== 'none'
      ? { localEngine: (req: { size: string; onProgress: unknown; signal: AbortSignal }) => window.KitFake.createFakeLocalInference({ size: req.size, onProgress: req.onProgress, signal: req.signal, engine: { answer, pieceDelayMs: host === 'slow-local' ? 60 : 5 } }) }
      : {};
    const inst = window.Kit.init(options, hostOptions);
    for (const ev of ['ready', 'mode', 'progress', 'message', 'token', 'error', 'open', 'close']) inst.on(ev, (p: unknown) => window.__events.push([ev, p]));
    window.__kit = inst;
  }, { options, host });
}

const events = (page: Page): Promise<Events> => page.evaluate(() => window.__events);
async function waitForEvent(page: Page, name: string, timeout = 90_000): Promise<any> {
  await page.waitForFunction((n) => window.__events.some((e) => e[0] === n || e[0] === 'error'), name, { timeout });
  const all = await events(page);
  const hit = all.find((e) => e[0] === name);
  if (!hit) throw new Error(`expected "${name}", got ${JSON.stringify(all.filter((e) => e[0] !== 'token'))}`);
  return hit[1];
}
const ask = (page: Page, question: string) => page.evaluate((q) => window.__kit.ask(q).then((a: unknown) => ({ ok: true, a }), (e: { code?: string; message?: string }) => ({ ok: false, code: e.code, message: e.message })), question);

describe('SDK end to end (Chromium + real server)', function () {
  this.timeout(240_000);
  // One real server and one website serve both browsers: starting the server (and its database) is the slow part.
  let kit: KitServer;
  let key: string;
  let site: SiteServer;

  before(async () => {
    ensureSdkBuilt();
    kit = await startKitServer();
    ({ key } = await kit.developerKey([]));
    site = await startSiteServer();
  });
  after(async () => {
    await site?.close();
    await kit?.stop();
  });

describe('in plain Chromium (no GPU)', function () {
  let browser: Browser;
  let page: Page;
  let requests: { url: string; body: string | null }[];

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    page = await newTestPage(browser);
    requests = [];
    page.on('request', (r) => requests.push({ url: r.url(), body: r.postData() }));
  });
  afterEach(async () => { await page?.close(); });

  it('answers a page-context question remotely with a citation of the page', async () => {
    site.set('/pricing', articlePage('Memberships', FACTS, kit.url));
    await page.goto(`${site.origin}/pricing`);
    await initKit(page, { apiKey: key, mode: 'remote' });
    const ready = await waitForEvent(page, 'ready');
    expect(ready).to.deep.include({ mode: 'remote' });
    expect(ready.context.pages).to.equal(1);
    const r = await ask(page, 'How much does the Summit membership cost per year?');
    expect(r.ok, JSON.stringify(r)).to.equal(true);
    expect(r.a.text).to.include('$49');
    expect(r.a.refused).to.equal(false);
    expect(r.a.mode).to.equal('remote');
    expect(r.a.citations.map(({ url, title }: { url: string; title: string }) => ({ url, title }))).to.deep.equal([{ url: `${site.origin}/pricing`, title: 'Memberships' }]);
    // The citation carries the cited passage (the widget previews and highlights it).
    expect(r.a.citations[0].text).to.include('$49');
    expect(r.a.text.match(/\[(\d+)\]/g) ?? []).to.satisfy((ms: string[]) => ms.every((m) => Number(m.slice(1, -1)) <= r.a.citations.length));
    const all = await events(page);
    expect(all.some((e) => e[0] === 'token')).to.equal(true);
    expect(all.filter((e) => e[0] === 'message').map((e) => e[1].role)).to.deep.equal(['user', 'assistant']);
    expect(requests.some((q) => q.url === `${kit.url}/v1/chat`)).to.equal(true);
    expect(requests.some((q) => q.url === `${kit.url}/v1/session`)).to.equal(true);
  });

  it("logs nothing on a page where nobody asks; 'auto' answers the first question remotely and probes WebGPU after it (issue 10.3)", async () => {
    const consoleLines: string[] = [];
    page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
    site.set('/quiet', articlePage('Memberships', FACTS, kit.url));
    await page.goto(`${site.origin}/quiet`);
    // A fresh origin: no remembered "no adapter" verdict in localStorage.
    expect(await page.evaluate(() => localStorage.getItem('kit:webgpu-absent'))).to.equal(null);
    await initKit(page, { apiKey: key });
    const ready = await waitForEvent(page, 'ready');
    expect(ready.mode).to.equal('remote');
    // Long enough for any probe started at init to have finished and logged.
    await page.waitForTimeout(1_000);
    // Chromium's own 404 for /favicon.ico (the test site has none) is the only line expected here.
    expect(consoleLines.filter((l) => !/status of 404/.test(l)), JSON.stringify(consoleLines)).to.deep.equal([]);
    expect((await events(page)).filter((e) => e[0] === 'mode').map((e) => e[1].reason)).to.deep.equal(['device_not_probed']);
    // The first question goes to the service at once (no probe, no model download before it); the device is probed
    // once it is answered: this browser has no adapter, so remote it stays.
    const r = await ask(page, 'How much does the Summit membership cost per year?');
    expect(r.ok, JSON.stringify(r)).to.equal(true);
    expect(r.a.mode).to.equal('remote');
    await page.waitForFunction(() => window.__events.filter((e) => e[0] === 'mode').length >= 2, null, { timeout: 30_000 });
    expect((await events(page)).filter((e) => e[0] === 'mode').map((e) => e[1].reason)).to.deep.equal(['device_not_probed', 'no_webgpu']);
    expect(await page.evaluate(() => localStorage.getItem('kit:webgpu-absent'))).to.be.a('string');
    // What remains (docs/sdk.md): Chromium says so once when that visitor asks, then not for 7 days on this origin.
    console.log(`      console after the first question: ${JSON.stringify(consoleLines)}`);
  });

  // Issue 15's budget: the script a site includes ≤ 15 KB gzipped, and everything before a first remote answer with the
  // default options ≤ 60,000 B gzipped (kit.js, the runtime chunk with Readability; no gate, no probe: the service gates
  // and 'auto' probes after the answer). test/e2e/widget.e2e.test.ts measures the same path and the visitor who opens
  // the panel. BENCHMARKS.md ("Widget and SDK delivery") reports the figures.
  it('keeps the script a site includes ≤ 15 KB and everything before a first remote answer ≤ 60,000 B gzipped', async () => {
    const scripts: Promise<[number, string]>[] = [];
    page.on('response', (res) => {
      // blob: URLs (the ALTCHA worker) are built in the page from code already downloaded: not a load.
      if (!/^(blob|data):/.test(res.url()) && (res.request().resourceType() === "script" || res.url().endsWith(".js"))) scripts.push(res.body().then((b) => [gzipSync(b, { level: 9 }).length, res.url().replace(kit.url, '')] as [number, string], () => [0, res.url()]));
    });
    site.set('/budget', articlePage('Memberships', FACTS, kit.url));
    await page.goto(`${site.origin}/budget`);
    await initKit(page, { apiKey: key });
    await page.evaluate(() => window.__kit.on('message', (m: { role: string }) => { if (m.role === 'assistant') (window as any).__answeredAt ??= performance.now(); }));
    await waitForEvent(page, 'ready');
    const r = await ask(page, 'How much does the Expedition membership cost?');
    expect(r.ok, JSON.stringify(r)).to.equal(true);
    // What was requested before the answer was in (Resource Timing): 'auto' probes the device after it.
    await page.waitForTimeout(500);
    const before = new Set(await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.startTime <= (window as any).__answeredAt).map((e) => e.name.replace(/^.*?\/\/[^/]+/, ''))));
    const sizes = (await Promise.all(scripts)).filter(([, u]) => before.has(u.replace(/^.*?\/\/[^/]+/, '')));
    const entry = gzipSync(Buffer.from(await (await fetch(`${kit.url}/sdk/kit.js`)).arrayBuffer()), { level: 9 }).length;
    const total = sizes.reduce((a, [n]) => a + n, 0);
    console.log(`      entry ${entry} B gzipped; ${sizes.length} scripts before the first remote answer: ${total} B gzipped\n        ${sizes.map(([n, u]) => `${n} ${u}`).join('\n        ')}`);
    expect(entry).to.be.at.most(15 * 1024);
    expect(total).to.be.at.most(60_000);
    expect(sizes.filter(([, u]) => /kit-(gate|local|probe|reporter)\./.test(u))).to.deep.equal([]);
  });

  it("refuses an off-topic question through the service's gate on the remote path, shown as Kit's refusal, with no gate chunk", async () => {
    const chunks: string[] = [];
    page.on('request', (q) => { if (q.url().includes('/sdk/chunks/')) chunks.push(q.url()); });
    site.set('/refuse', articlePage('Memberships', FACTS, kit.url));
    await page.goto(`${site.origin}/refuse`);
    await initKit(page, { apiKey: key, mode: 'remote', refusalMessage: 'Only about memberships, sorry.' });
    await waitForEvent(page, 'ready');
    const before = requests.length;
    const r = await ask(page, OFF_TOPIC);
    expect(r.ok).to.equal(true);
    // The service's refusal (its own text is replaced by the snippet's, as a refusal in the browser would read).
    expect(r.a).to.deep.include({ refused: true, text: 'Only about memberships, sorry.', citations: [], mode: 'remote' });
    expect(r.a.id).to.match(/^req_/);
    expect(requests.slice(before).map((q) => new URL(q.url).pathname)).to.include('/v1/chat');
    const messages = (await events(page)).filter((e) => e[0] === 'message').map((e) => e[1]);
    expect(messages.at(-1)).to.deep.include({ role: 'assistant', refused: true, text: 'Only about memberships, sorry.' });
    expect(chunks.filter((u) => /kit-(gate|local|probe)\./.test(u))).to.deep.equal([]);
  });

  it('honours a stricter groundingMinMatches in the browser before the service: refused without any request', async () => {
    const question = 'How heavy is the tent?'; // one content word on the page: passes the default (1), not 2
    const chunks: string[] = [];
    page.on('request', (q) => { if (q.url().includes('/sdk/chunks/')) chunks.push(q.url()); });
    site.set('/strict', articlePage('Memberships', FACTS, kit.url));
    await page.goto(`${site.origin}/strict`);
    await initKit(page, { apiKey: key, mode: 'remote', groundingMinMatches: 2, refusalMessage: 'Only about memberships, sorry.' });
    await waitForEvent(page, 'ready');
    await page.waitForTimeout(300);
    const before = requests.length;
    const r = await ask(page, question);
    expect(r.ok).to.equal(true);
    expect(r.a).to.deep.include({ refused: true, text: 'Only about memberships, sorry.', citations: [] });
    await page.waitForTimeout(300);
    expect(requests.slice(before)).to.deep.equal([]);
    expect(chunks.some((u) => /kit-gate\./.test(u))).to.equal(true);
    // With the default, the same question goes to the service, which answers it.
    await initKit(page, { apiKey: key, mode: 'remote' });
    await waitForEvent(page, 'ready');
    const answered = await ask(page, question);
    expect(answered.ok, JSON.stringify(answered)).to.equal(true);
    expect(answered.a.refused).to.equal(false);
  });

  it('masks a secret and an email before anything leaves the page', async () => {
    const secret = 'sk_live_' + 'a1B2c3D4e5F6g7H8i9J0k1L2';
    const email = 'maya.okafor@fernwood.example';
    site.set('/contact', articlePage('Support', [
      ...FACTS,
      `Write to our support team at ${email} about memberships and repairs.`,
      `Internal note: the billing API key for memberships is ${secret} and must be rotated yearly.`,
    ], kit.url));
    await page.goto(`${site.origin}/contact`);
    await initKit(page, { apiKey: key, mode: 'remote', redact: true });
    await waitForEvent(page, 'ready');
    for (const q of ['Who do I write to about memberships and repairs?', 'What is the billing API key for memberships?']) {
      const r = await ask(page, q);
      expect(r.ok, JSON.stringify(r)).to.equal(true);
      expect(r.a.text).not.to.include(secret).and.not.to.include(email);
    }
    const chats = requests.filter((q) => q.url.endsWith('/v1/chat'));
    expect(chats).to.have.length(2);
    expect(chats.some((q) => q.body!.includes('[REDACTED:EMAIL]'))).to.equal(true);
    for (const q of requests) {
      expect(q.body ?? '').not.to.include(secret);
      expect(q.body ?? '').not.to.include(email);
      expect(q.url).not.to.include(encodeURIComponent(email));
    }
  });

  it('crawls the site through its sitemap and cites the page that answers', async () => {
    site.set('/docs/', articlePage('Docs home', ['Welcome to the Fernwood documentation about tents, packs and quilts.'], kit.url));
    site.set('/docs/care', articlePage('Tent care', ['Never store a tent wet. Pitch it or hang it indoors until every seam is dry, which usually takes 24 hours.'], kit.url));
    site.set('/docs/repairs', articlePage('Repairs', ['The first repair of any item is free; later repairs cost a flat $15 plus materials.'], kit.url));
    site.set('/sitemap.xml', `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.origin}/docs/care</loc></url><url><loc>${site.origin}/docs/repairs</loc></url></urlset>`);
    await page.goto(`${site.origin}/docs/`);
    await initKit(page, { apiKey: key, mode: 'remote', context: 'site' });
    const ready = await waitForEvent(page, 'ready');
    expect(ready.context.pages).to.equal(3);
    const progress = (await events(page)).filter((e) => e[0] === 'progress').map((e) => e[1]);
    expect(progress.length).to.be.greaterThan(0);
    expect(progress.every((p) => p.phase === 'crawl')).to.equal(true);
    const r = await ask(page, 'How much do later repairs cost?');
    expect(r.ok, JSON.stringify(r)).to.equal(true);
    expect(r.a.text).to.include('$15');
    expect(r.a.citations.map((c: { url: string }) => c.url)).to.include(`${site.origin}/docs/repairs`);
  });

  it('never requests sitemap entries of another origin', async () => {
    const other = await startSiteServer({ '/stolen': articlePage('Other', ['Other origin content about memberships.'], kit.url) }, '127.0.0.2');
    try {
      site.set('/x/', articlePage('X home', FACTS, kit.url));
      site.set('/x/local', articlePage('Local', ['Repairs are free for Expedition members.'], kit.url));
      site.set('/x/sitemap.xml', `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${other.origin}/stolen</loc></url><url><loc>${site.origin}/x/local</loc></url></urlset>`);
      await page.goto(`${site.origin}/x/`);
      await initKit(page, { apiKey: key, mode: 'remote', context: { sitemap: '/x/sitemap.xml' } });
      const ready = await waitForEvent(page, 'ready');
      expect(ready.context.pages).to.equal(2);
      expect(other.requests).to.deep.equal([]);
      expect(requests.some((q) => q.url.startsWith(other.origin))).to.equal(false);
    } finally {
      await other.close();
    }
  });

  it("reads a page behind a cookie only with credentials 'same-origin'", async () => {
    site.set('/members', (req) => (req.headers.cookie?.includes('session=ok')
      ? { body: articlePage('Members area', ['Members get the secret trail map of the Blue Ridge loop, 42 miles long.'], kit.url) }
      : { status: 401, body: 'login required' }));
    site.set('/public', articlePage('Public', FACTS, kit.url));
    await page.context().addCookies([{ name: 'session', value: 'ok', url: site.origin }]);
    await page.goto(`${site.origin}/public`);
    await initKit(page, { apiKey: key, mode: 'remote', context: { urls: ['/members'], credentials: 'omit' } });
    expect((await waitForEvent(page, 'ready')).context.pages).to.equal(1);
    const omitted = site.requests.filter((q) => q.path === '/members');
    expect(omitted.length).to.be.greaterThan(0);
    expect(omitted.every((q) => q.cookie === undefined)).to.equal(true);

    await initKit(page, { apiKey: key, mode: 'remote', context: { urls: ['/members'], credentials: 'same-origin' } });
    expect((await waitForEvent(page, 'ready')).context.pages).to.equal(2);
    expect(site.requests.filter((q) => q.path === '/members').some((q) => q.cookie?.includes('session=ok'))).to.equal(true);
    const r = await ask(page, 'How long is the Blue Ridge loop on the trail map?');
    expect(r.ok, JSON.stringify(r)).to.equal(true);
    expect(r.a.text).to.include('42 miles');
  });

  it('behaves sensibly on a second init, destroy then init, ask before ready, ask after destroy and two asks at once', async () => {
    site.set('/life', articlePage('Memberships', FACTS, kit.url));
    await page.goto(`${site.origin}/life`);
    // ask before ready: queued until ready, then answered
    await initKit(page, { apiKey: key, mode: 'remote' });
    const early = await ask(page, 'How much does the Summit membership cost?');
    expect(early.ok, JSON.stringify(early)).to.equal(true);
    expect(early.a.text).to.include('$49');
    // two asks at once: both answered, in call order
    const both = await page.evaluate(async () => {
      const order: string[] = [];
      window.__kit.on('message', (m: { role: string; text: string }) => { if (m.role === 'user') order.push(m.text); });
      const [a, b] = await Promise.all([window.__kit.ask('How much does the Expedition membership cost?'), window.__kit.ask('How much does the Summit membership cost?')]);
      return { a: a.text, b: b.text, order };
    });
    expect(both.a).to.include('$129');
    expect(both.b).to.include('$49');
    expect(both.order).to.deep.equal(['How much does the Expedition membership cost?', 'How much does the Summit membership cost?']);
    // a second init replaces the first: one widget, the old instance is dead
    await page.evaluate(() => { (window as any).__first = window.__kit; });
    await initKit(page, { apiKey: key, mode: 'remote' });
    expect(await page.locator('kit-widget').count()).to.equal(1);
    const old = await page.evaluate(() => (window as any).__first.ask('How much does the Summit membership cost?').then(() => 'resolved', (e: { code: string }) => e.code));
    expect(old).to.equal('invalid_request');
    // destroy, then ask after destroy, then init again
    await page.evaluate(() => window.__kit.destroy());
    expect(await page.locator('kit-widget').count()).to.equal(0);
    const afterDestroy = await ask(page, 'How much does the Summit membership cost?');
    expect(afterDestroy).to.deep.include({ ok: false, code: 'invalid_request' });
    await initKit(page, { apiKey: key, mode: 'remote' });
    await waitForEvent(page, 'ready');
    const again = await ask(page, 'How much does the Summit membership cost?');
    expect(again.ok).to.equal(true);
  });

  it('loads with async and defer without blocking the page, and inits from onload', async () => {
    for (const attr of ['async', 'defer']) {
      site.set(`/${attr}`, `<!doctype html><html><head><title>Loading</title>
<script src="${kit.url}/sdk/kit.js" ${attr} onload="window.__events=[];window.__kitLoadedAt=performance.now();window.__kit=Kit.init({apiKey:'${key}',mode:'remote'});window.__kit.on('ready',function(p){window.__events.push(['ready',p])})"></script>
<script>document.addEventListener('DOMContentLoaded',function(){window.__domAt=performance.now()})</script></head>
<body><main><h1>Memberships</h1>${FACTS.map((f) => `<p>${f}</p>`).join('')}</main></body></html>`);
      // The SDK script arrives a second late: the page must not wait for it.
      await page.route(`${kit.url}/sdk/kit.js`, async (route) => { await new Promise((r) => setTimeout(r, 1000)); await route.continue(); });
      await page.goto(`${site.origin}/${attr}`, { waitUntil: 'domcontentloaded' });
      await page.waitForFunction(() => (window as any).__kitLoadedAt !== undefined, null, { timeout: 60_000 });
      const t = await page.evaluate(() => ({ dom: (window as any).__domAt, kit: (window as any).__kitLoadedAt }));
      if (attr === 'async') expect(t.dom).to.be.below(t.kit);
      await waitForEvent(page, 'ready');
      await page.unroute(`${kit.url}/sdk/kit.js`);
    }
  });

  it('caches crawled pages in IndexedDB so the next page view does not crawl again', async () => {
    site.set('/c/', articlePage('Cache home', ['Welcome to the cached documentation about repairs.'], kit.url));
    site.set('/c/a', articlePage('Repairs', ['The first repair of any item is free; later repairs cost a flat $15 plus materials.'], kit.url));
    site.set('/c/b', articlePage('Care', ['Never store a tent wet; dry it for 24 hours.'], kit.url));
    site.set('/c/sitemap.xml', `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.origin}/c/a</loc></url><url><loc>${site.origin}/c/b</loc></url></urlset>`);
    const crawled = () => site.requests.filter((q) => ['/c/a', '/c/b', '/c/sitemap.xml'].includes(q.path)).length;
    const start = crawled();
    await page.goto(`${site.origin}/c/`);
    await initKit(page, { apiKey: key, mode: 'remote', context: { sitemap: '/c/sitemap.xml' } });
    expect((await waitForEvent(page, 'ready')).context.pages).to.equal(3);
    const first = crawled() - start;
    expect(first).to.equal(3);
    // The next page view: a new document, the same browser profile.
    await page.goto(`${site.origin}/c/`);
    await initKit(page, { apiKey: key, mode: 'remote', context: { sitemap: '/c/sitemap.xml' } });
    expect((await waitForEvent(page, 'ready')).context.pages).to.equal(3);
    expect(crawled() - start).to.equal(first);
    const r = await ask(page, 'How much do later repairs cost?');
    expect(r.a.citations.map((c: { url: string }) => c.url)).to.include(`${site.origin}/c/a`);
  });

  it('reads the page again after an SPA navigation before answering', async () => {
    site.set('/spa/one', articlePage('Memberships', FACTS, kit.url));
    await page.goto(`${site.origin}/spa/one`);
    await initKit(page, { apiKey: key, mode: 'remote' });
    await waitForEvent(page, 'ready');
    await page.evaluate(() => {
      history.pushState({}, '', '/spa/two');
      document.title = 'Tent care';
      document.querySelector('article')!.innerHTML = '<h1>Tent care</h1><p>Rinse the fly with lukewarm water and a sponge; never use detergent or a washing machine.</p><p>Store the tent loosely in the large cotton storage sack so the coating does not crease.</p>';
    });
    const r = await ask(page, 'What should I rinse the tent fly with?');
    expect(r.ok, JSON.stringify(r)).to.equal(true);
    expect(r.a.text).to.include('lukewarm water');
    expect(r.a.citations[0].url).to.equal(`${site.origin}/spa/two`);
  });

  it("answers through a customer's Mode B proxy when endpoint points at it", async () => {
    const { token } = await kit.developerKey([]);
    const created = await fetch(`${kit.url}/v1/keys`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ kind: 'secret', name: 'proxy' }) });
    const { secret } = (await created.json()) as { secret: string };
    const proxy = createKitProxy({ secretKey: secret, upstream: `${kit.url}/v1`, allowedOrigins: [site.origin] });
    const server = createServer((req, res) => proxy(req, res, () => { res.writeHead(404); res.end(); }));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      site.set('/modeb', articlePage('Memberships', FACTS, kit.url));
      await page.goto(`${site.origin}/modeb`);
      await initKit(page, { apiKey: key, mode: 'remote', endpoint: `${proxyUrl}/v1` });
      await waitForEvent(page, 'ready');
      const r = await ask(page, 'How much does the Summit membership cost?');
      expect(r.ok, JSON.stringify(r)).to.equal(true);
      expect(r.a.text).to.include('$49');
      expect(requests.some((q) => q.url === `${proxyUrl}/v1/chat`)).to.equal(true);
      expect(requests.some((q) => q.url.startsWith(`${kit.url}/v1/`))).to.equal(false);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('destroy leaves no node, no pending request and no later request', async () => {
    site.set('/destroy', articlePage('Memberships', FACTS, kit.url));
    await page.goto(`${site.origin}/destroy`);
    await initKit(page, { apiKey: key, mode: 'remote' });
    await waitForEvent(page, 'ready');
    const pending = page.evaluate(() => window.__kit.ask('How much does the Summit membership cost?').then(() => 'answered', (e: { code?: string }) => e.code ?? 'rejected'));
    await page.evaluate(() => window.__kit.destroy());
    const outcome = await pending;
    expect(['answered', 'invalid_request', 'network_error']).to.include(outcome);
    expect(await page.locator('kit-widget').count()).to.equal(0);
    const count = requests.length;
    await page.keyboard.press('Escape');
    await page.waitForTimeout(500);
    expect(requests.length).to.equal(count);
    const leftovers = await page.evaluate(() => [...document.querySelectorAll('*')].filter((el) => el.shadowRoot).length);
    expect(leftovers).to.equal(0);
  });
});

describe('with WebGPU (SwiftShader)', function () {
  let browser: Browser;
  let page: Page;
  let fakeBundle: string;

  before(async () => {
    browser = await launchChromium({ extraArgs: ['--enable-unsafe-webgpu'] });
    const out = await build({ entryPoints: [fileURLToPath(new URL('../fakes/fake-local-inference.ts', import.meta.url))], bundle: true, format: 'iife', globalName: 'KitFake', write: false, platform: 'browser', target: 'es2022' });
    fakeBundle = out.outputFiles[0]!.text;
  });
  after(async () => {
    await browser?.close();
  });
  beforeEach(async () => { page = await newTestPage(browser); });
  afterEach(async () => { await page?.close(); });

  it("chooses remote in 'auto' on SwiftShader's software adapter", async () => {
    site.set('/auto', articlePage('Memberships', FACTS, kit.url));
    await page.goto(`${site.origin}/auto`);
    expect(await page.evaluate(async () => !!(await (navigator as any).gpu?.requestAdapter()))).to.equal(true);
    await initKit(page, { apiKey: key });
    const ready = await waitForEvent(page, 'ready');
    expect(ready.mode).to.equal('remote');
    // The service answers the first question; the device is probed after it.
    const r = await ask(page, 'How much does the Summit membership cost?');
    expect(r.ok, JSON.stringify(r)).to.equal(true);
    expect(r.a.mode).to.equal('remote');
    await page.waitForFunction(() => window.__events.filter((e) => e[0] === 'mode').length >= 2, null, { timeout: 30_000 });
    const modes = (await events(page)).filter((e) => e[0] === 'mode').map((e) => e[1]);
    expect(modes.map((m) => m.reason)).to.deep.equal(['device_not_probed', 'software_gpu']);
  });

  it('streams a local answer from an engine behind the localEngine port', async () => {
    site.set('/local', articlePage('Memberships', FACTS, kit.url));
    await page.goto(`${site.origin}/local`);
    await page.addScriptTag({ content: fakeBundle });
    await initKit(page, { apiKey: key, mode: 'local' }, 'fake-local');
    const ready = await waitForEvent(page, 'ready');
    expect(ready.mode).to.equal('local');
    expect(ready.model).to.match(/SmolLM2-360M/);
    const before = (await events(page)).length;
    const r = await ask(page, 'How much does the Summit membership cost?');
    expect(r.ok, JSON.stringify(r)).to.equal(true);
    expect(r.a).to.deep.include({ mode: 'local', refused: false });
    expect(r.a.text).to.include('$49');
    expect(r.a.citations.map(({ url, title }: { url: string; title: string }) => ({ url, title }))).to.deep.equal([{ url: `${site.origin}/local`, title: 'Memberships' }]);
    const tokens = (await events(page)).slice(before).filter((e) => e[0] === 'token');
    expect(tokens.length).to.be.greaterThan(3);
    const progress = (await events(page)).filter((e) => e[0] === 'progress').map((e) => e[1]);
    expect(progress.length).to.be.greaterThan(1);
    expect(progress.every((p) => p.phase === 'model' && p.loaded <= p.total)).to.equal(true);
    expect(progress.at(-1).loaded).to.equal(progress.at(-1).total);
  });

  it("stops a streaming answer from the widget's Stop button and keeps what was said", async () => {
    site.set('/stop', articlePage('Memberships', FACTS, kit.url));
    await page.goto(`${site.origin}/stop`);
    await page.addScriptTag({ content: fakeBundle });
    await initKit(page, { apiKey: key, mode: 'local' }, 'slow-local');
    await waitForEvent(page, 'ready');
    await page.locator('kit-widget .launcher').click();
    await page.locator('kit-widget textarea').fill('How much does the Summit membership cost?');
    await page.locator('kit-widget textarea').press('Enter');
    await page.waitForFunction(() => window.__events.filter((e) => e[0] === 'token').length >= 3);
    await page.locator('kit-widget button.stop').click();
    await page.waitForFunction(() => window.__events.some((e) => e[0] === 'message' && e[1].role === 'assistant'));
    const all = await events(page);
    const said = all.find((e) => e[0] === 'message' && e[1].role === 'assistant')![1];
    expect(said.text.length).to.be.greaterThan(0);
    expect(said.text.length).to.be.lessThan('The Summit membership costs $49 per year [1]. '.repeat(8).length / 2);
    expect(all.some((e) => e[0] === 'error')).to.equal(false);
    const tokensAtStop = all.filter((e) => e[0] === 'token').length;
    await page.waitForTimeout(600);
    expect((await events(page)).filter((e) => e[0] === 'token').length).to.equal(tokensAtStop);
    expect(await page.locator('kit-widget button.stop').isHidden()).to.equal(true);
    const next = await ask(page, 'How much does the Summit membership cost?');
    expect(next.ok, JSON.stringify(next)).to.equal(true);
  });

  it('falls back to remote when the real WebLLM path cannot fetch the weights', async () => {
    site.set('/webllm', articlePage('Memberships', FACTS, kit.url));
    await page.goto(`${site.origin}/webllm`);
    await initKit(page, { apiKey: key, mode: 'local', gpuBenchmark: false });
    const ready = await waitForEvent(page, 'ready', 180_000);
    const all = await events(page);
    const err = all.find((e) => e[0] === 'error');
    expect(err?.[1].code).to.equal('model_load_failed');
    const modes = all.filter((e) => e[0] === 'mode').map((e) => e[1]);
    expect(modes.at(-1)).to.deep.include({ mode: 'remote', reason: 'model_load_failed' });
    expect(ready.mode).to.equal('remote');
    const r = await ask(page, 'How much does the Summit membership cost?');
    expect(r.ok, JSON.stringify(r)).to.equal(true);
    expect(r.a.mode).to.equal('remote');
  });
});
});
