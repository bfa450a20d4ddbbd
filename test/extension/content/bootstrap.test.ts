/**
 * The extension in real Chromium, loaded unpacked: switched on from its popup, the content script runs Kit in the
 * page (isolated world, widget in a shadow root), on a strict-CSP page too, top frame only; it follows SPA
 * navigations; its QA panel shows what the assistant sees; switching off removes the widget and every listener;
 * local mode without model weights falls back cleanly. The endpoint here is unreachable on purpose: the assistant
 * then answers with the extractive engine — test/extension/background/index.test.ts covers the real server.
 */
import { expect } from 'chai';
import type { CDPSession, Page } from 'playwright-core';
import { formatKey } from '../../../core/keys/key-format.js';
import { buildExtension, launchWithExtension, saveOptions, startSite, switchTab, tabIdOf, type LoadedExtension, type TestSite } from '../support.js';

const KEY = formatKey('publishable', new Uint8Array(32).fill(11));
const PRICING = `<!doctype html><html lang="en"><head><title>Pricing — Trailhead</title></head><body>
<nav><a href="/">Home</a></nav>
<main><h1>Pricing</h1>
<p>The Pro plan costs 29 euros per month and includes priority support by email.</p>
<p>The Team plan costs 99 euros per month for up to ten people.</p>
<p>Write to jane.doe@example.com or call +44 20 7946 0958 for an invoice.</p></main></body></html>`;

/** Event types with listeners on `expression`'s object, as seen from the JavaScript world `contextId`. */
async function listenerTypes(cdp: CDPSession, expression: string, contextId?: number): Promise<string[]> {
  const { result } = await cdp.send('Runtime.evaluate', { expression, ...(contextId === undefined ? {} : { contextId }) });
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId! });
  return listeners.map((l) => l.type).sort();
}

async function ask(page: Page, question: string): Promise<string> {
  const launcher = page.locator('kit-widget .launcher');
  if ((await launcher.getAttribute('aria-expanded')) !== 'true') await launcher.click();
  const before = await page.locator('kit-widget .bot').count();
  await page.locator('kit-widget textarea').fill(question);
  await page.locator('kit-widget textarea').press('Enter');
  // An answer is finished when its bubble is no longer `live` (done, refused or failed).
  const answer = page.locator('kit-widget .msg.bot').nth(before);
  await page.locator('kit-widget .msg.bot:not(.live)').nth(before).waitFor({ timeout: 30_000 });
  return (await answer.textContent()) ?? '';
}

describe('extension content script (Chromium, unpacked extension)', function () {
  this.timeout(90_000);
  let ext: LoadedExtension;
  let site: TestSite;
  const pages: Page[] = [];

  async function openOn(path: string): Promise<{ page: Page; tabId: number }> {
    const page = await ext.context.newPage();
    pages.push(page);
    await page.goto(site.url + path);
    const tabId = await tabIdOf(ext, site.url + path);
    const status = await switchTab(ext, tabId, true);
    expect(status).to.match(/^On/);
    await page.locator('kit-widget').waitFor({ state: 'attached', timeout: 20_000 });
    return { page, tabId };
  }

  before(async function () {
    this.timeout(240_000);
    site = await startSite();
    ext = await launchWithExtension(await buildExtension(), ['--enable-unsafe-webgpu']);
    // Nothing listens on port 9: the assistant cannot reach the service and answers from the page itself.
    await saveOptions(ext, { endpoint: 'http://127.0.0.1:9/v1', apiKey: KEY });
  });
  after(async () => {
    await ext?.close();
    await site?.close();
  });
  afterEach(async () => {
    for (const page of pages.splice(0)) await page.close();
    await ext.background.evaluate(() => (globalThis as unknown as { chrome: { storage: { local: { remove(k: string): Promise<void> } } } }).chrome.storage.local.remove('kit.settings'));
  });

  it('puts the widget in a shadow root and answers from the page, without the key entering the page, when switched on', async () => {
    site.set('/pricing', PRICING);
    const { page } = await openOn('/pricing');
    expect(await page.locator('kit-widget').evaluate((el) => el.shadowRoot?.mode)).to.equal('open');
    expect(await ask(page, 'How much does the Pro plan cost?')).to.contain('29 euros');
    // The page's own world sees the widget's element, never the SDK, its configuration or the key.
    const leaked = await page.evaluate((key) => 'Kit' in window || document.documentElement.outerHTML.includes(key) || JSON.stringify(localStorage).includes(key)
      || Object.keys(window).some((k) => { try { const v = (window as unknown as Record<string, unknown>)[k]; return typeof v === 'string' && v.includes(key); } catch { return false; } }), KEY);
    expect(leaked).to.equal(false);
  });

  it('keeps a single assistant when the content script is injected twice', async () => {
    site.set('/twice', PRICING);
    const { page, tabId } = await openOn('/twice');
    await ext.background.evaluate(async (id) => {
      const chrome = (globalThis as unknown as { chrome: { scripting: { executeScript(o: object): Promise<unknown> } } }).chrome;
      await chrome.scripting.executeScript({ target: { tabId: id }, files: ['content.js'] });
      await chrome.scripting.executeScript({ target: { tabId: id }, files: ['content.js'] });
    }, tabId);
    await page.waitForTimeout(500);
    expect(await page.locator('kit-widget').count()).to.equal(1);
    expect(await ask(page, 'What does the Team plan cost?')).to.contain('99 euros');
  });

  it('works on a page whose CSP allows no script, no connection and only its own styles', async () => {
    site.set('/strict', PRICING, { 'Content-Security-Policy': "default-src 'none'; style-src 'self'" });
    const { page } = await openOn('/strict');
    const launcher = page.locator('kit-widget .launcher');
    // Styled although the page forbids inline styles: the widget's sheet is a constructed one.
    expect(await launcher.evaluate((el) => getComputedStyle(el).position)).to.equal('fixed');
    expect(await ask(page, 'How much does the Pro plan cost?')).to.contain('29 euros');
  });

  it('stays out of cross-origin iframes', async () => {
    const other = site.url.replace('127.0.0.1', 'localhost');
    site.set('/framed', `<!doctype html><title>Inner</title><main><p>The inner frame talks about tents and sleeping bags at length.</p></main>`);
    site.set('/outer', `<!doctype html><title>Outer</title><main><p>The outer page lists hiking boots and their prices.</p><iframe src="${other}/framed"></iframe></main>`);
    const { page } = await openOn('/outer');
    const frame = page.frames().find((f) => f.url().startsWith(other))!;
    await frame.waitForLoadState();
    await page.waitForTimeout(300);
    expect(await frame.locator('kit-widget').count()).to.equal(0);
    expect(await page.locator('kit-widget').count()).to.equal(1);
  });

  it('shows the QA panel what it sees: text, truncation, redaction counts and grounding verdicts', async () => {
    const filler = Array.from({ length: 700 }, (_, i) => `Trail note ${i}: the ridge path is steep after rain.`).join(' ');
    site.set('/qa', PRICING.replace('</main>', `<p>${filler}</p></main>`));
    const { tabId } = await openOn('/qa');
    const qa = await ext.context.newPage();
    pages.push(qa);
    await qa.goto(`chrome-extension://${ext.id}/qa.html?tab=${tabId}`);
    await qa.locator('#qa-stats').filter({ hasText: /characters/ }).waitFor({ timeout: 20_000 });
    expect(await qa.locator('#qa-url').textContent()).to.equal(`${site.url}/qa`);
    expect(await qa.locator('#qa-truncated').textContent()).to.match(/^Truncated: [\d,]+ characters cut/);
    expect(await qa.locator('#qa-redaction tr[data-kind="email"] td').textContent()).to.equal('1');
    expect(await qa.locator('#qa-redaction tr[data-kind="phone"] td').textContent()).to.equal('1');
    const text = (await qa.locator('#qa-pages pre').first().textContent()) ?? '';
    expect(text).to.contain('The Pro plan costs 29 euros');
    expect(text).to.contain('[REDACTED:EMAIL]');
    expect(text).not.to.contain('jane.doe@example.com');

    await qa.fill('#qa-question', 'How much does the Pro plan cost per month?');
    await qa.click('#qa-check');
    await qa.locator('#qa-verdict').filter({ hasText: /Grounded/ }).waitFor();
    expect(await qa.locator('#qa-matched span').allTextContents()).to.include.members(['plan', 'cost']);
    await qa.fill('#qa-question', 'Who won the football world cup in 1998?');
    await qa.click('#qa-check');
    await qa.locator('#qa-verdict').filter({ hasText: /Not grounded/ }).waitFor();
  });

  it('saves the popup\'s choices and restarts the assistant in the tab with them', async () => {
    site.set('/choices', PRICING);
    const { tabId } = await openOn('/choices');
    const qa = await ext.context.newPage();
    pages.push(qa);
    await qa.goto(`chrome-extension://${ext.id}/qa.html?tab=${tabId}`);
    await qa.locator('#qa-redaction tr[data-kind="email"]').waitFor({ timeout: 20_000 });
    const popup = await ext.context.newPage();
    pages.push(popup);
    await popup.goto(`chrome-extension://${ext.id}/popup.html?tab=${tabId}`);
    await popup.locator('#status').filter({ hasText: /^On/ }).waitFor();
    await popup.selectOption('#redact', 'off');
    await popup.locator('#status').filter({ hasText: /Saved/ }).waitFor();
    const stored = await ext.background.evaluate(async () => (await (globalThis as unknown as { chrome: { storage: { local: { get(k: string): Promise<Record<string, unknown>> } } } }).chrome.storage.local.get('kit.settings'))['kit.settings']);
    expect(stored).to.deep.equal({ mode: 'auto', model: 'auto', context: 'page', redact: 'off' });
    await qa.locator('#qa-redaction td').filter({ hasText: 'Nothing was masked.' }).waitFor({ timeout: 20_000 });
    expect(await qa.locator('#qa-pages pre').first().textContent()).to.contain('jane.doe@example.com');
  });

  it('reads the new page after a single-page-app navigation', async () => {
    site.set('/spa', `<!doctype html><title>Shop</title><main id="m"><p>Our shop sells hiking boots in three widths.</p></main>
<script>addEventListener('kit-test-go', () => { history.pushState({}, '', '/spa/returns'); document.getElementById('m').innerHTML = '<p>Returns are free within 60 days of delivery.</p>'; document.title = 'Returns'; });</script>`);
    const { page, tabId } = await openOn('/spa');
    const qa = await ext.context.newPage();
    pages.push(qa);
    await qa.goto(`chrome-extension://${ext.id}/qa.html?tab=${tabId}`);
    await qa.locator('#qa-pages pre').filter({ hasText: 'hiking boots' }).waitFor({ timeout: 20_000 });
    await page.evaluate(() => dispatchEvent(new Event('kit-test-go')));
    await qa.locator('#qa-pages pre').filter({ hasText: 'free within 60 days' }).waitFor({ timeout: 20_000 });
    expect(await qa.locator('#qa-url').textContent()).to.equal(`${site.url}/spa/returns`);
    expect(await ask(page, 'Are returns free?')).to.contain('60 days');
  });

  it('removes the widget and every listener it added when switched off', async () => {
    site.set('/off', PRICING + `<script>window.kitKeys = []; addEventListener('keydown', (e) => { if (e.code === 'KeyK') kitKeys.push(e.defaultPrevented); });</script>`);
    const { page, tabId } = await openOn('/off');
    // The content script's listeners live in the extension's isolated world: look at them from there.
    const cdp = await ext.context.newCDPSession(page);
    const worlds: { id: number; name: string; auxData?: { type?: string } }[] = [];
    cdp.on('Runtime.executionContextCreated', (e) => void worlds.push(e.context as never));
    await cdp.send('Runtime.enable');
    const isolated = worlds.find((w) => w.auxData?.type === 'isolated' && w.name === 'Kit preview')!.id;
    expect(await listenerTypes(cdp, 'window', isolated)).to.include.members(['keydown', 'popstate']);
    expect(await listenerTypes(cdp, 'navigation', isolated)).to.deep.equal(['currententrychange']);
    await page.keyboard.press('Alt+Shift+KeyK');
    expect(await page.locator('kit-widget .launcher').getAttribute('aria-expanded')).to.equal('true');
    expect(await page.evaluate(() => (window as unknown as { kitKeys: boolean[] }).kitKeys), 'the shortcut is handled while on').to.deep.equal([true]);
    await page.keyboard.press('Escape');

    expect(await switchTab(ext, tabId, false)).to.match(/^Off/);
    await page.locator('kit-widget').waitFor({ state: 'detached' });
    // Nothing of Kit's is left listening on window, document or navigation; the page's own listener still works.
    expect(await listenerTypes(cdp, 'window', isolated)).to.deep.equal([]);
    expect(await listenerTypes(cdp, 'document', isolated)).to.deep.equal([]);
    expect(await listenerTypes(cdp, 'navigation', isolated)).to.deep.equal([]);
    await page.evaluate(() => { (window as unknown as { kitKeys: boolean[] }).kitKeys.length = 0; });
    await page.keyboard.press('Alt+Shift+KeyK');
    expect(await page.evaluate(() => (window as unknown as { kitKeys: boolean[] }).kitKeys)).to.deep.equal([false]);
    expect(await page.locator('kit-widget').count()).to.equal(0);
    await cdp.detach();
  });

  it('falls back cleanly and says why in the QA panel when local mode has no model weights', async () => {
    site.set('/local', PRICING);
    // Self-hosted weights that are not there: WebLLM fails fast with a 404 instead of trying the internet.
    await saveOptions(ext, { endpoint: 'http://127.0.0.1:9/v1', apiKey: KEY, modelBaseUrl: `${site.url}/no-models/` });
    await ext.background.evaluate(() => (globalThis as unknown as { chrome: { storage: { local: { set(v: object): Promise<void> } } } }).chrome.storage.local.set({ 'kit.settings': { mode: 'local', model: 'nano', context: 'page', redact: 'all' } }));
    try {
      const { page, tabId } = await openOn('/local');
      const qa = await ext.context.newPage();
      pages.push(qa);
      await qa.goto(`chrome-extension://${ext.id}/qa.html?tab=${tabId}`);
      await qa.locator('#qa-errors li').filter({ hasText: /^model_load_failed/ }).waitFor({ timeout: 60_000 });
      await qa.locator('#qa-engine').filter({ hasText: 'extractive' }).waitFor({ timeout: 20_000 });
      // The offscreen document ran WebLLM, which looked for the weights where the options say they are.
      expect(site.requests.some((path) => path.startsWith('/no-models/'))).to.equal(true);
      expect(await ask(page, 'How much does the Pro plan cost?')).to.contain('29 euros');
    } finally {
      await saveOptions(ext, { endpoint: 'http://127.0.0.1:9/v1', apiKey: KEY });
    }
  });
});
