/**
 * The instance with its widget in Chromium, the assistant replaced by an in-page fake (engines and the server are
 * other tests' subject): the launcher first and the panel on intent, a thread kept across a reload and shown when the
 * panel opens (mid-answer too), the owner's settings (greeting, starters, placement, language, notice) under the
 * snippet's options.
 */
import { expect } from 'chai';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, newTestPage } from '../support/chromium.js';
import { HOST_ORIGIN } from './widget/harness.js';

const ENTRY = `
import { normalizeConfig } from './core/config/index.js';
import { formatKey } from './core/keys/key-format.js';
import { createInstance } from './sdk/instance.js';
import { KitError } from './core/errors/index.js';
const KEY = formatKey('publishable', Uint8Array.from({ length: 32 }, (_, i) => i + 3));
const READY = { mode: 'remote', model: 'fake', context: { pages: 1, chars: 10, truncated: false, cut: { pages: 0, chars: 0 } } };
const SETTINGS = { name: null, greeting: null, starter_questions: [], instructions: null, refusal_message: null, contact_url: null,
  theme: { accent: null, scheme: 'auto', position: 'bottom-right', launcher_label: null, logo_url: null }, language: 'auto', placement: 'launcher',
  logging: { mode: 'off', notice: null } };
export function start(options, settings, opts = {}) {
  const log = { asks: [], loaded: [], errors: [] };
  const assistant = {
    ready: READY,
    async ask(question, history, { signal, onToken }) {
      log.asks.push({ question, history });
      const text = 'The Pro plan costs 20 euros a month [1].';
      for (let i = 0; i < text.length; i += 5) {
        if (signal.aborted) throw signal.reason;
        onToken(text.slice(i, i + 5));
        await new Promise((r) => setTimeout(r, opts.slow ? 60 : 2));
      }
      return { id: 'msg_abcdefghijkl', text, citations: [{ url: location.href, title: 'Pricing', text: 'The Pro plan costs 20 euros a month.' }], refused: false, mode: 'remote', model: 'fake' };
    },
    async feedback() { return { commentStored: false }; },
    destroy() {},
  };
  const config = normalizeConfig({ apiKey: KEY, onError: (e) => log.errors.push(e), ...options }).config;
  const loadWidget = () => { log.loaded.push('kit-ui'); return import('./sdk/widget/index.js'); };
  const inst = createInstance(config, {}, async () => async (_config, _host, hooks) => {
    await new Promise((r) => setTimeout(r, opts.readyDelay ?? 10));
    if (opts.fail) throw new KitError(opts.fail, 'This key does not allow the origin ' + location.origin + '.');
    // The owner's settings, as the runtime passes them when GET /config answers (here just before ready).
    hooks.settings?.(settings ? { ...SETTINGS, ...settings } : null);
    return assistant;
  }, loadWidget);
  return { inst, log };
}
`;

let bundle: Promise<string> | null = null;
const pageBundle = () => (bundle ??= build({ stdin: { contents: ENTRY, resolveDir: process.cwd(), loader: 'ts' }, bundle: true, format: 'iife', globalName: 'KitInst', write: false, target: 'es2022' }).then((r) => r.outputFiles[0]!.text));

declare global {
  interface Window {
    KitInst: { start(options: Record<string, unknown>, settings: Record<string, unknown> | null, opts?: Record<string, unknown>): { inst: any; log: { asks: any[]; loaded: string[] } } };
    t: { inst: any; log: { asks: any[]; loaded: string[] } };
  }
}

describe('createInstance with the widget (Chromium)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;

  before(async () => { browser = await launchChromium(); });
  after(async () => { await browser?.close(); });
  beforeEach(async () => {
    page = await newTestPage(browser, { viewport: { width: 1200, height: 800 } });
    page.setDefaultTimeout(5000);
    await page.route(`${HOST_ORIGIN}/**`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: `<!doctype html><html lang="${new URL(route.request().url()).searchParams.get('lang') ?? 'en'}"><head><title>Pricing</title></head><body><h1>Pricing</h1><p>The Pro plan costs 20 euros a month.</p><div id="help"></div><button id="outside">Outside</button></body></html>` }));
  });
  afterEach(async () => { await page.close(); });

  const load = async (path = '/', options: Record<string, unknown> = {}, settings: Record<string, unknown> | null = null, opts: Record<string, unknown> = {}) => {
    await page.goto(`${HOST_ORIGIN}${path}`);
    await page.addScriptTag({ content: await pageBundle() });
    await page.evaluate(({ options, settings, opts }) => { window.t = window.KitInst.start(options, settings, opts); }, { options, settings, opts });
  };
  const panel = () => page.locator('kit-widget .panel');

  it('shows the launcher at once and loads the panel only on intent', async () => {
    await load();
    await page.locator('kit-widget .launcher').waitFor();
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => window.t.log.loaded)).to.deep.equal([]);
    expect(await panel().count()).to.equal(0);
    await page.locator('kit-widget .launcher').hover();
    await page.waitForFunction(() => window.t.log.loaded.length === 1);
    expect(await panel().count()).to.equal(1);
    expect(await panel().isVisible()).to.equal(false);
    await page.locator('kit-widget .launcher').click();
    await panel().waitFor();
    expect(await page.evaluate(() => window.t.log.loaded)).to.deep.equal(['kit-ui']);
  });

  it('keeps an API answer asked with the panel closed, and shows an answer still streaming when the panel opens', async () => {
    await load('/', {}, null, { slow: true });
    const first = page.evaluate(() => window.t.inst.ask('How much is Pro?').then((a: { text: string }) => a.text));
    await page.waitForTimeout(250); // mid-answer
    expect(await panel().count()).to.equal(0);
    await page.locator('kit-widget .launcher').click();
    await panel().waitFor();
    expect(await page.locator('kit-widget .me').textContent()).to.equal('You: How much is Pro?');
    expect(await first).to.include('20 euros');
    await page.locator('kit-widget .bot .src').waitFor();
    expect(await page.locator('kit-widget .bot .b').textContent()).to.equal('The Pro plan costs 20 euros a month 1.');
    expect(await page.locator('kit-widget .bot').count()).to.equal(1);
  });

  it('restores the thread after a reload, sends it with the follow-up, and forgets it on New conversation', async () => {
    await load();
    await page.evaluate(() => window.t.inst.ask('How much is Pro?'));
    await load();
    await page.locator('kit-widget .launcher').click();
    await panel().waitFor();
    expect(await page.locator('kit-widget .me').allTextContents()).to.deep.equal(['You: How much is Pro?']);
    expect(await page.locator('kit-widget .bot a.ci').getAttribute('href')).to.match(/#:~:text=|\/$/);
    await page.locator('kit-widget textarea').fill('And yearly?');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.t.log.asks.length === 1);
    expect(await page.evaluate(() => window.t.log.asks[0].history)).to.deep.equal([{ role: 'user', content: 'How much is Pro?' }, { role: 'assistant', content: 'The Pro plan costs 20 euros a month.' }]);
    await page.locator('kit-widget .bot').nth(1).locator('.cpa').waitFor();
    await page.getByRole('button', { name: 'New conversation' }).click();
    await load();
    await page.locator('kit-widget .launcher').click();
    await panel().waitFor();
    expect(await page.locator('kit-widget .msg').count()).to.equal(0);
  });

  it("applies the owner's greeting, starters, notice and name, with the snippet's strings winning", async () => {
    await load('/', { strings: { launcher: 'Help' } }, { name: 'Acme Help', greeting: 'Hello!', starter_questions: ['How much is Pro?'], logging: { mode: 'redacted', notice: null } });
    await page.waitForFunction(() => document.querySelector('kit-widget')?.shadowRoot?.querySelector('.launcher')?.getAttribute('aria-label') === 'Help');
    await page.locator('kit-widget .launcher').click();
    await panel().waitFor();
    await page.waitForFunction(() => document.querySelector('kit-widget')!.shadowRoot!.querySelector('h2')!.textContent === 'Acme Help');
    expect(await page.locator('kit-widget .intro').textContent()).to.equal('Hello!');
    expect(await page.locator('kit-widget .sq').allTextContents()).to.deep.equal(['How much is Pro?']);
    expect(await page.locator('kit-widget .notice').textContent()).to.include('stored');
    await page.locator('kit-widget .sq').click();
    await page.waitForFunction(() => window.t.log.asks.length === 1);
  });

  it("moves to the owner's placement and language when the snippet sets none, and keeps the snippet's when it does", async () => {
    await load('/', {}, { placement: 'sidebar', language: 'fr' });
    await page.waitForFunction(() => document.querySelector('kit-widget')?.shadowRoot?.querySelector('.launcher')?.getAttribute('aria-label') === 'Une question sur cette page');
    await page.locator('kit-widget .launcher').click();
    await panel().waitFor();
    expect(await page.evaluate(() => (document.querySelector('kit-widget') as HTMLElement).dataset.p)).to.equal('sidebar');
    await load('/', { placement: 'inline', target: '#help', language: 'it' }, { placement: 'sidebar', language: 'fr' });
    await panel().waitFor();
    expect(await page.evaluate(() => document.querySelector('#help > kit-widget') !== null)).to.equal(true);
    await page.waitForFunction(() => document.querySelector('kit-widget')!.shadowRoot!.querySelector('h2')!.textContent === 'Chiedi su questa pagina');
    await load('/?lang=nl-BE');
    await page.waitForFunction(() => document.querySelector('kit-widget')?.shadowRoot?.querySelector('.launcher')?.getAttribute('aria-label') === 'Vraag over deze pagina');
  });

  it('shows a question asked while the page is still being read at once, busy, and answers it once the assistant is ready', async () => {
    await load('/', {}, null, { readyDelay: 1500 });
    await page.locator('kit-widget .launcher').click();
    await panel().waitFor();
    await page.locator('kit-widget textarea').fill('How much is Pro?');
    await page.keyboard.press('Enter');
    // Before the assistant is ready (1.5 s): the question is in the conversation and an answer is under way.
    await page.locator('kit-widget .me').waitFor({ timeout: 1000 });
    expect(await page.locator('kit-widget .log').getAttribute('aria-busy')).to.equal('true');
    expect(await page.evaluate(() => window.t.log.asks.length)).to.equal(0);
    await page.locator('kit-widget .bot', { hasText: 'The Pro plan costs 20 euros a month' }).waitFor();
    expect(await page.locator('kit-widget .me').count()).to.equal(1);
    expect(await page.evaluate(() => window.t.log.asks.length)).to.equal(1);
  });

  it("says 'not set up' in the page's language, on opening and on asking, when the service refuses the key or origin", async () => {
    await load('/?lang=de', {}, null, { fail: 'origin_not_allowed' });
    await page.waitForFunction(() => (window.t.log as unknown as { errors: unknown[] }).errors.length === 1);
    // The panel opens after the start failed: the explanation is there at once, in German.
    await page.locator('kit-widget .launcher').click();
    await panel().waitFor();
    // Each error reads with the screen-reader speaker prefix ("Assistent:" in German).
    const errors = () => page.locator('kit-widget .log .err').allTextContents().then((all) => all.map((t) => t.replace(/^(Assistent|Assistant): /, '')));
    const notSetUp = 'Der Assistent ist für diese Website noch nicht eingerichtet und kann hier deshalb nicht antworten.';
    await page.waitForFunction(() => document.querySelector('kit-widget')!.shadowRoot!.querySelectorAll('.log .err').length === 1);
    expect(await errors()).to.deep.equal([notSetUp]);
    await page.locator('kit-widget textarea').fill('Was kostet Pro?');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('kit-widget')!.shadowRoot!.querySelectorAll('.log .err').length === 2);
    expect(await errors()).to.deep.equal([notSetUp, notSetUp]);
    expect(await page.locator('kit-widget .me').textContent()).to.equal('Sie: Was kostet Pro?');
    // The question's answer is that explanation: one failed answer, no engine asked.
    expect(await page.locator('kit-widget .bot.failed').count()).to.equal(1);
    expect(await page.evaluate(() => window.t.log.asks.length)).to.equal(0);
    // Other failures still read as themselves.
    await load('/', {}, null, { fail: 'service_unavailable' });
    await page.locator('kit-widget .launcher').click();
    await page.locator('kit-widget .log .err').waitFor();
    expect(await errors()).to.deep.equal([`This key does not allow the origin ${HOST_ORIGIN}.`]);
  });

  it('falls back to the launcher and reports invalid_config when the inline target is missing', async () => {
    await load('/', { placement: 'inline', target: '#nowhere' });
    await page.locator('kit-widget .launcher').waitFor();
    expect(await page.evaluate(() => (window.t.log as unknown as { errors: { code: string }[] }).errors.map((e) => e.code))).to.deep.equal(['invalid_config']);
  });
});
