import { expect } from 'chai';
import { axeViolations, consolePage, describeConsole, demoPassword, pageApi, previewFrame, signIn, widgetLog, widgetLogShows } from './stack.js';

const SIGNED_IN_VIEWS = [
  ['/console/', 'Kit demo'],
  ['/console/install', 'Install & customize'],
  ['/console/keys', 'API keys'],
  ['/console/insights', 'Insights'],
  ['/console/members', 'Members'],
  ['/console/billing', 'Plan & billing'],
  ['/console/organization', 'Organization'],
] as const;
const SIGNED_OUT_VIEWS = [
  ['/console/sign-in', 'Sign in'],
  ['/console/sign-up', 'Create your Kit account'],
  ['/console/forgot-password', 'Reset your password'],
  ['/console/reset-password#token=kit_rst_0123456789012345678901234567890123456789', 'Choose a new password'],
  ['/console/accept-invite#token=kit_inv_0123456789012345678901234567890123456789', 'Join an organization'],
] as const;

describeConsole('console views: axe, 375 px, light and dark, live preview', (suite) => {
  let password: string;
  before(() => {
    password = demoPassword(suite.stack.kit);
  });

  it('npm start prints the console URL and the demo owner\'s sign-in', () => {
    expect(suite.stack.kit.output()).to.match(/console +http:\/\/\S+\/console\//);
    expect(suite.stack.kit.output()).to.include('demo@example.com');
  });

  // What the views render does not depend on the database behind the API: the axe and width audit runs once, on the
  // embedded default, also when KIT_CONSOLE_E2E_BOTH=1 runs the live preview below on both databases.
  if (suite.target === 'pglite') for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1280, 375] as const) {
      it(`every view has no serious or critical axe violation and no sideways scrolling (${scheme}, ${width} px)`, async () => {
        const { page, context, problems } = await consolePage(suite.browser, { width, height: 800, colorScheme: scheme });
        const failures: string[] = [];
        const check = async (path: string) => {
          for (const v of await axeViolations(page)) failures.push(`${path}: ${v}`);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          if (overflow > 0) failures.push(`${path}: ${overflow} px wider than the ${width} px viewport`);
        };
        for (const [path, heading] of SIGNED_OUT_VIEWS) {
          await page.goto(`${suite.stack.url}${path}`);
          await page.getByRole('heading', { name: heading }).waitFor();
          await check(path);
        }
        await signIn(page, suite.stack.url, 'demo@example.com', password);
        for (const [path, heading] of SIGNED_IN_VIEWS) {
          await page.goto(`${suite.stack.url}${path}`);
          await page.getByRole('heading', { name: heading, exact: true, level: 1 }).waitFor();
          await page.waitForLoadState('networkidle');
          await check(path);
        }
        expect(failures).to.deep.equal([]);
        expect(problems.csp).to.deep.equal([]);
        if (scheme === 'dark') expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).to.equal('rgb(18, 20, 23)');
        await context.close();
      });
    }
  }

  it('previews unsaved settings live, with a key restricted to another site (preview grant), and saves them', async () => {
    const { page, context, problems } = await consolePage(suite.browser);
    await signIn(page, suite.stack.url, 'demo@example.com', password);
    // A key that allows only the owner's real site: the preview still runs, on Kit's own origin, with a grant.
    const keyId = (await pageApi<{ key: { id: string } }>(page, 'POST', '/keys', { kind: 'publishable', name: 'Production site', allowed_origins: ['https://shop.example'] })).key.id;
    await page.goto(`${suite.stack.url}/console/install`);
    await page.getByLabel('Key', { exact: true }).selectOption(keyId);
    await page.getByLabel('Refusal message').fill('Only gear questions here, friend.');
    const frame = page.frameLocator('iframe.preview-frame');
    await frame.getByText('The assistant is running').waitFor({ timeout: 60_000 });
    await frame.getByRole('button', { name: 'Ask about this page' }).press('Enter'); // the preview never opens by itself (it would take focus)
    const question = frame.getByRole('textbox', { name: 'Your question' });
    await question.waitFor({ timeout: 60_000 });
    await question.fill('What is the capital of France?');
    await question.press('Enter');
    await frame.getByText('Only gear questions here, friend.').waitFor({ timeout: 60_000 });
    await question.fill('How much does the Summit membership cost?');
    await question.press('Enter');
    await frame.getByText(/\$49/).first().waitFor({ timeout: 60_000 });

    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved. Visitors get these settings').waitFor();
    const saved = await page.evaluate(async () => ((await (await fetch('/v1/assistant')).json()) as { refusal_message: string }).refusal_message);
    expect(saved).to.equal('Only gear questions here, friend.');
    expect(problems.csp).to.deep.equal([]);
    await context.close();
  });

  it('unsaved settings outlive a lost sign-in: saved after signing in again, not typed again', async () => {
    const { page, context, problems } = await consolePage(suite.browser);
    await signIn(page, suite.stack.url, 'demo@example.com', password);
    await page.goto(`${suite.stack.url}/console/install`);
    await page.getByLabel('Greeting').fill('Typed before the session ended.');
    await context.clearCookies(); // signed out meanwhile (another tab, an expired session)
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, null, 'demo@example.com', password);
    await page.getByRole('heading', { name: 'Install & customize', level: 1 }).waitFor();
    await page.getByText('Your unsaved changes are back').waitFor();
    expect(await page.getByLabel('Greeting').inputValue()).to.equal('Typed before the session ended.');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved. Visitors get these settings').waitFor();
    expect((await pageApi<{ greeting: string }>(page, 'GET', '/assistant')).greeting).to.equal('Typed before the session ended.');
    // Saved: nothing is kept any more, so a later visit shows the saved settings without the notice.
    await page.reload();
    await page.getByRole('heading', { name: 'Install & customize', level: 1 }).waitFor();
    await page.getByLabel('Greeting').waitFor();
    expect(await page.getByText('Your unsaved changes are back').count()).to.equal(0);
    expect(problems.csp).to.deep.equal([]);
    await context.close();
  });

  it('new settings that arrive while the preview answers restart it after the answer, not through it', async () => {
    const { page, context, problems } = await consolePage(suite.browser);
    await signIn(page, suite.stack.url, 'demo@example.com', password);
    await page.goto(`${suite.stack.url}/console/install`);
    const inFrame = await previewFrame(page);
    const sample = page.frameLocator('iframe.preview-frame');
    // The frame keeps the last settings message it was sent, to send one of the same shape below.
    await inFrame.evaluate(() => window.addEventListener('message', (e) => ((window as any).__kitPreviewLast = e.data)));
    await page.getByLabel('Greeting').fill('The first greeting.');
    await inFrame.waitForFunction(() => (window as any).__kitPreviewLast?.assistant?.greeting === 'The first greeting.', null, { timeout: 60_000 });
    await sample.getByRole('button', { name: 'Ask about this page' }).press('Enter');
    const question = sample.getByRole('textbox', { name: 'Your question' });
    await question.fill('How much does the Summit membership cost?');
    await question.press('Enter');
    await widgetLogShows(inFrame, '$49'); // the assistant has started, and answers nothing now
    await question.fill('How long does express shipping take?');
    // The owner asks, and in the same moment the console sends new settings (a keystroke 350 ms earlier would).
    await page.evaluate(() => {
      const target = (document.querySelector('iframe.preview-frame') as HTMLIFrameElement).contentWindow as Window & { __kitPreviewLast: any };
      const widget = target.document.querySelector('kit-widget') as HTMLElement;
      widget.dataset.before = 'the restart';
      widget.shadowRoot!.querySelector('textarea')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
      const last = target.__kitPreviewLast;
      target.postMessage({ ...last, assistant: { ...last.assistant, refusal_message: 'Settings from after the answer.' } }, location.origin);
    });
    // The assistant restarts once the answer is in (a restart at once would have thrown it away): the new one shows
    // the conversation so far, its answer included, and answers with the new settings.
    await inFrame.waitForFunction(() => !(document.querySelector('kit-widget') as HTMLElement | null)?.dataset.before, null, { timeout: 60_000 });
    await sample.getByRole('button', { name: 'Ask about this page' }).press('Enter');
    await widgetLogShows(inFrame, '1 to 2 business days');
    await question.fill('What is the capital of France?');
    await question.press('Enter');
    await widgetLogShows(inFrame, 'Settings from after the answer.');
    expect(await widgetLog(inFrame)).to.include('1 to 2 business days');
    expect(problems.csp).to.deep.equal([]);
    await context.close();
  });
}, { timeout: 240_000 });
