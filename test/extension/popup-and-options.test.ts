/**
 * The extension's own pages in real Chromium (issue #10 §8): the popup's choices are readable at its width, the
 * options page names every invalid field at once, and a site's allow list keeps its published contact details
 * visible while redaction still masks everything else.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { formatKey } from '../../core/keys/key-format.js';
import { buildExtension, launchWithExtension, openPopup, saveOptions, startSite, switchTab, tabIdOf, type LoadedExtension, type TestSite } from './support.js';

const KEY = formatKey('publishable', new Uint8Array(32).fill(12));
const CONTACT = `<!doctype html><html lang="en"><head><title>Contact — Trailhead</title></head><body><main><h1>Contact</h1>
<p>Our support team answers within a day. Write to support@shop.example.com or call +1 415 555 0132 on weekdays.</p>
<p>Refunds are handled by Jane Doe (jane.doe@example.com) in the billing office.</p></main></body></html>`;

type StorageArea = { get(k: string): Promise<Record<string, unknown>> };
const readStored = (ext: LoadedExtension, key: string): Promise<unknown> =>
  ext.background.evaluate(async (k) => (await (globalThis as unknown as { chrome: { storage: { local: StorageArea } } }).chrome.storage.local.get(k))[k], key);

describe('extension popup and options pages (Chromium, unpacked extension)', function () {
  this.timeout(90_000);
  let ext: LoadedExtension;
  let site: TestSite;
  const pages: Page[] = [];

  before(async function () {
    this.timeout(240_000);
    site = await startSite();
    ext = await launchWithExtension(await buildExtension());
    // An unreachable endpoint on purpose: the assistant then reads the page and answers in it (extractive engine).
    await saveOptions(ext, { endpoint: 'http://127.0.0.1:9/v1', apiKey: KEY });
  });
  after(async () => {
    await ext?.close();
    await site?.close();
  });
  afterEach(async () => {
    for (const p of pages.splice(0)) await p.close();
  });

  it("shows every choice of the popup's selects in full at its width, and explains the chosen mode", async () => {
    site.set('/p', CONTACT);
    const page = await ext.context.newPage();
    pages.push(page);
    await page.goto(`${site.url}/p`);
    const popup = await openPopup(ext, await tabIdOf(ext, `${site.url}/p`));
    pages.push(popup);
    const overflowing = await popup.evaluate(() => {
      const ctx = document.createElement('canvas').getContext('2d')!;
      const out: string[] = [];
      for (const select of document.querySelectorAll('select')) {
        const cs = getComputedStyle(select);
        ctx.font = cs.font;
        // The closed select shows the chosen option's text between its padding and the drop-down arrow (≈ 24 px).
        const room = select.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 24;
        for (const option of select.options) if (ctx.measureText(option.text).width > room) out.push(`${select.id}: ${option.text}`);
      }
      return out;
    });
    expect(overflowing).to.deep.equal([]);
    expect(await popup.locator('#mode-hint').textContent()).to.match(/^Local when this device has a GPU/);
    await popup.selectOption('#mode', 'remote');
    expect(await popup.locator('#mode-hint').textContent()).to.match(/Platform API/);
    await popup.selectOption('#mode', 'auto');
  });

  it('names every invalid field of the options page at once and saves nothing', async () => {
    const options = await ext.context.newPage();
    pages.push(options);
    await options.goto(`chrome-extension://${ext.id}/options.html`);
    await options.waitForFunction(() => !(document.getElementById('fields') as HTMLFieldSetElement).disabled);
    await options.fill('#endpoint', 'localhost 8787');
    await options.fill('#apiKey', 'kit_pub_not-a-key');
    await options.fill('#modelBaseUrl', '/models');
    await options.click('#save');
    await options.locator('#endpoint-error').filter({ hasText: /base URL/ }).waitFor();
    expect(await options.locator('#apiKey-error').textContent()).to.match(/not a Kit key/);
    expect(await options.locator('#modelBaseUrl-error').textContent()).to.match(/absolute http\(s\) URL/);
    expect(await options.evaluate(() => document.activeElement?.id)).to.equal('endpoint');
    expect(await readStored(ext, 'kit.connection')).to.deep.include({ endpoint: 'http://127.0.0.1:9/v1', apiKey: KEY });
  });

  it("keeps a site's listed contact details visible after redaction, and only on that site", async () => {
    site.set('/contact', CONTACT);
    const page = await ext.context.newPage();
    pages.push(page);
    await page.goto(`${site.url}/contact`);
    const tabId = await tabIdOf(ext, `${site.url}/contact`);
    expect(await switchTab(ext, tabId, true)).to.match(/^On/);
    const qa = await ext.context.newPage();
    pages.push(qa);
    await qa.goto(`chrome-extension://${ext.id}/qa.html?tab=${tabId}`);
    const pageText = () => qa.locator('#qa-pages pre').first().textContent();
    // The default: redaction cannot tell a published address from a person's, so both are masked.
    await qa.locator('#qa-redaction tr[data-kind="email"] td').filter({ hasText: '2' }).waitFor({ timeout: 20_000 });
    expect(await pageText()).to.not.include('support@shop.example.com');

    const popup = await openPopup(ext, tabId);
    pages.push(popup);
    expect(await popup.locator('#allow-site').textContent()).to.equal(new URL(site.url).hostname);
    await popup.fill('#allow', 'support@shop.example.com\n+1 (415) 555-0132\n');
    await popup.click('#allow-save');
    await popup.locator('#allow-status').filter({ hasText: /Saved: 2 kept visible/ }).waitFor();
    expect(await readStored(ext, 'kit.allow')).to.deep.equal({ [new URL(site.url).hostname]: ['support@shop.example.com', '+1 (415) 555-0132'] });

    // The tab restarts with the list: the support address and hotline are back, Jane's address stays masked.
    await qa.locator('#qa-redaction tr[data-kind="email"] td').filter({ hasText: /^1$/ }).waitFor({ timeout: 20_000 });
    const text = (await pageText()) ?? '';
    expect(text).to.include('support@shop.example.com').and.include('+1 415 555 0132');
    expect(text).to.not.include('jane.doe@example.com');
    expect(await qa.locator('#qa-redaction tr[data-kind="phone"]').count()).to.equal(0);

    await popup.fill('#allow', '@');
    await popup.click('#allow-save');
    await popup.locator('#allow-error').filter({ hasText: /domain after @/ }).waitFor();
  });
});
