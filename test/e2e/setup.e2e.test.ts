/**
 * What a site's developer sees when Kit is not set up right (issue #10 §3), end to end: real Chromium, the real Kit
 * server (child process, embedded database) and the SDK bundles it serves, loopback websites.
 */
import { expect } from 'chai';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { formatKey } from '../../core/keys/key-format.js';
import { launchChromium, newTestPage } from '../support/chromium.js';
import { ensureSdkBuilt, startKitServer, type KitServer } from './support/kit-server.js';
import { articlePage, startSiteServer, type SiteServer } from './support/site-server.js';

const FACTS = [
  'The Summit membership costs $49 per year and includes free standard shipping.',
  'Orders placed before 1 pm Eastern time leave the workshop the same day.',
];

declare global {
  interface Window {
    Kit: { init(options: unknown, host?: unknown): any };
    __kit: any;
    __events: [string, any][];
  }
}

async function initKit(page: Page, options: Record<string, unknown>): Promise<void> {
  await page.evaluate((options) => {
    window.__events = [];
    const inst = window.Kit.init(options);
    for (const ev of ['ready', 'mode', 'progress', 'error']) inst.on(ev, (p: unknown) => window.__events.push([ev, p]));
    window.__kit = inst;
  }, options);
}
const events = (page: Page): Promise<[string, any][]> => page.evaluate(() => window.__events);

describe('Kit set-up problems (Chromium + real server)', function () {
  this.timeout(240_000);
  let kit: KitServer;
  let site: SiteServer;
  let browser: Browser;
  let page: Page;
  let consoleLines: { type: string; text: string }[];

  before(async () => {
    ensureSdkBuilt();
    [kit, site, browser] = await Promise.all([startKitServer(), startSiteServer(), launchChromium()]);
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await kit?.stop();
  });
  beforeEach(async () => {
    page = await newTestPage(browser);
    consoleLines = [];
    page.on('console', (m: ConsoleMessage) => consoleLines.push({ type: m.type(), text: m.text() }));
  });
  afterEach(async () => { await page?.close(); });

  it('says, once and clearly, that the key does not allow the page origin, and the widget does not answer', async () => {
    // The page is opened as http://localhost:<port>; the key allows only http://127.0.0.1:<port> (same server).
    const { key } = await kit.developerKey([site.origin]);
    const localhost = site.origin.replace('127.0.0.1', 'localhost');
    site.set('/pricing', articlePage('Memberships', FACTS, kit.url));
    await page.goto(`${localhost}/pricing`);
    await initKit(page, { apiKey: key, mode: 'remote' });
    await page.waitForFunction(() => window.__events.some((e) => e[0] === 'error' || e[0] === 'ready'), undefined, { timeout: 60_000 });
    await page.waitForTimeout(300);

    const all = await events(page);
    expect(all.map((e) => e[0]), 'no ready: the assistant does not pretend to work').to.deep.equal(['error']);
    const error = all[0]![1];
    expect(error.code).to.equal('origin_not_allowed');
    expect(error.message).to.include(localhost).and.include('allowed_origins');

    const errors = consoleLines.filter((l) => l.type === 'error');
    const kitErrors = errors.filter((l) => l.text.startsWith('Kit: '));
    expect(kitErrors, JSON.stringify(consoleLines)).to.have.length(1);
    expect(kitErrors[0]!.text).to.include(`"${localhost}"`).and.include('allowed_origins').and.include(key.slice(0, 12));
    expect(errors.filter((l) => /CORS|Access-Control/i.test(l.text)), 'no CORS error: the 403 is readable').to.deep.equal([]);

    // The visitor reads that the assistant is not set up, on opening it and on asking anyway — and gets no answer.
    const errorsShown = () => page.evaluate(() => [...document.querySelector('kit-widget')!.shadowRoot!.querySelectorAll('.log .err')].map((n) => n.textContent ?? ''));
    await page.locator('kit-widget .launcher').click();
    await page.waitForFunction(() => document.querySelector('kit-widget')!.shadowRoot!.querySelectorAll('.log .err').length >= 1);
    expect((await errorsShown())[0]).to.include('not set up for this site');
    await page.locator('kit-widget textarea').fill('How much does the Summit membership cost?');
    await page.locator('kit-widget textarea').press('Enter');
    await page.waitForFunction(() => document.querySelector('kit-widget')!.shadowRoot!.querySelectorAll('.log .err').length >= 2);
    expect((await errorsShown())[1]).to.include('not set up for this site');
    expect(await page.locator('kit-widget .log').innerText()).to.include('How much does the Summit membership cost?').and.not.include('$49');
    expect((await events(page)).some((e) => e[0] === 'ready')).to.equal(false);
  });

  it('starts normally once the origin is allowed, and the next page view logs no warning about WebGPU', async () => {
    const localhost = site.origin.replace('127.0.0.1', 'localhost');
    const { key } = await kit.developerKey([localhost]);
    site.set('/ok', articlePage('Memberships', FACTS, kit.url));
    for (const view of [1, 2]) {
      consoleLines.length = 0;
      await page.goto(`${localhost}/ok`);
      await initKit(page, { apiKey: key }); // mode 'auto': the device is probed after the first answer (this Chromium has no adapter)
      await page.waitForFunction(() => window.__events.some((e) => e[0] === 'error' || e[0] === 'ready'), undefined, { timeout: 60_000 });
      expect((await events(page)).map((e) => e[0])).to.include('ready').and.not.include('error');
      const answer = await page.evaluate(() => (window as any).__kit.ask('How much does the Summit membership cost?'));
      expect(answer).to.deep.include({ mode: 'remote', refused: false });
      // 'auto' answers through the service first and probes the device after the answer.
      await page.waitForFunction(() => window.__events.filter((e) => e[0] === 'mode').length >= 2, undefined, { timeout: 30_000 });
      const modes = (await events(page)).filter((e) => e[0] === 'mode').map((e) => e[1]);
      expect(modes[0]).to.deep.include({ mode: 'remote', reason: 'device_not_probed' });
      expect(modes.at(-1)).to.deep.include({ mode: 'remote', reason: 'no_webgpu' });
      expect(consoleLines.filter((l) => l.type === 'error'), `view ${view}`).to.deep.equal([]);
    }
    // The first view asked Chromium for an adapter (which warns when there is none); the verdict is reused after.
    expect(consoleLines.filter((l) => l.type === 'warning'), 'second view').to.deep.equal([]);
  });

  describe("context 'site' on a site without /sitemap.xml", () => {
    const home = (kitUrl: string, links: string) => articlePage('Fernwood docs', [`Welcome to the Fernwood documentation about tents, packs and quilts. ${links}`], kitUrl);
    const care = (kitUrl: string) => articlePage('Tent care', ['Never store a tent wet. Pitch it or hang it indoors until every seam is dry.'], kitUrl);
    const repairs = (kitUrl: string) => articlePage('Repairs', ['The first repair of any item is free; later repairs cost a flat $15 plus materials.'], kitUrl);
    let other: SiteServer | null = null;
    afterEach(async () => { await other?.close(); other = null; });

    it('reads the sitemap robots.txt names, and says so once in the console', async () => {
      other = await startSiteServer();
      const { key } = await kit.developerKey([other.origin]);
      other.set('/docs/', home(kit.url, ''));
      other.set('/docs/care', care(kit.url));
      other.set('/docs/repairs', repairs(kit.url));
      other.set('/robots.txt', { type: 'text/plain', body: 'User-agent: *\nDisallow: /admin\nSitemap: /maps/docs.xml\n' });
      other.set('/maps/docs.xml', `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${other.origin}/docs/repairs</loc></url></urlset>`);
      await page.goto(`${other.origin}/docs/`);
      await initKit(page, { apiKey: key, mode: 'remote', context: 'site' });
      await page.waitForFunction(() => window.__events.some((e) => e[0] === 'error' || e[0] === 'ready'), undefined, { timeout: 60_000 });
      const ready = (await events(page)).find((e) => e[0] === 'ready')![1];
      expect(ready.context.pages).to.equal(2);
      const info = consoleLines.filter((l) => l.text.startsWith("Kit: context 'site'"));
      expect(info, JSON.stringify(consoleLines)).to.have.length(1);
      expect(info[0]!.type).to.equal('info');
      expect(info[0]!.text).to.include('robots.txt').and.include('/docs/, /docs/repairs (2 pages)');
      expect(other.requests.map((r) => r.path)).to.include.members(['/sitemap.xml', '/robots.txt', '/maps/docs.xml', '/docs/repairs']);
      expect(other.requests.map((r) => r.path)).to.not.include('/docs/care');
    });

    it("falls back to the page's same-origin links, answers from a linked page, and names the pages read", async () => {
      other = await startSiteServer();
      const { key } = await kit.developerKey([other.origin]);
      other.set('/docs/', home(kit.url, '</p><p><a href="/docs/care">Care</a> <a href="repairs">Repairs</a> <a href="/docs/manual.pdf">Manual</a> <a href="https://example.com/x">Elsewhere</a> <a href="/logout" rel="nofollow">Log out</a>'));
      other.set('/docs/care', care(kit.url));
      other.set('/docs/repairs', repairs(kit.url));
      await page.goto(`${other.origin}/docs/`);
      await initKit(page, { apiKey: key, mode: 'remote', context: 'site' });
      await page.waitForFunction(() => window.__events.some((e) => e[0] === 'error' || e[0] === 'ready'), undefined, { timeout: 60_000 });
      const ready = (await events(page)).find((e) => e[0] === 'ready')![1];
      // The page itself and the two pages it links to; the header's / and /about are tried too (404 here).
      expect(ready.context.pages).to.equal(3);
      const paths = other.requests.map((r) => r.path);
      expect(paths).to.include.members(['/sitemap.xml', '/robots.txt', '/docs/care', '/docs/repairs']);
      expect(paths).to.not.include.members(['/docs/manual.pdf']);
      expect(paths).to.not.include('/logout');
      const info = consoleLines.filter((l) => l.text.startsWith("Kit: context 'site'"));
      expect(info, JSON.stringify(consoleLines)).to.have.length(1);
      expect(info[0]!.text).to.include("this page and the pages it links to").and.include('/docs/care').and.include('/docs/repairs');
      const answer = await page.evaluate(() => window.__kit.ask('How much do later repairs cost?').then((a: any) => a, (e: any) => ({ error: e.code })));
      expect(answer.text, JSON.stringify(answer)).to.include('$15');
      expect(answer.citations.map((c: { url: string }) => c.url)).to.include(`${other.origin}/docs/repairs`);
    });
  });

  it('names an unknown key in the console and the error event instead of answering from the page', async () => {
    site.set('/badkey', articlePage('Memberships', FACTS, kit.url));
    await page.goto(`${site.origin}/badkey`);
    // Well formed (the SDK checks the checksum at init) but unknown to the service: a revoked or other server's key.
    const wrong = formatKey('publishable', new Uint8Array(32).fill(7));
    await initKit(page, { apiKey: wrong });
    await page.waitForFunction(() => window.__events.some((e) => e[0] === 'error' || e[0] === 'ready'), undefined, { timeout: 60_000 });
    await page.waitForTimeout(300);
    const all = await events(page);
    expect(all.map((e) => e[0])).to.deep.equal(['error']);
    expect(all[0]![1].code).to.equal('invalid_api_key');
    const kitErrors = consoleLines.filter((l) => l.type === 'error' && l.text.startsWith('Kit: '));
    expect(kitErrors).to.have.length(1);
    expect(kitErrors[0]!.text).to.include('does not know the key');
  });
});
