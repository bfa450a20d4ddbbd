/**
 * Saves docs/widget-{light,dark,sidebar,inline,phone}.png: the open widget on a sample page, mid-conversation (a
 * table, citations, a passage preview on hover), in each placement and on a phone.
 * Run: npx tsx scripts/screenshots/widget.ts
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { launchChromium, newTestPage } from '../../test/support/chromium.js';
import type * as WidgetModule from '../../sdk/widget/index.js';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme Cloud — Pricing</title>
<style>
  body { margin: 0; font: 16px/1.6 Georgia, serif; color: #222; background: #fafaf7 }
  header { padding: 20px 48px; border-bottom: 1px solid #e5e5e0; font: 600 20px system-ui }
  main { max-width: 640px; padding: 32px 48px }
  h1 { font: 700 36px system-ui; margin: 0 0 16px }
  .plan { border: 1px solid #ddd; border-radius: 8px; padding: 12px 20px; margin: 12px 0; background: #fff }
  @media (prefers-color-scheme: dark) { body { background: #0b0d12; color: #d8d8d8 } .plan { background: #151821; border-color: #2a2f3a } header { border-color: #2a2f3a } }
</style></head><body><header>Acme Cloud</header><main><h1>Pricing</h1>
<p>Simple plans for teams of every size. All plans include unlimited projects and email support.</p>
<div class="plan"><h2>Starter</h2><p>Free for up to 3 users.</p></div>
<div class="plan"><h2>Pro</h2><p>20 euros per user per month, billed monthly. Cancel any time.</p></div>
<div class="plan"><h2>Enterprise</h2><p>Custom pricing, SSO and a 99.9% uptime SLA.</p></div>
</main></body></html>`;

const ANSWER = 'The **Pro** plan costs `20 €` per user per month [1]:\n\n| Plan | Price | Users |\n|---|---|---|\n| Starter | free | up to 3 |\n| Pro | 20 € / user / month | unlimited |\n\n- billed monthly, cancel any time [2]\n- *Enterprise* pricing is custom [1]';
const CITATIONS = [
  { url: 'https://acme.example/pricing', title: 'Pricing — Acme Cloud', text: 'Pro: 20 euros per user per month, billed monthly. Cancel any time.' },
  { url: 'https://acme.example/billing/faq', title: 'Billing FAQ', text: 'You can cancel any time; the plan stays active until the end of the month.' },
];

/** The shots: [file, viewport, widget options, what the page gets]. */
const SHOTS = [
  ['widget-light', { width: 1100, height: 760 }, 'light', { placement: 'launcher' }],
  ['widget-dark', { width: 1100, height: 760 }, 'dark', { placement: 'launcher' }],
  ['widget-sidebar', { width: 1200, height: 700 }, 'light', { placement: 'sidebar', sidebar: 'push' }],
  ['widget-inline', { width: 1000, height: 1320 }, 'light', { placement: 'inline' }],
  ['widget-phone', { width: 390, height: 760 }, 'light', { placement: 'launcher' }],
] as const;

async function main(): Promise<void> {
  const bundle = await build({
    entryPoints: [root('sdk/widget/index.ts')], bundle: true, format: 'iife', globalName: 'KitWidget', write: false,
  });
  const browser = await launchChromium();
  try {
    for (const [name, viewport, scheme, options] of SHOTS) {
      const page = await newTestPage(browser, { viewport, colorScheme: scheme });
      await page.setContent(PAGE.replace('</main>', options.placement === 'inline' ? '<h2>Ask our docs</h2><div id="help"></div></main>' : '</main>'));
      await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
      await page.evaluate(({ answer, citations, options }) => {
        const { createWidget } = (window as unknown as { KitWidget: typeof WidgetModule }).KitWidget;
        const target = document.getElementById('help') ?? undefined;
        const widget = createWidget({ ...options, ...(target ? { target } : {}), autoOpen: true, onAsk() {}, onStop() {} } as Parameters<typeof createWidget>[0]);
        widget.setWelcome('Hi! Ask me about plans and billing.', ['How much is Pro?', 'Can I cancel any time?']);
        widget.setNotice('');
        widget.showUserMessage('How much does the Pro plan cost?');
        const view = widget.startAnswer();
        view.append(answer);
        view.setCitations(citations);
        view.done();
        widget.showUserMessage('Is there an uptime guarantee?');
        widget.startAnswer().append('Enterprise includes a 99.9% uptime');
      }, { answer: ANSWER, citations: CITATIONS, options });
      // Let the lazy pieces (rich markdown) arrive and render.
      await page.waitForTimeout(300);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.locator('kit-widget textarea').blur();
      if (name === 'widget-light') await page.locator('kit-widget a.ci').first().hover();
      await page.waitForTimeout(100);
      await page.screenshot({ path: root(`docs/${name}.png`), animations: 'disabled' });
      await page.close();
    }
  } finally {
    await browser.close();
  }
}

await main();
