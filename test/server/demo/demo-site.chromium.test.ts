import { resolve as resolvePath } from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { DEMO_KEY_SETTING } from '../../../server/demo/demo-site.js';
import type { Platform } from '../../../server/platform.js';
import { launchChromium, newTestPage } from '../../support/chromium.js';
import { sharedPglite } from '../../support/databases.js';
import { createTestPlatform, listen, seedOrg } from '../../support/platform.js';
import { createKeys, TEST_ALTCHA_ENV } from '../support/chat.js';
import { ensureSdkBuilt } from '../../e2e/support/kit-server.js';

/** The demo site as a visitor meets it after `npm start`: the real SDK bundle, the real API, a real browser. */
describe('DemoSite in Chromium', function () {
  this.timeout(120_000);
  let platform: Platform;
  let server: { url: string; close(): Promise<void> };
  let browser: Browser;
  let page: Page;
  const requests: Array<{ path: string; origin: string | undefined; status?: number }> = [];

  before(async () => {
    ensureSdkBuilt();
    platform = await createTestPlatform({ database: await sharedPglite(), env: { ...TEST_ALTCHA_ENV, KIT_SDK_DIR: resolvePath('dist/sdk'), KIT_DEMO_DIR: resolvePath('demo') } });
    server = await listen(platform);
    const keys = await createKeys(platform, await seedOrg(platform, 'demo-browser'), { allowedOrigins: [] });
    await platform.database.knex('settings').insert({ key: DEMO_KEY_SETTING, value: keys.publishableId }).onConflict('key').merge();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await platform?.close();
  });
  afterEach(async () => {
    await page?.close();
  });

  it('answers a visitor on the demo site from the pages, through /config, /session and a streamed /chat', async function () {
    page = await newTestPage(browser, { viewport: { width: 1000, height: 800 } });
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/v1/')) requests.push({ path: url.pathname, origin: r.headers().origin });
    });
    const demoUrl = server.url.replace('127.0.0.1', 'localhost');
    await page.goto(`${demoUrl}/demo/pricing.html`);
    await page.waitForLoadState('load');
    await page.locator('kit-widget').waitFor({ state: 'attached', timeout: 30_000 });
    await page.locator('kit-widget .launcher').click();
    await page.locator('kit-widget textarea').fill('How much does the Summit membership cost per year?');
    await page.locator('kit-widget textarea').press('Enter');
    const answer = page.locator('kit-widget .msg.bot:not(.live)').last();
    await answer.waitFor({ timeout: 60_000 });
    expect(await answer.textContent()).to.include('$49');
    expect(requests.map((r) => r.path)).to.include.members(['/v1/config', '/v1/session', '/v1/chat']);
    const chats = await platform.database.knex('usage_events').join('api_keys', 'api_keys.id', 'usage_events.key_id').where('api_keys.name', 'test pub').count<{ n: number }[]>('* as n');
    expect(Number(chats[0]!.n)).to.be.greaterThan(0);
  });
});
