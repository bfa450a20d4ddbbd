import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, newTestPage } from '../../support/chromium.js';
import { calls, createInPage, focused, HOST_ORIGIN, loadWidgetPage, nextFrame } from './harness.js';

const HOSTILE = [
  '<img src=x onerror="window.kitTest.pwned=1">',
  '<script>window.kitTest.pwned=2</script>',
  '<svg onload="window.kitTest.pwned=3"></svg>',
  '<iframe src="javascript:parent.kitTest.pwned=4"></iframe>',
  '[click](javascript:window.kitTest.pwned=5)',
  '**<b onmouseover="window.kitTest.pwned=6">bold</b>** `<img src=x onerror=alert(1)>`',
].join('\n');

/** Elements that must never appear in the widget whatever text it is given. */
const ACTIVE_TAGS = 'img,script,iframe,object,embed,b,style,link,form,input,svg svg,foreignObject';

describe('createWidget', function () {
  let browser: Browser;
  let page: Page;

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    page = await newTestPage(browser, { viewport: { width: 1024, height: 768 } });
    page.setDefaultTimeout(5000);
    await loadWidgetPage(page);
  });
  afterEach(async () => {
    await page.evaluate(() => window.kitTest?.widget?.destroy()).catch(() => {});
    await page.close();
  });

  const launcher = () => page.locator('kit-widget .launcher');
  const dialog = () => page.getByRole('dialog');

  it('opens from the launcher, moves focus to the question field and closes with the close button', async () => {
    await createInPage(page);
    await expect(await dialog().count()).to.equal(0);
    await launcher().click();
    await dialog().waitFor();
    expect(await launcher().getAttribute('aria-expanded')).to.equal('true');
    expect(await page.evaluate(() => window.kitTest.widget.isOpen())).to.equal(true);
    expect(await focused(page)).to.equal('widget:textarea');
    const labelledBy = await dialog().getAttribute('aria-labelledby');
    expect(await page.locator(`kit-widget #${labelledBy}`).textContent()).to.equal('Ask about this page');
    // Non-modal on a desktop viewport: the page stays usable while the visitor asks about it.
    expect(await dialog().getAttribute('aria-modal')).to.equal(null);
    await page.click('#outside');
    expect(await focused(page)).to.equal('page:outside');
    expect(await page.evaluate(() => window.kitTest.widget.isOpen())).to.equal(true);
    await launcher().click();
    await dialog().waitFor({ state: 'hidden' });
    await launcher().click();
    await dialog().waitFor();

    await page.getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'hidden' });
    expect(await launcher().getAttribute('aria-expanded')).to.equal('false');
    expect(await focused(page)).to.equal('widget:launcher');
    expect(await calls(page)).to.deep.equal([['open', true], ['open', false], ['open', true], ['open', false]]);
  });

  it('opens from the keyboard and closes on Escape with focus back on the launcher', async () => {
    await createInPage(page);
    await page.focus('#outside');
    await page.keyboard.press('Tab');
    expect(await focused(page)).to.equal('widget:launcher');
    await page.keyboard.press('Enter');
    await dialog().waitFor();
    expect(await focused(page)).to.equal('widget:textarea');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    expect(await focused(page)).to.equal('widget:launcher');
    await page.keyboard.press('Space');
    await dialog().waitFor();
    expect(await calls(page)).to.deep.equal([['open', true], ['open', false], ['open', true]]);
  });

  it('returns focus to the page element that had it when opened programmatically', async () => {
    await createInPage(page);
    await page.focus('#outside');
    await page.evaluate(() => window.kitTest.widget.open());
    expect(await focused(page)).to.equal('widget:textarea');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    expect(await focused(page)).to.equal('page:outside');
    expect(await page.evaluate(() => window.kitTest.widget.isOpen())).to.equal(false);
  });

  it('is modal on a small screen and closes when the backdrop outside the panel is clicked', async () => {
    await page.setViewportSize({ width: 800, height: 420 });
    await createInPage(page, { autoOpen: true });
    expect(await dialog().getAttribute('aria-modal')).to.equal('true');
    await page.evaluate(() => {
      const d = document.querySelector('kit-widget')!.shadowRoot!.querySelector('dialog')!;
      d.style.setProperty('inset', 'auto 0 0 auto', 'important');
      d.style.setProperty('width', '300px', 'important');
      d.style.setProperty('height', '300px', 'important');
    });
    await page.mouse.click(50, 50);
    await dialog().waitFor({ state: 'hidden' });
    expect(await calls(page)).to.deep.equal([['open', true], ['open', false]]);
  });

  it('keeps Tab and Shift+Tab inside the dialog while it is modal (small screen)', async () => {
    await page.setViewportSize({ width: 400, height: 700 });
    await createInPage(page, { autoOpen: true });
    await page.evaluate(() => {
      const a = window.kitTest.widget.startAnswer();
      a.append('See the source.');
      a.setCitations([{ url: 'https://example.com/a', title: 'A' }]);
      a.done();
    });
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      seen.push(await focused(page));
    }
    // textarea → send → (wrap) new conversation → close → citation link → copy → textarea …
    expect(seen).to.deep.equal(['widget:send', 'widget:x new', 'widget:x close', 'widget:a', 'widget:cpa', 'widget:textarea']);
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).to.equal('widget:cpa');
    expect(await page.evaluate(() => window.kitTest.widget.isOpen())).to.equal(true);
  });

  it('submits on Enter, keeps Shift+Enter as a newline and ignores empty questions', async () => {
    await createInPage(page, { autoOpen: true });
    await page.keyboard.press('Enter');
    await page.keyboard.type('   ');
    await page.keyboard.press('Enter');
    await page.keyboard.type('How much');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('is Pro?');
    await page.keyboard.press('Enter');
    expect(await calls(page)).to.deep.equal([['open', true], ['ask', 'How much\nis Pro?']]);
    expect(await page.locator('kit-widget textarea').inputValue()).to.equal('');
    await page.keyboard.type('Second');
    await page.getByRole('button', { name: 'Send' }).click();
    expect((await calls(page)).at(-1)).to.deep.equal(['ask', 'Second']);
    expect(await focused(page)).to.equal('widget:textarea');
  });

  it('disables sending and shows Stop while busy, and Stop calls onStop', async () => {
    await createInPage(page, { autoOpen: true });
    const stop = page.getByRole('button', { name: 'Stop' });
    expect(await stop.isVisible()).to.equal(false);
    await page.evaluate(() => {
      window.kitTest.answer = window.kitTest.widget.startAnswer();
    });
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).to.equal(true);
    await page.keyboard.type('Another question');
    await page.keyboard.press('Enter');
    expect(await calls(page)).to.deep.equal([['open', true]]);
    await stop.click();
    expect(await calls(page)).to.deep.equal([['open', true], ['stop']]);
    await page.evaluate(() => window.kitTest.answer.done());
    expect(await stop.isVisible()).to.equal(false);
    expect(await focused(page)).to.equal('widget:textarea');
    await page.keyboard.press('Enter');
    expect((await calls(page)).at(-1)).to.deep.equal(['ask', 'Another question']);
  });

  it('streams appended text as markdown with the log aria-busy until the answer is done', async () => {
    await createInPage(page, { autoOpen: true });
    const log = page.getByRole('log');
    expect(await log.getAttribute('aria-live')).to.equal('polite');
    await page.evaluate(() => {
      const k = window.kitTest;
      k.widget.showUserMessage('What does Pro cost?');
      k.answer = k.widget.startAnswer();
      for (const piece of ['The **Pro', '** plan costs ', '`20 EUR`', ' a month.\n\n- billed', ' monthly\n- cancel any time']) {
        k.answer.append(piece);
      }
    });
    expect(await log.getAttribute('aria-busy')).to.equal('true');
    await nextFrame(page);
    const answer = page.locator('kit-widget .bot');
    expect(await answer.locator('strong').textContent()).to.equal('Pro');
    expect(await answer.locator('p code').textContent()).to.equal('20 EUR');
    expect(await answer.locator('li').allTextContents()).to.deep.equal(['billed monthly', 'cancel any time']);
    await page.evaluate(() => window.kitTest.answer.append(' Thanks!'));
    await page.evaluate(() => window.kitTest.answer.done());
    // done() renders the last piece at once, without waiting for a frame.
    expect(await answer.locator('li').last().textContent()).to.equal('cancel any time Thanks!');
    expect(await log.getAttribute('aria-busy')).to.equal('false');
    expect(await page.locator('kit-widget .me').textContent()).to.equal('You: What does Pro cost?');
    await page.evaluate(() => window.kitTest.answer.append('late'));
    await nextFrame(page);
    expect(await answer.textContent()).not.to.contain('late');
  });

  it('streams without flicker: finished blocks keep their nodes, focus and selection while the answer grows', async () => {
    await createInPage(page, { autoOpen: true });
    await page.evaluate(() => {
      const k = window.kitTest;
      k.answer = k.widget.startAnswer();
      k.answer.append('Shipping is free on the Pro plan.\n\n```\nkit.ask("price")\n```\n\nThe rest');
    });
    const copy = page.getByRole('button', { name: 'Copy code' });
    await copy.waitFor(); // the rich renderer (a lazy chunk) has drawn the fence and its copy button
    await copy.focus();
    await page.evaluate(() => {
      const body = document.querySelector('kit-widget')!.shadowRoot!.querySelector('.bot .b')!;
      const w = window as unknown as { kept: Node[] };
      w.kept = [body.querySelector('p')!, body.querySelector('pre')!, body.querySelector('pre button') ?? body.querySelector('button')!];
      const sel = getSelection()!;
      sel.selectAllChildren(body.querySelector('p')!);
    });
    for (const piece of [' of the answer', ' keeps growing', '\n\n- one', '\n- two', '\n\nDone.']) {
      await page.evaluate((p) => window.kitTest.answer.append(p), piece);
      await nextFrame(page);
    }
    const state = await page.evaluate(() => {
      const root = document.querySelector('kit-widget')!.shadowRoot!;
      const body = root.querySelector('.bot .b')!;
      const w = window as unknown as { kept: Node[] };
      return {
        connected: w.kept.map((n) => n.isConnected && body.contains(n)),
        focusKept: root.activeElement === w.kept[2],
        selection: getSelection()!.toString(),
        items: [...body.querySelectorAll('li')].map((li) => li.textContent),
      };
    });
    expect(state.connected).to.deep.equal([true, true, true]);
    expect(state.focusKept).to.equal(true);
    expect(state.selection).to.equal('Shipping is free on the Pro plan.');
    expect(state.items).to.deep.equal(['one', 'two']);
  });

  it('shows a status line and a progress bar, and hides both when cleared', async () => {
    await createInPage(page, { autoOpen: true });
    const status = page.getByRole('status');
    await page.evaluate(() => window.kitTest.widget.setStatus('Reading the site… 3/10', 0.3));
    expect(await status.textContent()).to.equal('Reading the site… 3/10');
    const width = await page.locator('kit-widget .bar i').evaluate((i) => i.getBoundingClientRect().width / i.parentElement!.getBoundingClientRect().width);
    expect(width).to.be.closeTo(0.3, 0.01);
    await page.evaluate(() => window.kitTest.widget.setStatus(''));
    expect(await status.textContent()).to.equal('');
    expect(await page.locator('kit-widget .bar').isVisible()).to.equal(false);
  });

  it('renders citations as links only for http(s) URLs, opening in a new tab without opener', async () => {
    await createInPage(page, { autoOpen: true });
    await page.evaluate(() => {
      const a = window.kitTest.widget.startAnswer();
      a.append('Answer [1].');
      a.setCitations([
        { url: 'https://example.com/pricing', title: 'Pricing' },
        { url: '/docs/faq', title: 'FAQ' },
        { url: 'javascript:window.kitTest.pwned=1', title: 'Evil' },
        { url: ' JaVa\tScRiPt:window.kitTest.pwned=1', title: 'Evil 2' },
        { url: 'data:text/html,<script>1</script>', title: 'Data' },
        { url: 'https://example.com/pricing', title: 'Duplicate' },
        { url: 'http://example.org/', title: '' },
      ]);
      a.done();
    });
    const links = page.locator('kit-widget .src a');
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    // One entry per citation, numbered like the markers (two passages of one page are two sources).
    expect(hrefs).to.deep.equal(['https://example.com/pricing', `${HOST_ORIGIN}/docs/faq`, 'https://example.com/pricing', 'http://example.org/']);
    for (const a of await links.all()) {
      expect(await a.getAttribute('target')).to.equal('_blank');
      expect(await a.getAttribute('rel')).to.equal('noopener noreferrer');
    }
    expect(await page.locator('kit-widget .src li').allTextContents()).to.deep.equal(
      ['Pricing', 'FAQ', 'Evil', 'Evil 2', 'Data', 'Duplicate', 'http://example.org/'],
    );
    // The marker [1] links to the same source as the list's first entry.
    expect(await page.locator('kit-widget .b a.ci').getAttribute('href')).to.equal('https://example.com/pricing');
    expect(await page.locator('kit-widget .b a.ci').getAttribute('aria-label')).to.equal('Source 1: Pricing');
    await page.locator('kit-widget .src li', { hasText: 'Evil' }).first().click();
    expect(await page.evaluate(() => window.kitTest.pwned)).to.equal(undefined);
  });

  it('renders hostile model, page and string text inert', async () => {
    await page.evaluate(() => {
      window.kitTest.pwned = undefined;
    });
    await createInPage(page, { autoOpen: true, strings: { title: '<img src=x onerror="window.kitTest.pwned=9">' } });
    await page.evaluate((hostile) => {
      const w = window.kitTest.widget;
      w.showUserMessage(hostile);
      w.setStatus(hostile);
      w.showError(hostile);
      const a = w.startAnswer();
      a.append(hostile);
      a.setCitations([{ url: 'https://example.com/', title: hostile }]);
      a.fail(hostile);
      w.startAnswer().refuse(hostile);
    }, HOSTILE);
    await nextFrame(page);
    await page.waitForTimeout(100); // an onerror/onload would have fired by now
    expect(await page.evaluate(() => window.kitTest.pwned)).to.equal(undefined);
    expect(await page.locator(`kit-widget :is(${ACTIVE_TAGS})`).count()).to.equal(0);
    const handlerAttributes = await page.evaluate(() =>
      [...document.querySelector('kit-widget')!.shadowRoot!.querySelectorAll('*')]
        .flatMap((e) => [...e.attributes].map((a) => a.name))
        .filter((name) => name.startsWith('on') || name === 'src' || name === 'style'));
    expect(handlerAttributes).to.deep.equal([]);
    expect(await page.locator('kit-widget h2').textContent()).to.equal('<img src=x onerror="window.kitTest.pwned=9">');
    expect(await page.locator('kit-widget .me').textContent()).to.contain(HOSTILE);
    expect(await page.locator('kit-widget .src a').getAttribute('href')).to.equal('https://example.com/');
  });

  it('shows a refusal as plain text in a distinct style and removes an answer stopped before its first token', async () => {
    await createInPage(page, { autoOpen: true });
    await page.evaluate(() => {
      const w = window.kitTest.widget;
      const normal = w.startAnswer();
      normal.append('A normal answer.');
      normal.done();
      w.startAnswer().refuse('I can only answer about **this page**');
      w.startAnswer().done();
    });
    const refusal = page.locator('kit-widget .refusal');
    expect(await refusal.textContent()).to.equal('Assistant: I can only answer about **this page**Try a question about what this page covers.');
    const style = (sel: string) => page.locator(sel).evaluate((e) => {
      const s = getComputedStyle(e);
      return [s.backgroundColor, s.borderInlineStartWidth, s.fontStyle].join('|');
    });
    expect(await style('kit-widget .refusal')).not.to.equal(await style('kit-widget .bot:not(.refusal)'));
    expect(await page.locator('kit-widget .bot').count()).to.equal(2);
    expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).to.equal(false);
  });

  it('keeps partial text and adds the error when an answer fails', async () => {
    await createInPage(page, { autoOpen: true });
    await page.evaluate(() => {
      const a = window.kitTest.widget.startAnswer();
      a.append('Partial');
      a.fail('The connection was lost.');
    });
    expect(await page.locator('kit-widget .bot').textContent()).to.equal('Assistant: PartialThe connection was lost.');
    expect(await page.locator('kit-widget .bot .err').textContent()).to.equal('The connection was lost.');
    expect(await page.getByRole('log').getAttribute('aria-busy')).to.equal('false');
  });

  it('wraps huge and RTL text inside the panel without horizontal overflow', async () => {
    await createInPage(page, { autoOpen: true });
    await page.evaluate(() => {
      const w = window.kitTest.widget;
      w.showUserMessage('مرحبا، كم سعر الخطة؟');
      const a = w.startAnswer();
      a.append('x'.repeat(200_000) + '\n\n' + 'שלום '.repeat(2000));
      a.setCitations([{ url: 'https://example.com/' + 'p'.repeat(5000), title: 'y'.repeat(5000) }]);
      a.done();
    });
    const overflow = await page.getByRole('log').evaluate((log) => log.scrollWidth - log.clientWidth);
    expect(overflow).to.equal(0);
    const dirs = await page.locator('kit-widget .msg .b').evaluateAll((bs) => bs.map((b) => b.matches(':dir(rtl)')));
    expect(dirs).to.deep.equal([true, false]);
    expect(await page.locator('kit-widget textarea').getAttribute('dir')).to.equal('auto');
  });

  it('uses overridden strings and English defaults for the rest', async () => {
    await createInPage(page, { autoOpen: true, strings: { title: 'Fragen Sie', send: 'Senden', unknownKey: 'x', close: '' } });
    expect(await page.locator('kit-widget h2').textContent()).to.equal('Fragen Sie');
    expect(await page.getByRole('button', { name: 'Senden' }).count()).to.equal(1);
    expect(await page.getByRole('button', { name: 'Close' }).count()).to.equal(1);
    expect(await page.getByRole('dialog', { name: 'Fragen Sie' }).count()).to.equal(1);
  });

  it('stays closed until opened when autoOpen is not set', async () => {
    await createInPage(page);
    expect(await page.evaluate(() => window.kitTest.widget.isOpen())).to.equal(false);
    expect(await launcher().isVisible()).to.equal(true);
    expect(await dialog().count()).to.equal(0);
    expect(await calls(page)).to.deep.equal([]);
  });

  it('is not restyled or hidden by hostile host page CSS', async () => {
    await loadWidgetPage(page, {
      head: `<style>body * { all: unset !important; display: none !important }
        button { color: red !important; font-size: 40px !important } dialog { background: red !important }
        kit-widget { display: none; opacity: 0; transform: scale(0) }
        :root { font-size: 5px; direction: ltr }</style>`,
    });
    await createInPage(page);
    const box = await launcher().boundingBox();
    expect(box).to.deep.include({ width: 56, height: 56, x: 1024 - 20 - 56, y: 768 - 20 - 56 });
    await launcher().click();
    await dialog().waitFor();
    const look = await page.locator('kit-widget dialog').evaluate((d) => {
      const send = d.querySelector('.send')!;
      return { bg: getComputedStyle(d).backgroundColor, color: getComputedStyle(send).color, size: getComputedStyle(send).fontSize, width: d.getBoundingClientRect().width };
    });
    expect(look).to.deep.equal({ bg: 'rgb(255, 255, 255)', color: 'rgb(255, 255, 255)', size: '15px', width: 400 });
  });

  it('leaves the host page styles and globals untouched', async () => {
    const snapshot = () => page.evaluate(() => {
      const style = getComputedStyle(document.getElementById('outside')!);
      return {
        button: [...style].map((prop) => `${prop}:${style.getPropertyValue(prop)}`).join(';'),
        globals: Object.keys(window).join(','),
        sheets: document.styleSheets.length + document.adoptedStyleSheets.length,
      };
    });
    const before = await snapshot();
    await createInPage(page, { autoOpen: true });
    await page.evaluate(() => window.kitTest.widget.close());
    const after = await snapshot();
    expect(after).to.deep.equal(before);
  });

  it('applies --kit-* custom properties set by the page', async () => {
    await loadWidgetPage(page, {
      head: '<style>:root { --kit-bg: rgb(250, 240, 230) } kit-widget { --kit-accent: rgb(200, 0, 0); --kit-radius: 3px }</style>',
    });
    await createInPage(page, { autoOpen: true });
    expect(await launcher().evaluate((b) => getComputedStyle(b).backgroundColor)).to.equal('rgb(200, 0, 0)');
    const d = await page.locator('kit-widget dialog').evaluate((e) => [getComputedStyle(e).backgroundColor, getComputedStyle(e).borderTopLeftRadius]);
    expect(d).to.deep.equal(['rgb(250, 240, 230)', '3px']);
  });

  it('follows prefers-color-scheme for light and dark', async () => {
    await createInPage(page, { autoOpen: true });
    const bg = () => page.locator('kit-widget dialog').evaluate((e) => getComputedStyle(e).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await bg();
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await bg();
    expect(light).to.equal('rgb(255, 255, 255)');
    expect(dark).to.equal('rgb(17, 24, 39)');
  });

  it('lays out as a full-width sheet without horizontal overflow at 320 px', async () => {
    await page.setViewportSize({ width: 320, height: 640 });
    await createInPage(page, { autoOpen: true });
    await page.evaluate(() => {
      const w = window.kitTest.widget;
      w.showUserMessage('A fairly long question about the pricing of the Pro plan and its limits?');
      w.setStatus('Reading the site… 3/10', 0.3);
      const a = w.startAnswer();
      a.append('An answer with a long word: ' + 'Donaudampfschifffahrtsgesellschaft'.repeat(3));
      a.setCitations([{ url: 'https://example.com/a/very/long/path/to/a/page', title: 'A page with a long title indeed' }]);
      a.done();
    });
    const layout = await page.evaluate(() => {
      const root = document.querySelector('kit-widget')!.shadowRoot!;
      const d = root.querySelector('dialog')!.getBoundingClientRect();
      const widest = Math.max(...[...root.querySelectorAll('dialog *')].map((e) => e.getBoundingClientRect().right));
      return { left: d.left, width: d.width, height: d.height, widest, page: document.documentElement.scrollWidth };
    });
    expect(layout).to.deep.equal({ left: 0, width: 320, height: 640, widest: layout.widest, page: 320 });
    expect(layout.widest).to.be.at.most(320);
  });

  it('applies its styles under a CSP that forbids inline styles', async () => {
    await loadWidgetPage(page, { head: `<meta http-equiv="Content-Security-Policy" content="style-src 'none'">` });
    await createInPage(page);
    expect(await launcher().evaluate((b) => getComputedStyle(b).position)).to.equal('fixed');
  });

  it('destroy removes the host element and every listener, and later calls do nothing', async () => {
    await createInPage(page);
    await page.focus('#outside');
    await page.evaluate(() => window.kitTest.widget.open());
    await page.evaluate(() => {
      const k = window.kitTest;
      k.answer = k.widget.startAnswer();
      (window as unknown as { detached: Element }).detached = document.querySelector('kit-widget')!;
      k.widget.destroy();
    });
    expect(await page.locator('kit-widget').count()).to.equal(0);
    expect(await focused(page)).to.equal('page:outside');
    await page.click('#outside'); // the page is no longer inert behind a modal
    await page.evaluate(() => {
      const k = window.kitTest;
      k.widget.destroy();
      k.widget.open();
      k.widget.showUserMessage('after');
      k.answer.append('after');
      k.answer.done();
      k.widget.startAnswer().append('after');
      // Put the removed host back: if any listener survived, typing and clicking would reach the callbacks.
      document.body.append((window as unknown as { detached: Element }).detached);
    });
    expect(await page.evaluate(() => window.kitTest.widget.isOpen())).to.equal(false);
    await launcher().click();
    expect(await dialog().count()).to.equal(0);
    await page.evaluate(() => document.querySelector('kit-widget')!.shadowRoot!.querySelector('dialog')!.show());
    await page.locator('kit-widget textarea').fill('Still there?');
    await page.locator('kit-widget textarea').press('Enter');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Close' }).click();
    // Enter was not intercepted: it inserted a newline instead of submitting.
    expect(await page.locator('kit-widget textarea').inputValue()).to.equal('Still there?\n');
    expect(await page.locator('kit-widget .log').textContent()).not.to.contain('after');
    expect(await calls(page)).to.deep.equal([['open', true]]);
  });

  it('greets with the owner\'s greeting and starter questions, asks a starter, and offers "New conversation" once there is a thread', async () => {
    await createInPage(page, { autoOpen: true });
    await page.evaluate(() => window.kitTest.widget.setWelcome('Hi! Ask about plans.', ['How much is Pro?', '', 'Is there a free plan?']));
    expect(await page.locator('kit-widget .intro').textContent()).to.equal('Hi! Ask about plans.');
    expect(await page.locator('kit-widget .sq').allTextContents()).to.deep.equal(['How much is Pro?', 'Is there a free plan?']);
    expect(await page.getByRole('button', { name: 'New conversation' }).isVisible()).to.equal(false);
    await page.locator('kit-widget textarea').fill('typed, not sent');
    await page.locator('kit-widget .sq').first().click();
    expect((await calls(page)).at(-1)).to.deep.equal(['ask', 'How much is Pro?']);
    expect(await page.locator('kit-widget textarea').inputValue()).to.equal('typed, not sent');
    await page.evaluate(() => window.kitTest.widget.showUserMessage('How much is Pro?'));
    expect(await page.locator('kit-widget .welcome').isVisible()).to.equal(false);
    await page.getByRole('button', { name: 'New conversation' }).click();
    expect(await page.locator('kit-widget .msg').count()).to.equal(0);
    expect(await page.locator('kit-widget .welcome').isVisible()).to.equal(true);
    expect((await calls(page)).some((c) => c[0] === 'new')).to.equal(false); // harness records no onNewConversation
    expect(await focused(page)).to.equal('widget:textarea');
  });

  it('previews a cited passage on focus, hides it on Escape, and highlights it on this page when activated', async () => {
    await createInPage(page, { autoOpen: true });
    await page.evaluate((origin) => {
      const a = window.kitTest.widget.startAnswer();
      a.append('Pro costs 20 euros [1], see the FAQ [2].');
      a.setCitations([
        { url: `${origin}/`, title: 'Pricing', text: 'The Pro plan costs 20 euros a month.' },
        { url: 'https://example.com/faq', title: 'FAQ', text: 'Billing questions and answers.' },
      ]);
      a.done();
    }, HOST_ORIGIN);
    const markers = page.locator('kit-widget .b a.ci');
    expect(await markers.allTextContents()).to.deep.equal(['1', '2']);
    expect(await markers.nth(1).getAttribute('href')).to.equal('https://example.com/faq#:~:text=Billing%20questions%20and%20answers.');
    await markers.first().focus();
    await page.locator('kit-widget .tip').waitFor();
    expect(await page.locator('kit-widget .tip').textContent()).to.equal('PricingThe Pro plan costs 20 euros a month.');
    await page.keyboard.press('Escape');
    await page.locator('kit-widget .tip').waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => window.kitTest.widget.isOpen())).to.equal(true);
    // Still on the marker after Escape: Enter activates it. (Once, in session 14's fresh-clone CI at e21b777, no
    // highlight came within 5 s; the highlighter is inlined in this test's bundle, so a lost focus is the suspect.)
    expect(await focused(page)).to.equal('widget:ci');
    await page.keyboard.press('Enter');
    await page.locator('kit-widget .hl i').first().waitFor();
    expect(page.url()).to.equal(`${HOST_ORIGIN}/`);
    const box = await page.locator('kit-widget .hl i').first().boundingBox();
    const para = await page.locator('p', { hasText: 'The Pro plan costs' }).boundingBox();
    expect(Math.abs(box!.y + 2 - para!.y)).to.be.below(3);
    await page.mouse.click(5, 700);
    await page.locator('kit-widget .hl').waitFor({ state: 'detached' });
    // Hover shows the passage too (the second source, in the Sources list), and leaving the link hides it.
    await page.locator('kit-widget .src li a').nth(1).hover();
    await page.locator('kit-widget .tip', { hasText: 'Billing questions and answers.' }).waitFor();
    await page.mouse.move(5, 5);
    await page.locator('kit-widget .tip').waitFor({ state: 'hidden' });
  });

  it('ends a refusal with the next step: a contact link when there is one', async () => {
    await createInPage(page, { autoOpen: true });
    await page.evaluate(() => {
      window.kitTest.widget.startAnswer().refuse('I can only answer about this page.', 'mailto:help@example.com');
      window.kitTest.widget.startAnswer().refuse('I can only answer about this page.', 'javascript:alert(1)');
    });
    const [withContact, without] = await page.locator('kit-widget .refusal').all();
    expect(await withContact!.textContent()).to.equal('Assistant: I can only answer about this page.Try a question about what this page covers, or contact us.');
    expect(await withContact!.locator('a').getAttribute('href')).to.equal('mailto:help@example.com');
    expect(await without!.locator('a').count()).to.equal(0);
  });

  it('mounts inline into its target, always open, as a labelled region without launcher or close button', async () => {
    await loadWidgetPage(page, { body: '<h1>Docs</h1><div id="help"></div><button id="outside" type="button">Outside</button>' });
    await page.evaluate(() => {
      const k = window.kitTest;
      k.widget = window.KitWidget.createWidget({ placement: 'inline', target: document.getElementById('help')!, onAsk: (q) => k.calls.push(['ask', q]), onStop() {} });
    });
    expect(await page.evaluate(() => document.querySelector('#help > kit-widget') !== null)).to.equal(true);
    expect(await page.getByRole('region', { name: 'Ask about this page' }).count()).to.equal(1);
    expect(await launcher().count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Close' }).count()).to.equal(0);
    expect(await page.evaluate(() => window.kitTest.widget.isOpen())).to.equal(true);
    await page.keyboard.press('Tab'); // the first stop of the page is the question field (no launcher inline)
    expect(await focused(page)).to.equal('widget:textarea');
    await page.keyboard.type('Where are the docs?');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    expect(await calls(page)).to.deep.equal([['ask', 'Where are the docs?']]);
  });

  it('pushes the page aside as a side panel with push, and gives the space back on close and destroy', async () => {
    await page.evaluate(() => {
      const k = window.kitTest;
      k.widget = window.KitWidget.createWidget({ placement: 'sidebar', sidebar: 'push', onAsk() {}, onStop() {} });
    });
    const margin = () => page.evaluate(() => getComputedStyle(document.documentElement).marginRight);
    await launcher().click();
    const box = (await page.locator('kit-widget .panel').boundingBox())!;
    expect([box.x, box.width, Math.round(box.height)]).to.deep.equal([1024 - 400, 400, 768]);
    expect(await margin()).to.equal('400px');
    await page.keyboard.press('Escape');
    expect(await margin()).to.equal('0px');
    await launcher().click();
    await page.evaluate(() => window.kitTest.widget.destroy());
    expect(await margin()).to.equal('0px');
  });

  it('switches every label with setStrings (a language chunk arriving)', async () => {
    await createInPage(page, { autoOpen: true });
    await page.evaluate(async () => {
      const w = window.kitTest.widget;
      const de = (await window.KitWidget.loadUiStrings('de'))!;
      w.setStrings(de);
    });
    expect(await page.locator('kit-widget h2').textContent()).to.equal('Fragen zu dieser Seite');
    expect(await launcher().getAttribute('aria-label')).to.equal('Fragen zu dieser Seite');
    expect(await page.locator('kit-widget textarea').getAttribute('placeholder')).to.equal('Frage stellen…');
    expect(await page.locator('kit-widget .send').getAttribute('aria-label')).to.equal('Senden');
    expect(await page.evaluate(() => [window.KitWidget.pickUiLanguage(null, 'pt-BR'), window.KitWidget.pickUiLanguage('auto', 'ja'), window.KitWidget.pickUiLanguage('ja', 'de'), window.KitWidget.pickUiLanguage('nl', 'de')]))
      .to.deep.equal(['pt', 'en', 'en', 'nl']);
  });

  it('copies a whole answer as text', async () => {
    // kit-host.test is no secure context, so it has no Clipboard API: a stand-in records what is written.
    await page.evaluate(() => Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t: string) => { (window as unknown as { copied: string }).copied = t; } } }));
    await createInPage(page, { autoOpen: true });
    await page.evaluate(() => {
      const a = window.kitTest.widget.startAnswer();
      a.append('The **Pro** plan costs 20 euros.');
      a.done();
    });
    await page.getByRole('button', { name: 'Copy answer' }).click();
    expect(await page.evaluate(() => (window as unknown as { copied: string }).copied)).to.equal('The Pro plan costs 20 euros.');
    expect(await page.locator('kit-widget .cpa').textContent()).to.equal('Copied');
  });
});
