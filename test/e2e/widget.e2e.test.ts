/**
 * The widget as visitors and site developers meet it (issue 15): real Chromium, the real Kit server (child process,
 * embedded database) with the owner's settings set through its API, the built SDK it serves, loopback websites.
 * Every flow here runs by keyboard where a visitor would; axe-core checks every placement.
 */
import { expect } from 'chai';
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { snippet } from '../../console/src/views/snippets.js';
import { launchChromium, newTestPage } from '../support/chromium.js';
import { ensureSdkBuilt, startKitServer, type KitServer } from './support/kit-server.js';
import { startSiteServer, type SiteServer } from './support/site-server.js';

const FACTS = [
  'The Summit membership costs $49 per year and includes free standard shipping.',
  'The Expedition membership costs $129 per year and includes unlimited free repairs.',
  'Orders placed before 1 pm Eastern time leave the workshop the same day.',
  'The Ridgeline 2 tent weighs 890 grams and pitches in under three minutes with two trekking poles.',
];
const FILLER = Array.from({ length: 14 }, (_, i) => `Section ${i + 1} of the store guide describes trail etiquette, packing lists and seasonal advice for hikers in the northern ranges.`);
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

declare global {
  interface Window {
    Kit: { init(options: unknown, host?: unknown): any };
    __kit: any;
    __events: [string, any][];
    axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown[] }[] }[] }> };
  }
}

/** A page of the test site: `lang`, extra head/body, and the SDK script (or not, for the snippet tests). */
function sitePage(kitUrl: string, o: { title?: string; lang?: string; head?: string; before?: string; after?: string; script?: string | null; paragraphs?: string[] } = {}): string {
  const script = o.script === undefined ? `<script src="${kitUrl}/sdk/kit.js"></script>` : o.script ?? '';
  return `<!doctype html><html lang="${o.lang ?? 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${o.title ?? 'Memberships'}</title>${o.head ?? ''}</head><body>
<header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>
<main><article><h1>${o.title ?? 'Memberships'}</h1>${o.before ?? ''}${(o.paragraphs ?? FACTS).map((p) => `<p>${p}</p>`).join('\n')}${o.after ?? ''}</article></main>
<footer>© Test site</footer>
${script}
</body></html>`;
}

async function initKit(page: Page, options: Record<string, unknown>, host: Record<string, unknown> = {}): Promise<void> {
  await page.evaluate(({ options, host }) => {
    window.__events = [];
    const inst = window.Kit.init(options, host);
    for (const ev of ['ready', 'mode', 'progress', 'message', 'error', 'open', 'close']) inst.on(ev, (p: unknown) => window.__events.push([ev, p]));
    window.__kit = inst;
  }, { options, host });
}
async function waitForEvent(page: Page, name: string, timeout = 90_000): Promise<any> {
  await page.waitForFunction((n) => window.__events.some((e) => e[0] === n), name, { timeout });
  return (await page.evaluate(() => window.__events)).find((e) => e[0] === name)![1];
}
async function waitForAnswers(page: Page, n: number): Promise<void> {
  await page.waitForFunction((k) => window.__events.filter((e) => e[0] === 'message' && e[1].role === 'assistant').length >= k, n, { timeout: 60_000 });
}
/** What has focus: `widget:<class or tag>` inside the widget's shadow root, else `page:<id or tag>`. */
const focused = (page: Page): Promise<string> => page.evaluate(() => {
  const inner = document.querySelector('kit-widget')?.shadowRoot?.activeElement;
  if (inner) return 'widget:' + (inner.className || inner.localName);
  return 'page:' + (document.activeElement?.id || document.activeElement?.localName || '');
});
async function tabTo(page: Page, target: string, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    if ((await focused(page)) === target) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target} (at ${await focused(page)})`);
}
/** axe-core on the whole page, widget included (axe reads open shadow roots): serious and critical violations. */
async function axeSerious(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

describe('Widget end to end (Chromium + real server)', function () {
  this.timeout(240_000);
  let kit: KitServer;
  let plain: { token: string; key: string };
  let owned: { token: string; key: string };
  let site: SiteServer;
  let browser: Browser;
  let page: Page;

  const settings = async (token: string, body: Record<string, unknown>) => {
    const r = await fetch(`${kit.url}/v1/assistant`, { method: 'PATCH', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'if-match': '*' }, body: JSON.stringify(body) });
    if (r.status !== 200) throw new Error(`PATCH /assistant: ${r.status} ${await r.text()}`);
  };

  before(async () => {
    ensureSdkBuilt();
    kit = await startKitServer({ KIT_SETTINGS_CACHE_TTL_MS: '0' });
    plain = await kit.developerKey([]);
    owned = await kit.developerKey([]);
    await settings(owned.token, {
      greeting: 'Hi! Ask me about our memberships.',
      starter_questions: ['How much does the Summit membership cost?', 'When do orders leave the workshop?'],
      contact_url: 'mailto:help@shop.example',
      refusal_message: 'I can only answer questions about this page.',
    });
    site = await startSiteServer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await kit?.stop();
  });
  beforeEach(async () => {
    page = await newTestPage(browser, { viewport: { width: 1280, height: 800 } });
  });
  afterEach(async () => {
    await page?.close();
  });

  const launcher = () => page.locator('kit-widget .launcher');
  const panel = () => page.locator('kit-widget .panel');

  it('greets with starter questions, answers one by keyboard with numbered citations, previews and highlights the cited passage', async () => {
    site.set('/tour', sitePage(kit.url, { before: [...FILLER, ...FILLER].map((p) => `<p>${p}</p>`).join('') }));
    await page.goto(`${site.origin}/tour`);
    await initKit(page, { apiKey: owned.key, mode: 'remote' });
    await waitForEvent(page, 'ready');
    // No panel code before the visitor shows intent; focusing the launcher loads it.
    expect(await panel().count()).to.equal(0);
    await page.locator('nav a').first().focus();
    await tabTo(page, 'widget:launcher');
    await page.keyboard.press('Enter');
    await panel().waitFor();
    expect(await focused(page)).to.equal('widget:textarea');
    expect(await page.locator('kit-widget .intro').textContent()).to.equal('Hi! Ask me about our memberships.');
    expect(await page.locator('kit-widget .sq').allTextContents()).to.deep.equal(['How much does the Summit membership cost?', 'When do orders leave the workshop?']);
    expect(await page.locator('kit-widget h2').textContent()).to.equal('Ask about this page');
    expect(await panel().getAttribute('aria-modal')).to.equal(null);
    await page.keyboard.press('Shift+Tab'); // textarea → … back to the last starter question
    for (let i = 0; i < 6 && !(await focused(page)).startsWith('widget:sq'); i++) await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).to.equal('widget:sq');
    await page.keyboard.press('Enter'); // the first starter question
    await waitForAnswers(page, 1);
    const answer = page.locator('kit-widget .bot').last();
    expect(await answer.locator('.b').textContent()).to.include('$49');
    // One numbering: a marker [n] in the text and the n-th entry of Sources are the same passage, the same link.
    const sources = answer.locator('.src li a');
    for (const m of await answer.locator('.b a.ci').all()) {
      const n = Number(await m.textContent());
      expect(await m.getAttribute('href')).to.equal(await sources.nth(n - 1).getAttribute('href'));
    }
    const cite = sources.first();
    const href = await cite.getAttribute('href');
    expect(href).to.match(new RegExp(`^${site.origin}/tour#:~:text=`));
    // The passage shows on focus, and Escape hides it first (the panel stays open).
    await cite.focus();
    await page.locator('kit-widget .tip').waitFor();
    const cited = await page.evaluate(() => window.__events.find((e) => e[0] === 'message' && e[1].role === 'assistant')![1].citations[0].text as string);
    expect(cited).to.include('$49');
    expect(await page.locator('kit-widget .tip').textContent()).to.include(cited.slice(0, 60));
    expect(await cite.getAttribute('aria-describedby')).to.equal('kit-tip');
    await page.keyboard.press('Escape');
    await page.locator('kit-widget .tip').waitFor({ state: 'hidden' });
    expect(await panel().isVisible()).to.equal(true);
    // Enter on the citation scrolls to the passage on this page and highlights it (no navigation).
    const fact = page.locator('article p', { hasText: 'Summit membership costs $49' });
    expect((await fact.boundingBox())!.y).to.be.above(800); // below the fold before
    await page.keyboard.press('Enter');
    await page.locator('kit-widget .hl i').first().waitFor();
    expect(page.url()).to.equal(`${site.origin}/tour`);
    await page.waitForTimeout(1000); // the smooth scroll ends; the overlay follows it
    const para = (await fact.boundingBox())!;
    expect(para.y).to.be.within(0, 800 - para.height);
    const boxes = await page.locator('kit-widget .hl i').evaluateAll((is) => is.map((i) => i.getBoundingClientRect().toJSON() as DOMRect));
    expect(boxes.some((b) => b.y < para.y + para.height && b.y + b.height > para.y), JSON.stringify(boxes)).to.equal(true);
    // Copy the whole answer.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
    await answer.locator('.cpa').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.include('$49');
    expect(await axeSerious(page)).to.deep.equal([]);
  });

  it('keeps the thread across a reload and a navigation in the tab, sends follow-ups in context, and starts over on "New conversation"', async () => {
    site.set('/keep', sitePage(kit.url));
    site.set('/about', sitePage(kit.url, { title: 'About', paragraphs: ['The shop was founded in 1998 by two climbers.', ...FACTS] }));
    const chats: any[] = [];
    page.on('request', (r) => { if (r.url().endsWith('/v1/chat')) chats.push(JSON.parse(r.postData() ?? '{}')); });
    await page.goto(`${site.origin}/keep`);
    await initKit(page, { apiKey: plain.key, mode: 'remote' });
    await waitForEvent(page, 'ready');
    await page.evaluate(() => window.__kit.ask('How much does the Summit membership cost?'));
    const id = await page.evaluate(() => window.__kit.conversationId);
    await page.reload();
    await initKit(page, { apiKey: plain.key, mode: 'remote' });
    await waitForEvent(page, 'ready');
    expect(await page.evaluate(() => window.__kit.conversationId)).to.equal(id);
    await launcher().click();
    await panel().waitFor();
    expect(await page.locator('kit-widget .me').allTextContents()).to.deep.equal(['You: How much does the Summit membership cost?']);
    expect(await page.locator('kit-widget .bot .b').first().textContent()).to.include('$49');
    await page.locator('kit-widget textarea').fill('And the Expedition membership?');
    await page.keyboard.press('Enter');
    await waitForAnswers(page, 1);
    expect(chats.at(-1).messages.map((m: { role: string }) => m.role)).to.deep.equal(['user', 'assistant', 'user']);
    expect(chats.at(-1).conversation_id).to.equal(id);
    // Another page of the site in the same tab: the thread is there, and the panel too.
    await page.goto(`${site.origin}/about`);
    await initKit(page, { apiKey: plain.key, mode: 'remote' });
    await launcher().click();
    await panel().waitFor();
    expect(await page.locator('kit-widget .me').count()).to.equal(2);
    await page.locator('kit-widget .new').click();
    expect(await page.locator('kit-widget .msg').count()).to.equal(0);
    expect(await page.locator('kit-widget .intro').isVisible()).to.equal(true);
    expect(await focused(page)).to.equal('widget:textarea');
    expect(await page.evaluate(() => window.__kit.conversationId)).to.not.equal(id);
    await page.reload();
    await initKit(page, { apiKey: plain.key, mode: 'remote' });
    await launcher().click();
    await panel().waitFor();
    expect(await page.locator('kit-widget .msg').count()).to.equal(0);
  });

  it('shows the logging notice and takes thumbs and a comment by keyboard when the owner logs questions', async () => {
    const logged = await kit.developerKey([]);
    const r = await fetch(`${kit.url}/v1/org/question-logging`, { method: 'PATCH', headers: { 'content-type': 'application/json', authorization: `Bearer ${logged.token}`, 'if-match': '*' }, body: JSON.stringify({ mode: 'redacted' }) });
    expect(r.status).to.equal(200);
    site.set('/thumbs', sitePage(kit.url));
    const votes: any[] = [];
    page.on('request', (q) => { if (q.url().endsWith('/v1/feedback')) votes.push(JSON.parse(q.postData() ?? '{}')); });
    await page.goto(`${site.origin}/thumbs`);
    await initKit(page, { apiKey: logged.key, mode: 'remote' });
    await waitForEvent(page, 'ready');
    await launcher().click();
    await panel().waitFor();
    expect(await page.locator('kit-widget .notice').textContent()).to.equal("Questions you ask here are stored to improve this site's help. Please don't share personal information.");
    await page.keyboard.type('How much does the Summit membership cost?');
    await page.keyboard.press('Enter');
    await waitForAnswers(page, 1);
    await page.locator('kit-widget .fb button').first().waitFor();
    expect(await focused(page)).to.equal('widget:textarea');
    await page.keyboard.press('Shift+Tab'); // back from the question field to the last thumb
    expect(await page.evaluate(() => document.querySelector('kit-widget')!.shadowRoot!.activeElement!.textContent)).to.include('Not helpful');
    await page.keyboard.press('Enter');
    expect(await focused(page)).to.equal('widget:input');
    await page.keyboard.type('The price for students is missing.');
    await page.keyboard.press('Enter');
    await page.locator('kit-widget .fb .ok', { hasText: 'Thanks for your feedback.' }).waitFor();
    expect(await page.locator('kit-widget .fb button[aria-pressed=true]').textContent()).to.include('Not helpful');
    expect(votes.at(-1)).to.deep.include({ rating: 'down', comment: 'The price for students is missing.' });
    expect(votes.at(-1).message_id).to.match(/^req_/);
    expect(await axeSerious(page)).to.deep.equal([]);
  });

  it('refuses off-topic questions with a full sentence and the contact link as the next step (the service gates remote answers)', async () => {
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    site.set('/refuse', sitePage(kit.url));
    await page.goto(`${site.origin}/refuse`);
    await initKit(page, { apiKey: owned.key, mode: 'remote' });
    await waitForEvent(page, 'ready');
    await launcher().click();
    await page.locator('kit-widget textarea').fill('What is the boiling point of liquid nitrogen in kelvin?');
    await page.keyboard.press('Enter');
    await waitForAnswers(page, 1);
    const refusal = page.locator('kit-widget .refusal');
    expect(await refusal.locator('p').first().textContent()).to.equal('I can only answer questions about this page.');
    expect(await refusal.locator('p').nth(1).textContent()).to.equal('Try a question about what this page covers, or contact us.');
    expect(await refusal.locator('a').getAttribute('href')).to.equal('mailto:help@shop.example');
    // Refused by the service (POST /chat ran the gate), shown exactly as a refusal in the browser; no gate chunk.
    expect(requests.some((u) => u.endsWith('/v1/chat'))).to.equal(true);
    expect(requests.filter((u) => /\/sdk\/chunks\/kit-(gate|local|probe)\./.test(u))).to.deep.equal([]);
    const message = (await page.evaluate(() => window.__events)).filter((e) => e[0] === 'message').at(-1)![1];
    expect(message).to.deep.include({ role: 'assistant', refused: true, text: 'I can only answer questions about this page.' });
    expect(await axeSerious(page)).to.deep.equal([]);
  });

  it('leaves the page usable while the default panel is open (non-modal), and titles a site-wide assistant "Ask about this site"', async () => {
    site.set('/usable', sitePage(kit.url, {
      before: [...FILLER, ...FILLER].map((p) => `<p>${p}</p>`).join(''),
      after: '<p><label for="zip">Your ZIP code</label> <input id="zip"> <button id="calc" type="button" onclick="this.textContent=\'Calculated\'">Calculate shipping</button></p>',
    }));
    await page.goto(`${site.origin}/usable`);
    await initKit(page, { apiKey: plain.key, mode: 'remote', context: 'site' });
    await waitForEvent(page, 'ready');
    await launcher().click();
    await panel().waitFor();
    expect(await page.locator('kit-widget h2').textContent()).to.equal('Ask about this site');
    expect(await launcher().getAttribute('aria-label')).to.equal('Ask about this site');
    expect(await page.locator('kit-widget .intro').textContent()).to.equal('Ask a question about this site. Answers come from its pages, with links to the sources.');
    expect(await panel().getAttribute('aria-modal')).to.equal(null);
    // Nothing covers or disables the page: no backdrop, nothing inert, the page scrolls, its controls take clicks
    // and keys, and its text can be selected — all with the panel still open.
    expect(await page.evaluate(() => document.querySelector('main')!.closest('[inert]') === null)).to.equal(true);
    expect(await page.evaluate(() => document.elementFromPoint(40, 400)?.closest('kit-widget') ?? null)).to.equal(null);
    const before = await page.evaluate(() => scrollY);
    await page.mouse.move(300, 400);
    await page.mouse.wheel(0, 1200);
    await page.waitForFunction((y) => scrollY > y + 100, before); // the page is ~300 px taller than the viewport
    await page.locator('#zip').scrollIntoViewIfNeeded();
    await page.locator('#zip').click();
    expect(await focused(page)).to.equal('page:zip');
    await page.keyboard.type('80302');
    expect(await page.locator('#zip').inputValue()).to.equal('80302');
    await page.keyboard.press('Tab');
    expect(await focused(page)).to.equal('page:calc');
    await page.keyboard.press('Enter');
    expect(await page.locator('#calc').textContent()).to.equal('Calculated');
    await page.locator('article p', { hasText: 'Summit membership costs $49' }).click({ clickCount: 3 });
    expect(await page.evaluate(() => getSelection()!.toString())).to.include('Summit membership costs $49');
    expect(await panel().isVisible()).to.equal(true);
    // Keys pressed in the page are the page's: Escape there does not close the panel.
    await page.locator('#zip').focus();
    await page.keyboard.press('Escape');
    expect(await panel().isVisible()).to.equal(true);
    // Back to the panel: the question field is reachable again, and asking works as before.
    await page.locator('kit-widget textarea').focus();
    await page.keyboard.type('How much does the Summit membership cost?');
    await page.keyboard.press('Enter');
    await waitForAnswers(page, 1);
    expect(await page.locator('kit-widget .bot .b').textContent()).to.include('$49');
    // A refusal speaks of the site, not of "this page" (Kit's default text; the owner set none).
    await page.keyboard.type('What is the boiling point of liquid nitrogen in kelvin?');
    await page.keyboard.press('Enter');
    await waitForAnswers(page, 2);
    const refusal = page.locator('kit-widget .refusal');
    expect(await refusal.locator('p').first().textContent()).to.equal('I can only answer about this site');
    expect(await refusal.locator('p').nth(1).textContent()).to.equal('Try a question about what this site covers.');
    expect(await axeSerious(page)).to.deep.equal([]);
  });

  for (const variant of ['sidebar overlay', 'sidebar push', 'inline', 'launcher on a phone'] as const) {
    it(`works as ${variant} by keyboard with no serious or critical axe violation`, async () => {
      if (variant === 'launcher on a phone') await page.setViewportSize({ width: 390, height: 740 });
      site.set('/place', sitePage(kit.url, { after: '<section aria-label="Help"><h2>Help</h2><div id="help"></div></section>' }));
      await page.goto(`${site.origin}/place`);
      const options = variant === 'inline' ? { placement: 'inline', target: '#help' } : variant.startsWith('sidebar') ? { placement: 'sidebar', sidebar: variant.endsWith('push') ? 'push' : 'overlay' } : {};
      await initKit(page, { apiKey: plain.key, mode: 'remote', ...options });
      await waitForEvent(page, 'ready');
      const width = await page.evaluate(() => document.querySelector('main')!.getBoundingClientRect().width);
      if (variant === 'inline') {
        await panel().waitFor();
        expect(await launcher().count()).to.equal(0);
        expect(await page.evaluate(() => document.querySelector('#help kit-widget') !== null)).to.equal(true);
        expect(await page.getByRole('region', { name: 'Ask about this page' }).count()).to.equal(1);
        await page.locator('nav a').first().focus();
        await tabTo(page, 'widget:textarea');
      } else {
        await page.locator('nav a').first().focus();
        await tabTo(page, 'widget:launcher');
        await page.keyboard.press('Enter');
        await panel().waitFor();
      }
      expect(await focused(page)).to.equal('widget:textarea');
      if (variant.startsWith('sidebar')) {
        const box = (await panel().boundingBox())!;
        expect([Math.round(box.x + box.width), Math.round(box.height)]).to.deep.equal([1280, 800]);
        const after = await page.evaluate(() => document.querySelector('main')!.getBoundingClientRect().width);
        if (variant.endsWith('push')) expect(after).to.be.below(width - 300);
        else expect(after).to.equal(width);
      }
      if (variant === 'launcher on a phone') expect(await panel().getAttribute('aria-modal')).to.equal('true');
      await page.keyboard.type('How much does the Summit membership cost?');
      await page.keyboard.press('Enter');
      await waitForAnswers(page, 1);
      expect(await page.locator('kit-widget .bot .b').textContent()).to.include('$49');
      expect(await axeSerious(page)).to.deep.equal([]);
      // No second banner: the panel's heading row is no <header>.
      expect(await page.locator('kit-widget header').count()).to.equal(0);
      if (variant !== 'inline') {
        await page.keyboard.press('Escape');
        await panel().waitFor({ state: 'hidden' });
        expect(await focused(page)).to.equal('widget:launcher');
        if (variant.endsWith('push')) expect(await page.evaluate(() => document.querySelector('main')!.getBoundingClientRect().width)).to.equal(width);
      }
    });
  }

  it("speaks the page's language (lazy strings), lets `strings` override, and follows `language`", async () => {
    site.set('/de', sitePage(kit.url, { lang: 'de-DE' }));
    await page.goto(`${site.origin}/de`);
    await initKit(page, { apiKey: plain.key, mode: 'remote', strings: { send: 'Abschicken' } });
    await waitForEvent(page, 'ready');
    await page.waitForFunction(() => document.querySelector('kit-widget')?.shadowRoot?.querySelector('.launcher')?.getAttribute('aria-label') === 'Fragen zu dieser Seite');
    await launcher().click();
    await panel().waitFor();
    expect(await page.locator('kit-widget h2').textContent()).to.equal('Fragen zu dieser Seite');
    expect(await page.locator('kit-widget .send').getAttribute('aria-label')).to.equal('Abschicken');
    expect(await page.locator('kit-widget textarea').getAttribute('placeholder')).to.equal('Frage stellen…');
    await page.goto(`${site.origin}/de`);
    await initKit(page, { apiKey: plain.key, mode: 'remote', language: 'fr', context: 'site' });
    await launcher().click();
    await panel().waitFor();
    await page.waitForFunction(() => document.querySelector('kit-widget')?.shadowRoot?.querySelector('h2')?.textContent === 'Une question sur ce site');
  });

  it('opens with the configured shortcut only', async () => {
    site.set('/keys', sitePage(kit.url));
    await page.goto(`${site.origin}/keys`);
    await initKit(page, { apiKey: plain.key, mode: 'remote' });
    await launcher().waitFor();
    await page.keyboard.press('Control+k');
    await page.waitForTimeout(300);
    expect(await panel().count()).to.equal(0);
    await initKit(page, { apiKey: plain.key, mode: 'remote', shortcut: 'ctrl+k' });
    await launcher().waitFor();
    // No hover, focus or click: with a shortcut the panel (which owns the key listener) loads at once, and the
    // launcher names the shortcut once it listens.
    await page.waitForFunction(() => document.querySelector('kit-widget')?.shadowRoot?.querySelector('.launcher')?.getAttribute('aria-keyshortcuts') === 'Control+K');
    await page.locator('nav a').first().focus();
    await page.keyboard.press('Control+k');
    await panel().waitFor();
    expect(await focused(page)).to.equal('widget:textarea');
    expect(await launcher().getAttribute('aria-keyshortcuts')).to.equal('Control+K');
  });

  it("runs the console's ES module snippet as pasted: a module names the service itself (endpoint)", async () => {
    const code = snippet('module', { server: kit.url, apiKey: plain.key, context: 'page', redact: 'none' });
    site.set('/module', sitePage(kit.url, { script: code }));
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(`${site.origin}/module`);
    await launcher().click();
    await panel().waitFor();
    await page.locator('kit-widget textarea').fill('How much does the Summit membership cost?');
    await page.keyboard.press('Enter');
    await page.locator('kit-widget .bot .b', { hasText: '$49' }).waitFor({ timeout: 60_000 });
    expect(errors.filter((e) => e.startsWith('Kit'))).to.deep.equal([]);
  });

  it('runs Kit.init queued before the script arrives, from the versioned URL with its SRI hash, and refuses a tampered script', async () => {
    const manifest = await (await fetch(`${kit.url}/sdk/manifest.json`)).json() as { version: string; script: { path: string; integrity: string } };
    expect(manifest.script.path).to.equal(`/sdk/v${manifest.version}/kit.js`);
    const snippet = await (await fetch(`${kit.url}/sdk/snippet.txt`)).text();
    expect(snippet).to.include(`integrity="${manifest.script.integrity}"`).and.include('crossorigin="anonymous"');
    const stub = snippet.split('\n')[0]!.replace(/^<script>/, '').replace(/Kit\.init\(\{ apiKey: 'kit_pub_…' \}\);<\/script>$/, '');
    const head = (integrity: string) => `<script>${stub}
window.__events=[];window.__kit=Kit.init({apiKey:'${plain.key}',mode:'remote'});window.__kit.on('ready',function(p){window.__events.push(['ready',p])});
window.__early=window.__kit.ask('How much does the Summit membership cost?');</script>
<script async src="${kit.url}${manifest.script.path}" integrity="${integrity}" crossorigin="anonymous"></script>`;
    site.set('/queued', sitePage(kit.url, { script: null, head: head(manifest.script.integrity) }));
    const responses: { url: string; cache: string | null }[] = [];
    page.on('response', (r) => { if (r.url().includes('/sdk/')) responses.push({ url: r.url(), cache: r.headers()['cache-control'] ?? null }); });
    await page.goto(`${site.origin}/queued`);
    const early = await page.evaluate(() => (window as any).__early);
    expect(early.text).to.include('$49');
    expect(await page.evaluate(() => window.__events.some((e) => e[0] === 'ready'))).to.equal(true);
    expect(responses.filter((r) => r.url.includes(`/sdk/v${manifest.version}/`)).every((r) => r.cache === 'public, max-age=31536000, immutable')).to.equal(true);
    expect(responses.some((r) => r.url.includes(`/sdk/v${manifest.version}/chunks/`))).to.equal(true);
    // A script whose bytes do not match the hash never runs.
    site.set('/tampered', sitePage(kit.url, { script: null, head: head('sha384-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA') }));
    await page.goto(`${site.origin}/tampered`);
    await page.waitForTimeout(1000);
    expect(await page.evaluate(() => Array.isArray((window.Kit as { q?: unknown }).q))).to.equal(true);
  });

  it("answers the first question through the service, then switches to Chrome's built-in model (a fake behind the Prompt API) in 'auto', and stays on the service without it", async () => {
    const fake = (await build({ entryPoints: [fileURLToPath(new URL('../fakes/fake-language-model.ts', import.meta.url))], bundle: true, format: 'iife', globalName: 'KitFakeLM', write: false, platform: 'browser', target: 'es2022' })).outputFiles[0]!.text;
    site.set('/nano', sitePage(kit.url));
    await page.addInitScript(`${fake}\nwindow.LanguageModel = KitFakeLM.createFakeLanguageModel({ availability: 'available', answer: 'On this device: the Summit membership costs $49 per year [1].' });`);
    await page.goto(`${site.origin}/nano`);
    await initKit(page, { apiKey: plain.key });
    // 'auto' answers the first question through the service at once (no wait for a device or a model), then asks the
    // device (Prompt API, then WebGPU) and switches once the local engine is ready; page views ask nothing.
    expect(await waitForEvent(page, 'ready')).to.deep.include({ mode: 'remote' });
    expect((await waitForEvent(page, 'mode')).reason).to.equal('device_not_probed');
    const chat: string[] = [];
    const chunks: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/v1/chat')) chat.push(r.url());
      if (r.url().includes('/sdk/chunks/')) chunks.push(r.url());
    });
    const first = await page.evaluate(() => window.__kit.ask('How much does the Summit membership cost?'));
    expect(first).to.deep.include({ mode: 'remote', refused: false });
    expect(chat).to.have.length(1);
    expect(chunks.filter((u) => /kit-(gate|local|probe|chrome-ai)\./.test(u))).to.deep.equal([]);
    await page.waitForFunction(() => window.__events.some((e) => e[0] === 'mode' && e[1].reason === 'chrome_built_in'), null, { timeout: 30_000 });
    expect((await page.evaluate(() => window.__events)).filter((e) => e[0] === 'mode').map((e) => e[1].reason)).to.deep.equal(['device_not_probed', 'chrome_built_in']);
    const a = await page.evaluate(() => window.__kit.ask('How much does the Expedition membership cost?'));
    expect(a).to.deep.include({ mode: 'local', model: 'chrome-built-in', refused: false });
    expect(a.text).to.include('On this device');
    expect(a.citations[0].url).to.equal(`${site.origin}/nano`);
    expect(chat).to.have.length(1); // the second answer came from the device
    // The local engine answers behind the browser's gate: its chunk came with the switch.
    expect(chunks.some((u) => /kit-gate\./.test(u))).to.equal(true);
    const offTopic = await page.evaluate(() => window.__kit.ask('What is the boiling point of liquid nitrogen in kelvin?'));
    expect(offTopic).to.deep.include({ refused: true, mode: 'local' });
    expect(chat).to.have.length(1);
    // This Chromium has the Prompt API but no model ('unavailable'): 'auto' answers through the service, without
    // loading the adapter's chunk. And with no `LanguageModel` at all (other browsers) the same.
    for (const variant of ['unavailable', 'absent'] as const) {
      const other = await newTestPage(browser);
      const scripts: string[] = [];
      other.on('request', (r) => { if (r.url().includes('/sdk/')) scripts.push(r.url()); });
      try {
        if (variant === 'absent') await other.addInitScript('delete window.LanguageModel');
        await other.goto(`${site.origin}/nano`);
        expect(await other.evaluate(() => 'LanguageModel' in window)).to.equal(variant === 'unavailable');
        if (variant === 'unavailable') expect(await other.evaluate(() => (window as any).LanguageModel.availability())).to.equal('unavailable');
        await initKit(other, { apiKey: plain.key });
        expect(await waitForEvent(other, 'ready')).to.deep.include({ mode: 'remote' });
        const answer = await other.evaluate(() => window.__kit.ask('How much does the Summit membership cost?'));
        expect(answer).to.deep.include({ mode: 'remote', refused: false });
        // The device is asked after that answer: no local engine, so the service goes on answering.
        await other.waitForFunction(() => window.__events.filter((e) => e[0] === 'mode').length >= 2, null, { timeout: 30_000 });
        expect((await other.evaluate(() => window.__events)).filter((e) => e[0] === 'mode').map((e) => e[1].reason)).to.deep.equal(['device_not_probed', 'no_webgpu']);
        expect((await other.evaluate(() => window.__kit.ask('How much does the Expedition membership cost?'))).mode).to.equal('remote');
        expect(scripts.filter((u) => u.includes('kit-chrome-ai'))).to.deep.equal([]);
        if (variant === 'unavailable') {
          // Chromium warns on every availability() without a model: the next page view trusts the verdict instead.
          await other.addInitScript('{ const lm = window.LanguageModel, a = lm.availability.bind(lm); window.__asked = 0; lm.availability = (o) => (window.__asked++, a(o)); }');
          await other.reload();
          await initKit(other, { apiKey: plain.key });
          expect(await waitForEvent(other, 'ready')).to.deep.include({ mode: 'remote' });
          await other.evaluate(() => window.__kit.ask('How much does the Summit membership cost?'));
          await other.waitForFunction(() => window.__events.filter((e) => e[0] === 'mode').length >= 2, null, { timeout: 30_000 });
          expect(await other.evaluate(() => (window as any).__asked)).to.equal(0);
          // mode 'local' still asks (it would wait for a download the visitor allows).
          await other.reload();
          await initKit(other, { apiKey: plain.key, mode: 'local' });
          await waitForEvent(other, 'ready');
          expect(await other.evaluate(() => (window as any).__asked)).to.equal(1);
        }
      } finally {
        await other.close();
      }
    }
  });

  it('keeps a visitor\'s first answer (launcher, panel, ask) and a page view with an API answer within the budgets', async () => {
    const measure = async (visitor: boolean): Promise<{ entry: number; total: number; scripts: string[]; after: string[] }> => {
      const p = await newTestPage(browser, { viewport: { width: 1280, height: 800 } });
      const scripts: Promise<[number, string]>[] = [];
      p.on('response', (res) => {
        if (!/^(blob|data):/.test(res.url()) && (res.request().resourceType() === 'script' || res.url().endsWith('.js'))) {
          scripts.push(res.body().then((b) => [gzipSync(b, { level: 9 }).length, res.url().replace(kit.url, '')] as [number, string], () => [0, res.url()]));
        }
      });
      try {
        site.set('/budget', sitePage(kit.url));
        await p.goto(`${site.origin}/budget`);
        await p.evaluate((k) => {
          window.__events = [];
          window.__kit = window.Kit.init({ apiKey: k });
          window.__kit.on('message', (m: { role: string }) => {
            if (m.role === 'assistant') (window as any).__answeredAt ??= performance.now();
            window.__events.push(['message', m]);
          });
        }, plain.key);
        if (visitor) {
          await p.locator('kit-widget .launcher').click();
          await p.locator('kit-widget textarea').fill('How much does the Expedition membership cost?');
          await p.keyboard.press('Enter');
        } else {
          await p.evaluate(() => window.__kit.ask('How much does the Expedition membership cost?'));
        }
        await p.waitForFunction(() => window.__events.some((e) => e[0] === 'message' && e[1].role === 'assistant'), null, { timeout: 60_000 });
        // The thumbs are requested as the answer ends, and 'auto' probes the device after it: wait for both so the
        // list is the same on every run. Counted: what was requested before the answer was in (Resource Timing), but
        // the thumbs (they show under a finished answer).
        await p.waitForTimeout(800);
        const requested = new Set(await p.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.startTime <= (window as any).__answeredAt).map((e) => e.name)));
        const sizes = await Promise.all(scripts);
        const entry = sizes.find(([, u]) => u === '/sdk/kit.js')?.[0] ?? 0;
        const before = sizes.filter(([, u]) => !u.includes('/kit-feedback.') && (requested.has(u) || requested.has(`${kit.url}${u}`)));
        return { entry, total: before.reduce((a, [n]) => a + n, 0), scripts: before.map(([n, u]) => `${n} ${u}`), after: sizes.filter((x) => !before.includes(x)).map(([n, u]) => `${n} ${u}`) };
      } finally {
        await p.close();
      }
    };
    const api = await measure(false);
    const visitor = await measure(true);
    console.log(`      page view + API answer: entry ${api.entry} B, ${api.total} B gzipped in ${api.scripts.length} scripts\n        ${api.scripts.join('\n        ')}\n      after the answer: ${api.after.join(', ')}`);
    console.log(`      visitor (launcher, panel, typed question): ${visitor.total} B gzipped in ${visitor.scripts.length} scripts\n        ${visitor.scripts.join('\n        ')}\n      after the answer: ${visitor.after.join(', ')}`);
    // Issue 15's budgets, with the default options: the entry ≤ 15 KB, and everything before a first remote answer
    // ≤ 60,000 B gzipped, both for a page view with an API answer (also asserted by test/e2e/sdk.e2e.test.ts) and for
    // the visitor who opens the launcher and types (the panel, kit-ui, included). No gate, local-engine or probe chunk
    // before it: the service gates remote answers, and 'auto' probes the device after the first one.
    expect(api.entry).to.be.at.most(15 * 1024);
    expect(api.total).to.be.at.most(60_000);
    expect(visitor.total).to.be.at.most(60_000);
    expect(api.scripts.some((s) => s.includes('kit-ui'))).to.equal(false);
    expect(visitor.scripts.some((s) => s.includes('kit-ui'))).to.equal(true);
    for (const path of [api, visitor]) expect(path.scripts.filter((s) => /kit-(gate|local|probe|reporter)\./.test(s))).to.deep.equal([]);
  });
});
