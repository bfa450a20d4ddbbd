import { expect } from 'chai';
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_PATH, launchChromium, newTestPage } from '../../support/chromium.js';

async function listen(server: Server, host: string): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

/**
 * What Node cannot show: in a real browser, `credentials` decides whether the visitor's cookie goes along, and
 * `mode: 'same-origin'` makes the browser refuse a redirect to another origin before any request is made there.
 */
describe('createFetchPageFetcher (Chromium)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;
  let site: Server;
  let foreign: Server;
  let siteOrigin: string;
  let foreignOrigin: string;
  const foreignSeen: string[] = [];

  before(async function () {
    if (!existsSync(CHROMIUM_PATH)) return this.skip();
    foreign = createServer((req, res) => { foreignSeen.push(req.url ?? ''); res.end('<p>foreign</p>'); });
    foreignOrigin = await listen(foreign, 'localhost');
    site = createServer((req, res) => {
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'sid=visitor-session; Path=/; SameSite=Lax' });
        return res.end('<!doctype html><title>Site</title><p>home</p>');
      }
      if (req.url === '/away') {
        res.writeHead(302, { location: `${foreignOrigin}/landing` });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`cookie=${req.headers.cookie ?? 'none'}`);
    });
    siteOrigin = await listen(site, '127.0.0.1');
    const bundle = await build({
      entryPoints: ['adapters/browser/fetch-page-fetcher.ts'], bundle: true, format: 'iife', globalName: 'KitFetch', write: false, target: 'es2022',
    });
    browser = await launchChromium();
    page = await newTestPage(browser);
    await page.goto(`${siteOrigin}/`);
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  });

  after(async () => {
    await browser?.close();
    for (const s of [site, foreign]) if (s) { s.closeAllConnections(); await new Promise((r) => s.close(r)); }
  });

  const fetchIn = (url: string, credentials: 'omit' | 'same-origin') => page.evaluate(
    ([u, c]) => (globalThis as any).KitFetch.createFetchPageFetcher().fetch({ url: u, credentials: c, timeoutMs: 5000, maxBytes: 100000, accept: 'html' }),
    [url, credentials] as const,
  );

  it("sends the visitor's cookie only with credentials 'same-origin'", async () => {
    const omitted = await fetchIn(`${siteOrigin}/echo`, 'omit');
    const included = await fetchIn(`${siteOrigin}/echo`, 'same-origin');
    expect(omitted).to.deep.include({ ok: true });
    expect(omitted.value.text).to.equal('cookie=none');
    expect(included.value.text).to.equal('cookie=sid=visitor-session');
  });

  it('never lets a redirect reach another origin', async () => {
    const result = await fetchIn(`${siteOrigin}/away`, 'same-origin');
    expect(result).to.include({ ok: false, code: 'network' });
    expect(foreignSeen).to.deep.equal([]);
  });
});
