/**
 * The background against the real Kit server, in real Chromium with the unpacked extension: settings saved from the
 * options page; an answer streamed from the server's /v1/chat through the background's relay, carrying the
 * extension's origin (the key allows only that origin, so a request with the page's origin would be refused); the
 * same on a strict-CSP page; and the server's refusal of an extension origin the key does not list. A scripted
 * stand-in of the API (test/fakes/platform-api-server.ts) times the stream, to show it arrives piece by piece and
 * that stopping an answer closes the server's connection.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { formatKey } from '../../../core/keys/key-format.js';
import type { Platform } from '../../../server/platform.js';
import { sharedPglite } from '../../support/databases.js';
import { createTestPlatform, seedOrg, type SeededOrg } from '../../support/platform.js';
import { startFakePlatformApi, type FakePlatformApi } from '../../fakes/platform-api-server.js';
import { buildExtension, launchWithExtension, saveOptions, startSite, switchTab, tabIdOf, type LoadedExtension, type TestSite } from '../support.js';

const PRICING = `<!doctype html><html lang="en"><head><title>Pricing — Trailhead</title></head><body><main><h1>Pricing</h1>
<p>The Pro plan costs 29 euros per month and includes priority support by email.</p>
<p>The Team plan costs 99 euros per month for up to ten people.</p></main></body></html>`;

/** `chrome.storage.local` as the background sees it (evaluated in the service worker). */
type LocalStorageArea = { get(k: string): Promise<Record<string, unknown>>; set(v: object): Promise<void> };
const readStored = (ext: LoadedExtension, key: string): Promise<unknown> =>
  ext.background.evaluate(async (k) => (await (globalThis as unknown as { chrome: { storage: { local: LocalStorageArea } } }).chrome.storage.local.get(k))[k], key);
const writeStored = (ext: LoadedExtension, key: string, value: unknown): Promise<void> =>
  ext.background.evaluate(([k, v]) => (globalThis as unknown as { chrome: { storage: { local: LocalStorageArea } } }).chrome.storage.local.set({ [k as string]: v }), [key, value] as const);

describe('extension background with the real Kit server (Chromium, unpacked extension)', function () {
  this.timeout(90_000);
  let ext: LoadedExtension;
  let site: TestSite;
  let platform: Platform;
  let org: SeededOrg;
  let server: Server;
  let endpoint: string;
  /** Origin header of each API request the server received, by path. */
  const origins: { path: string; origin: string | undefined }[] = [];
  const pages: Page[] = [];

  const createKey = async (allowedOrigins: string[]): Promise<string> => {
    const res = await request(platform.app.callback()).post('/v1/keys').set('authorization', `Bearer ${org.members.owner.token}`)
      .send({ kind: 'publishable', name: 'Extension preview', allowed_origins: allowedOrigins });
    expect(res.status).to.equal(201);
    return res.body.key.value ?? res.body.secret;
  };
  const openQa = async (tabId: number): Promise<Page> => {
    const qa = await ext.context.newPage();
    pages.push(qa);
    await qa.goto(`chrome-extension://${ext.id}/qa.html?tab=${tabId}`);
    return qa;
  };
  const openOn = async (path: string): Promise<{ page: Page; tabId: number }> => {
    const page = await ext.context.newPage();
    pages.push(page);
    await page.goto(site.url + path);
    const tabId = await tabIdOf(ext, site.url + path);
    expect(await switchTab(ext, tabId, true)).to.match(/^On/);
    await page.locator('kit-widget').waitFor({ state: 'attached', timeout: 20_000 });
    return { page, tabId };
  };
  const ask = async (page: Page, question: string): Promise<string> => {
    await page.locator('kit-widget .launcher').click();
    const before = await page.locator('kit-widget .msg.bot').count();
    await page.locator('kit-widget textarea').fill(question);
    await page.locator('kit-widget textarea').press('Enter');
    // An answer is finished when its bubble is no longer `live` (done, refused or failed).
    await page.locator('kit-widget .msg.bot:not(.live)').nth(before).waitFor({ timeout: 30_000 });
    return (await page.locator('kit-widget .msg.bot').nth(before).textContent()) ?? '';
  };

  before(async function () {
    this.timeout(240_000);
    platform = await createTestPlatform({ database: await sharedPglite() });
    org = await seedOrg(platform, 'extension');
    const callback = platform.app.callback();
    server = createServer((req, res) => {
      if (req.url?.startsWith('/v1/')) origins.push({ path: req.url.split('?')[0]!, origin: req.headers.origin });
      void callback(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    site = await startSite();
    ext = await launchWithExtension(await buildExtension());
  });
  after(async () => {
    await ext?.close();
    await site?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await platform?.close();
  });
  afterEach(async () => {
    for (const page of pages.splice(0)) await page.close();
  });

  it('saves the endpoint and key from the options page, shows the origin to allow, and refuses a secret key', async () => {
    const key = await createKey([`chrome-extension://${ext.id}`]);
    expect(await saveOptions(ext, { endpoint: `${endpoint}/`, apiKey: key })).to.equal('Saved.');
    expect(await readStored(ext, 'kit.connection')).to.deep.equal({ endpoint, apiKey: key, modelBaseUrl: '' });

    const options = await ext.context.newPage();
    pages.push(options);
    await options.goto(`chrome-extension://${ext.id}/options.html`);
    expect(await options.locator('#origin').textContent()).to.equal(`chrome-extension://${ext.id}`);
    await options.waitForFunction((v) => (document.getElementById('apiKey') as HTMLInputElement).value === v, key);
    expect(await options.inputValue('#endpoint')).to.equal(endpoint);

    const secret = (await request(platform.app.callback()).post('/v1/keys').set('authorization', `Bearer ${org.members.owner.token}`).send({ kind: 'secret', name: 'Server' })).body.secret as string;
    await options.fill('#apiKey', secret);
    await options.click('#save');
    await options.locator('#apiKey-error').filter({ hasText: /secret key/ }).waitFor();
    expect(((await readStored(ext, 'kit.connection')) as { apiKey: string }).apiKey, 'the stored key is unchanged').to.equal(key);
  });

  it('streams an answer from the server through the background, with the extension origin', async function () {
    await saveOptions(ext, { endpoint, apiKey: await createKey([`chrome-extension://${ext.id}`]) });
    await writeStored(ext, 'kit.settings', { mode: 'remote', model: 'auto', context: 'page', redact: 'all' });
    site.set('/remote', PRICING);
    origins.length = 0;
    const { page, tabId } = await openOn('/remote');
    const answer = await ask(page, 'How much does the Pro plan cost?');
    expect(answer).to.contain('29 euros');
    const qa = await openQa(tabId);
    await qa.locator('#qa-engine').filter({ hasText: /^remote/ }).waitFor();
    const chat = origins.filter((o) => o.path === '/v1/chat');
    expect(chat.length).to.be.greaterThan(0);
    // POSTs carry the extension's origin; Chromium sends no Origin on a GET the extension holds a host permission for.
    for (const path of ['/v1/session', '/v1/chat']) expect(origins.find((o) => o.path === path)?.origin, path).to.equal(`chrome-extension://${ext.id}`);
    expect(origins.every((o) => o.origin === undefined || o.origin === `chrome-extension://${ext.id}`)).to.equal(true);
  });

  it('answers from the server on a page with a strict CSP', async function () {
    site.set('/strict', PRICING, { 'Content-Security-Policy': "default-src 'none'; style-src 'self'" });
    origins.length = 0;
    const { page, tabId } = await openOn('/strict');
    const answer = await ask(page, 'What does the Team plan cost?');
    expect(answer).to.contain('99 euros');
    expect(origins.some((o) => o.path === '/v1/chat')).to.equal(true);
  });

  it('is refused by the server when the key does not list the extension origin', async function () {
    await saveOptions(ext, { endpoint, apiKey: await createKey(['https://shop.example.com']) });
    site.set('/refused', PRICING);
    const { page, tabId } = await openOn('/refused');
    await ask(page, 'How much does the Pro plan cost?');
    const qa = await openQa(tabId);
    await qa.locator('#qa-errors li').filter({ hasText: /^origin_not_allowed/ }).waitFor({ timeout: 20_000 });
  });

  describe('with a scripted API', () => {
    let api: FakePlatformApi;
    before(async () => {
      api = await startFakePlatformApi({ provider: 'altcha', maxNumber: 2_000 });
      await saveOptions(ext, { endpoint: api.url, apiKey: formatKey('publishable', new Uint8Array(32).fill(5)) });
      await writeStored(ext, 'kit.settings', { mode: 'remote', model: 'auto', context: 'page', redact: 'all' });
    });
    after(() => api?.close());

    it('shows the answer piece by piece while the server is still sending it', async () => {
      api.script('POST /chat', { stream: [
        { event: 'start', data: { request_id: 'req_1', model: 'scripted-1', mode: 'remote' } },
        { event: 'delta', data: { text: 'The Pro plan ' } },
        { waitMs: 1_500 },
        { event: 'delta', data: { text: 'costs 29 euros a month.' } },
        { event: 'citation', data: { index: 1, url: `${site.url}/scripted`, title: 'Pricing' } },
        { event: 'done', data: { finish_reason: 'stop', usage: { input_tokens: 40, output_tokens: 9 } } },
      ] });
      site.set('/scripted', PRICING);
      const { page } = await openOn('/scripted');
      await page.locator('kit-widget .launcher').click();
      await page.locator('kit-widget textarea').fill('How much does the Pro plan cost?');
      await page.locator('kit-widget textarea').press('Enter');
      const answer = page.locator('kit-widget .bot').last();
      await answer.filter({ hasText: 'The Pro plan' }).waitFor({ timeout: 20_000 });
      expect(await answer.textContent(), 'the first piece is shown before the second is sent').not.to.contain('29 euros');
      await answer.filter({ hasText: '29 euros a month' }).waitFor({ timeout: 10_000 });
      const chat = api.requests.find((r) => r.path === '/chat')!;
      expect(chat.headers.origin).to.equal(`chrome-extension://${ext.id}`);
      expect(api.requests.find((r) => r.path === '/session')!.headers.origin).to.equal(`chrome-extension://${ext.id}`);
      expect(chat.headers.cookie).to.equal(undefined);
    });

    it('closes the server connection when the visitor stops the answer', async () => {
      api.script('POST /chat', { stream: [
        { event: 'start', data: { request_id: 'req_2', model: 'scripted-1', mode: 'remote' } },
        { event: 'delta', data: { text: 'The Team plan ' } },
        { hang: true },
      ] });
      site.set('/stop', PRICING);
      const { page } = await openOn('/stop');
      await page.locator('kit-widget .launcher').click();
      await page.locator('kit-widget textarea').fill('What does the Team plan cost?');
      await page.locator('kit-widget textarea').press('Enter');
      await page.locator('kit-widget .bot').last().filter({ hasText: 'The Team plan' }).waitFor({ timeout: 20_000 });
      const closed = api.waitForChatClose();
      await page.locator('kit-widget .stop').click();
      await closed;
    });

    it('closes the server connection when the assistant is switched off mid-answer', async () => {
      api.script('POST /chat', { stream: [
        { event: 'start', data: { request_id: 'req_3', model: 'scripted-1', mode: 'remote' } },
        { event: 'delta', data: { text: 'The Pro plan ' } },
        { hang: true },
      ] });
      site.set('/switch-off', PRICING);
      const { page, tabId } = await openOn('/switch-off');
      await page.locator('kit-widget .launcher').click();
      await page.locator('kit-widget textarea').fill('How much does the Pro plan cost?');
      await page.locator('kit-widget textarea').press('Enter');
      await page.locator('kit-widget .bot').last().filter({ hasText: 'The Pro plan' }).waitFor({ timeout: 20_000 });
      const closed = api.waitForChatClose();
      await page.keyboard.press('Escape');
      expect(await switchTab(ext, tabId, false)).to.match(/^Off/);
      await closed;
      expect(await page.locator('kit-widget').count()).to.equal(0);
    });
  });
});
