/**
 * The owner's loop end to end (issue 13 §5): real Chromium, the real SDK bundle, the demo site and a loopback website,
 * a listening Kit server on its own embedded database. A visitor asks in the widget and votes with its thumbs; the
 * owner reads the question, its outcome and the vote through the insights API. Questions the browser answered or
 * refused itself reach the log by the beacon when the page is hidden — with text only where the page holds a session,
 * as counts with logging off.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve as resolvePath } from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { type KnexDatabase } from '../../adapters/node/knex-database.js';
import { migrateToLatest } from '../../adapters/node/migrations/index.js';
import { DEFAULT_SITE_REFUSAL_MESSAGE } from '../../core/config/defaults.js';
import { DEMO_KEY_SETTING } from '../../server/demo/demo-site.js';
import type { Platform } from '../../server/platform.js';
import { launchChromium, newTestPage } from '../support/chromium.js';
import { integrationTargets, openMemoryPglite } from '../support/databases.js';
import { createTestPlatform, listen, logCapture, seedOrg, type SeededOrg } from '../support/platform.js';
import { createKeys, TEST_ALTCHA_ENV } from '../server/support/chat.js';
import { ensureSdkBuilt } from './support/kit-server.js';
import { articlePage, startSiteServer, type SiteServer } from './support/site-server.js';

const GROUNDED = 'How much does the Summit membership cost per year?';
const OFF_TOPIC = 'What is the boiling point of liquid nitrogen in kelvin?';
/** On topic (the gate lets it through) but the page does not say: the extractive engine answers "not found". */
const NOT_ON_PAGE = 'Can I pause my Summit membership?';
const FACTS = [
  'The Summit membership costs $49 per year and includes free standard shipping.',
  'The Expedition membership costs $129 per year and includes unlimited free repairs.',
  'Orders placed before 1 pm Eastern time leave the workshop the same day.',
];

// On both databases: the embedded default (in memory here) and PostgreSQL 15.
for (const target of integrationTargets()) describe(`the owner's loop in Chromium (demo, widget thumbs, beacon on page hide) on ${target.name}`, function () {
  this.timeout(240_000);
  let db: KnexDatabase;
  let platform: Platform;
  let server: { url: string; close(): Promise<void> };
  /** A pass-through proxy in front of the server that keeps every beacon body it forwards (what really arrived). */
  let proxy: Server;
  let kitUrl: string;
  const beacons: string[] = [];
  /** Every request the proxy forwarded, with the status it answered or the error (for failure messages). */
  const traffic: string[] = [];
  /** The page's console errors and uncaught exceptions (for failure messages). */
  const pageErrors: string[] = [];
  /** The server's warnings and errors, e.g. a question log batch it could not write (for failure messages). */
  const serverLogs = logCapture();
  let site: SiteServer;
  let browser: Browser;
  let page: Page;
  /** The demo's organisation: remote answers. */
  let shop: SeededOrg;
  /** An organisation whose plan answers on the device only: the extractive engine here (no WebGPU, no weights). */
  let device: SeededOrg;
  let deviceKey: string;

  before(async () => {
    ensureSdkBuilt();
    db = target.name === 'pglite' ? await openMemoryPglite() : await target.open();
    await migrateToLatest(db.knex);
    platform = await createTestPlatform({
      database: db,
      logs: serverLogs,
      env: {
        KIT_LOG_LEVEL: 'warn',
        ...TEST_ALTCHA_ENV,
        KIT_SDK_DIR: resolvePath('dist/sdk'),
        KIT_DEMO_DIR: resolvePath('demo'),
        KIT_QUESTION_LOG_FLUSH_MS: '50',
        KIT_SETTINGS_CACHE_TTL_MS: '0',
        KIT_PLAN_LIMITS: JSON.stringify({ pro: { mode: 'local' } }),
      },
    });
    server = await listen(platform);
    // sendBeacon on unload is not reliably reported to page.on('request'); the proxy sees what reached the server.
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (req.method === 'POST' && req.url === '/v1/beacon') beacons.push(body.toString('utf8'));
        const upstream = request(`${server.url}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
          traffic.push(`${req.method} ${req.url} → ${r.statusCode}`);
          res.writeHead(r.statusCode!, r.headers);
          r.pipe(res);
        });
        upstream.on('error', (err) => {
          traffic.push(`${req.method} ${req.url} → ${err.message}`);
          res.destroy();
        });
        upstream.end(body);
      });
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    kitUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    shop = await seedOrg(platform, 'insights-demo');
    const shopKeys = await createKeys(platform, shop, { allowedOrigins: [] });
    await db.knex('settings').insert({ key: DEMO_KEY_SETTING, value: shopKeys.publishableId }).onConflict('key').merge();
    device = await seedOrg(platform, 'insights-device');
    await db.knex('organizations').where({ id: device.orgId }).update({ tier: 'pro' });
    deviceKey = (await createKeys(platform, device, { allowedOrigins: [] })).publishable;
    site = await startSiteServer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await new Promise((done) => (proxy ? proxy.close(done) : done(undefined)));
    await server?.close();
    await platform?.close();
    await db?.close();
  });
  beforeEach(async () => {
    page = await newTestPage(browser, { viewport: { width: 1000, height: 800 } });
    traffic.length = 0;
    pageErrors.length = 0;
    page.on('console', (m) => void (m.type() === 'error' && pageErrors.push(m.text())));
    page.on('pageerror', (e) => void pageErrors.push(String(e)));
  });
  afterEach(async () => {
    await page?.close();
  });

  const api = async (org: SeededOrg, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${org.members.owner.token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as any };
  };
  const setLogging = async (org: SeededOrg, mode: 'off' | 'redacted' | 'full') => {
    const res = await api(org, 'PATCH', '/org/question-logging', { mode }, { 'if-match': '*' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };
  /** Polls the insights API until `found` holds (the server writes its log every 50 ms; the beacon arrives on hide). */
  async function until<T>(read: () => Promise<T>, found: (value: T) => boolean, what: string): Promise<T> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const value = await read();
      if (found(value)) return value;
      if (Date.now() > deadline) {
        throw new Error(`${what}: not found in ${JSON.stringify(value).slice(0, 600)}; the proxy forwarded: ${traffic.join('; ') || 'nothing'}; the page's errors: ${pageErrors.join('; ') || 'none'}; the server's warnings: ${serverLogs.lines.join('').slice(-1500) || 'none'}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const questions = (org: SeededOrg, query = '') => api(org, 'GET', `/questions${query}`).then((r) => r.body.data as any[]);
  const daily = (org: SeededOrg) => api(org, 'GET', '/insights/daily').then((r) => r.body.questions as Array<{ mode: string; outcome: string; questions: number }>);
  const countOf = (rows: Array<{ mode: string; outcome: string; questions: number }>, mode: string, outcome: string) =>
    rows.filter((r) => r.mode === mode && r.outcome === outcome).reduce((n, r) => n + r.questions, 0);

  /** Asks in the widget and waits for the finished answer; returns its element. */
  async function askInWidget(question: string) {
    const before = await page.locator('kit-widget .msg.bot:not(.live)').count();
    await page.locator('kit-widget textarea').fill(question);
    await page.locator('kit-widget textarea').press('Enter');
    await page.waitForFunction((n) => document.querySelector('kit-widget')!.shadowRoot!.querySelectorAll('.msg.bot:not(.live)').length > n, before, { timeout: 90_000 });
    return page.locator('kit-widget .msg.bot:not(.live)').last();
  }
  /** The visitor leaves: the page is hidden and unloaded (pagehide → sendBeacon). */
  const leave = () => page.goto('about:blank');

  it('a question asked in the demo shows up in insights with its outcome and the thumbs the visitor gave, and a refusal by the service once', async () => {
    await setLogging(shop, 'redacted');
    const v1: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/v1/')) v1.push(new URL(r.url()).pathname);
    });
    const sentBefore = beacons.length;
    await page.goto(`${kitUrl.replace('127.0.0.1', 'localhost')}/demo/pricing.html`);
    await page.locator('kit-widget').waitFor({ state: 'attached', timeout: 30_000 });
    await page.locator('kit-widget .launcher').click();
    const answer = await askInWidget(GROUNDED);
    expect(await answer.textContent()).to.include('$49');

    // The widget's thumbs (sdk/widget/feedback-buttons.ts): "Not helpful", then the optional comment.
    await answer.getByRole('button', { name: /Not helpful/ }).click();
    const comment = answer.getByRole('textbox');
    await comment.fill('The price for two people is missing; write to jane.doe@example.org');
    await comment.press('Enter');
    await answer.getByText('Thanks for your feedback.').waitFor({ timeout: 15_000 });

    // The bare vote and then the vote with its comment: wait for the second (the first alone once passed this point).
    const logged = await until(() => questions(shop), (rows) => rows.some((q) => q.question === GROUNDED && q.feedback?.rating === 'down' && q.feedback.comment), 'the demo question with its vote and comment');
    const row = logged.find((q) => q.question === GROUNDED)!;
    expect(row).to.include({ mode: 'remote', outcome: 'answered', source: 'server' });
    expect(row.page_url).to.equal(`${kitUrl.replace('127.0.0.1', 'localhost')}/demo/pricing.html`);
    expect(row.feedback.comment).to.include('[REDACTED:EMAIL]').and.not.include('jane.doe');
    expect(row.citations.length).to.be.greaterThan(0);

    // On the remote path the service's gate refuses (POST /chat, docs/sdk.md): the refusal is logged by the service,
    // once, and nothing waits in the browser for the page to hide.
    const sent = v1.length;
    const refusal = await askInWidget(OFF_TOPIC);
    expect(await refusal.textContent()).to.include(DEFAULT_SITE_REFUSAL_MESSAGE);
    expect(v1.slice(sent)).to.include('/v1/chat');
    await leave();
    const refused = await until(() => questions(shop, '?outcome=refused'), (rows) => rows.some((q) => q.question === OFF_TOPIC), 'the refused question');
    expect(refused.filter((q) => q.question === OFF_TOPIC)).to.have.length(1);
    expect(refused.find((q) => q.question === OFF_TOPIC)).to.include({ mode: 'remote', outcome: 'refused', source: 'server' });
    // The visit reported nothing from the browser: the service saw both questions.
    await new Promise((r) => setTimeout(r, 500));
    expect(beacons.slice(sentBefore)).to.deep.equal([]);
    expect((await questions(shop, '?outcome=refused')).filter((q) => q.question === OFF_TOPIC)).to.have.length(1);
  });

  it('with logging off, a refusal, an answer and a "not found" made in the browser arrive as counts only when the page is hidden', async () => {
    await setLogging(device, 'off');
    const before = await daily(device);
    site.set('/device-off', articlePage('Memberships', FACTS, kitUrl));
    await page.goto(`${site.origin}/device-off`);
    await page.evaluate((key) => (window as any).Kit.init({ apiKey: key, autoOpen: true }), deviceKey);
    await page.locator('kit-widget textarea').waitFor({ timeout: 30_000 });
    const answered = await askInWidget(GROUNDED);
    expect(await answered.textContent()).to.include('$49');
    await askInWidget(OFF_TOPIC);
    expect(await (await askInWidget(NOT_ON_PAGE)).textContent()).to.include("couldn't find");
    const sentBefore = beacons.length;
    await leave();
    const after = await until(() => daily(device), (rows) => countOf(rows, 'extractive', 'refused') > countOf(before, 'extractive', 'refused'), 'the counts');
    expect(countOf(after, 'extractive', 'answered') - countOf(before, 'extractive', 'answered')).to.equal(1);
    expect(countOf(after, 'extractive', 'refused') - countOf(before, 'extractive', 'refused')).to.equal(1);
    expect(countOf(after, 'extractive', 'not_found') - countOf(before, 'extractive', 'not_found')).to.equal(1);
    expect(await questions(device)).to.deep.equal([]);
    const sent = beacons.slice(sentBefore);
    expect(sent).to.have.length(1);
    expect(sent[0]).to.not.include('nitrogen').and.not.include('Summit');
    expect(JSON.parse(sent[0]!)).to.not.have.property('session');
  });

  it('with logging on, an answer made in the browser and voted on arrives with its text and thumbs when the page is hidden', async () => {
    await setLogging(device, 'full');
    site.set('/device-on', articlePage('Memberships', FACTS, kitUrl));
    await page.goto(`${site.origin}/device-on`);
    await page.evaluate((key) => (window as any).Kit.init({ apiKey: key, autoOpen: true }), deviceKey);
    await page.locator('kit-widget textarea').waitFor({ timeout: 30_000 });
    const answered = await askInWidget(GROUNDED);
    // The vote solves the page's first bot challenge (the visitor's click is worth one): from then on the page holds a session.
    await answered.getByRole('button', { name: /Helpful/ }).first().click();
    await answered.getByText('Thanks for your feedback.').waitFor({ timeout: 30_000 });
    await askInWidget(NOT_ON_PAGE);
    await leave();
    const logged = await until(() => questions(device), (rows) => rows.some((q) => q.question === GROUNDED) && rows.some((q) => q.question === NOT_ON_PAGE), 'the answers made in the browser');
    const row = logged.find((q) => q.question === GROUNDED)!;
    expect(row).to.include({ mode: 'extractive', outcome: 'answered', source: 'sdk' });
    expect(row.answer).to.include('$49');
    expect(row.feedback.rating).to.equal('up');
    // The device's engine found nothing: a coverage gap for the owner.
    expect(logged.find((q) => q.question === NOT_ON_PAGE)).to.include({ mode: 'extractive', outcome: 'not_found', source: 'sdk' });
    const gaps = await api(device, 'GET', '/insights/coverage-gaps');
    expect(gaps.body.data.find((g: { question: string }) => g.question === NOT_ON_PAGE)).to.deep.include({ not_found: 1, refused: 0 });
  });
});
