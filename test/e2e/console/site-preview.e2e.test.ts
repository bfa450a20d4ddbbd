import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { articlePage, startSiteServer, type SiteServer } from '../support/site-server.js';
import { closeClean, describeConsole, newOwner, pageApi } from './stack.js';

const TENTS = [
  'Our Summit tent weighs 1.9 kg and sleeps two people. It pitches in four minutes with one pole.',
  'To clean the tent, rinse it with lukewarm water and a sponge, then let it dry fully in the shade before packing it.',
];

/**
 * The owner's own site on loopback, with the headers a real site sends: it refuses to be framed (X-Frame-Options,
 * frame-ancestors) and its CSP allows scripts only from itself and the Kit server — no inline script.
 */
async function ownerSite(kitUrl: string, apiKey: string): Promise<SiteServer> {
  const csp = `default-src 'self'; script-src 'self' ${kitUrl}; connect-src ${kitUrl}; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'`;
  const headers = { 'content-security-policy': csp, 'x-frame-options': 'DENY' };
  const page = articlePage('Summit tent', TENTS, kitUrl).replace('</body>', '<script src="/kit-init.js"></script>\n</body>');
  return startSiteServer({
    '/tents': { body: page, headers },
    '/kit-init.js': { type: 'text/javascript', body: `Kit.init({ apiKey: ${JSON.stringify(apiKey)}, autoOpen: true });`, headers },
  });
}

/** The widget's shadow root text (what a visitor sees in the panel). */
async function widgetText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const texts: string[] = [];
    for (const el of document.querySelectorAll('*')) if (el.shadowRoot) texts.push(el.shadowRoot.textContent ?? '');
    return texts.join('\n');
  });
}

describeConsole('console live preview on the owner\'s own site', (suite) => {
  it('opens the owner\'s page in a new tab with the unsaved settings, refuses a URL the key does not allow, and leaves visitors on the saved settings', async () => {
    const owner = await newOwner(suite, { org: 'Tent Shop' });
    const { page } = owner;
    // The owner's site: a key for its origin, and the snippet already on its page.
    const siteKey = await pageApi<{ key: { id: string; value: string } }>(page, 'POST', '/keys', { kind: 'publishable', name: 'Tent site', allowed_origins: ['https://tents.example'] });
    const site = await ownerSite(suite.stack.url, siteKey.key.value);
    try {
      await pageApi(page, 'PATCH', `/keys/${siteKey.key.id}`, { allowed_origins: ['https://tents.example', site.origin] });
      await pageApi(page, 'PATCH', '/assistant', { greeting: 'Saved greeting for visitors.' }, { 'if-match': '*' });

      await page.goto(`${suite.stack.url}/console/install`); // reloaded: the key made through the API shows
      await page.getByRole('heading', { name: 'Install & customize', level: 1 }).waitFor();
      await page.getByLabel('Key', { exact: true }).selectOption(siteKey.key.id);
      await page.getByLabel('Greeting').fill('Draft greeting, not saved yet.');
      await page.getByLabel('Refusal message').fill('Draft refusal: tents only here.');

      // A page on an origin the key does not allow: the server's contract message, beside the field.
      const where = page.getByLabel('Page of your site');
      await where.fill('https://elsewhere.example/tents');
      await page.getByRole('button', { name: 'Preview on my site' }).click();
      await page.getByText(/https:\/\/elsewhere\.example is not an allowed origin of this key \(it allows https:\/\/tents\.example, http:\/\/127\.0\.0\.1:\d+\)/).waitFor();
      expect(await where.getAttribute('aria-invalid')).to.equal('true');

      // The owner's own page: a new tab, with the draft.
      await where.fill(`${site.origin}/tents`);
      const [preview] = await Promise.all([owner.context.waitForEvent('page'), page.getByRole('button', { name: 'Preview on my site' }).click()]);
      await preview.waitForLoadState('domcontentloaded');
      const previewUrl = new URL(preview.url());
      expect(`${previewUrl.origin}${previewUrl.pathname}`).to.equal(`${site.origin}/tents`);
      expect(previewUrl.hash).to.match(/^#kit-preview=kpo\./);
      await page.getByRole('link', { name: `open the preview of ${previewUrl.host}` }).waitFor();
      await preview.waitForFunction(() => [...document.querySelectorAll('*')].some((el) => el.shadowRoot?.textContent?.includes('Draft greeting, not saved yet.')), null, { timeout: 60_000 });
      const question = preview.getByRole('textbox', { name: 'Your question' });
      await question.fill('What is the capital of France?');
      await question.press('Enter');
      await preview.waitForFunction(() => [...document.querySelectorAll('*')].some((el) => el.shadowRoot?.textContent?.includes('Draft refusal: tents only here.')), null, { timeout: 60_000 });
      // The token never left the browser for the owner's server (a fragment), and no request was refused.
      expect(site.requests.every((r) => !r.path.includes('kit-preview'))).to.equal(true);

      // A visitor (no link) gets the saved settings on the same page.
      const visitor = await suite.browser.newPage();
      await visitor.goto(`${site.origin}/tents`);
      await visitor.waitForFunction(() => [...document.querySelectorAll('*')].some((el) => el.shadowRoot?.textContent?.includes('Saved greeting for visitors.')), null, { timeout: 60_000 });
      expect(await widgetText(visitor)).not.to.include('Draft greeting');
      await visitor.close();

      // The token is bound to the page's origin: replayed from another allowed origin it changes nothing.
      const token = previewUrl.hash.slice('#kit-preview='.length);
      const replay = await fetch(`${suite.stack.url}/v1/config`, { headers: { authorization: `Bearer ${siteKey.key.value}`, origin: 'https://tents.example', 'kit-preview': token } });
      expect(replay.status).to.equal(200);
      expect(((await replay.json()) as { assistant: { greeting: string } }).assistant.greeting).to.equal('Saved greeting for visitors.');
      // …and forging its draft breaks the signature.
      const [, payload, sig] = token.split('.');
      const draft = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as { a: { greeting: string } };
      draft.a.greeting = 'Forged';
      const forged = `kpo.${Buffer.from(JSON.stringify(draft)).toString('base64url')}.${sig}`;
      const tampered = await fetch(`${suite.stack.url}/v1/config`, { headers: { authorization: `Bearer ${siteKey.key.value}`, origin: site.origin, 'kit-preview': forged } });
      expect(((await tampered.json()) as { assistant: { greeting: string } }).assistant.greeting).to.equal('Saved greeting for visitors.');
      await preview.close();
      await closeClean(owner);
    } finally {
      await site.close();
    }
  });
});
