/**
 * Saves docs/widget-light.png and docs/widget-dark.png: the open widget on a sample page, mid-conversation.
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

const ANSWER = 'The **Pro** plan costs `20 €` per user per month:\n\n- billed monthly\n- cancel any time\n\nStarter is free for up to 3 users.';

async function main(): Promise<void> {
  const bundle = await build({
    entryPoints: [root('sdk/widget/index.ts')], bundle: true, format: 'iife', globalName: 'KitWidget', write: false,
  });
  const browser = await launchChromium();
  try {
    // KIT_SHOT_WIDTH=320 previews the small-screen sheet (written to .tmp/, not docs/).
    const width = Number(process.env.KIT_SHOT_WIDTH ?? 1100);
    for (const scheme of ['light', 'dark'] as const) {
      const page = await newTestPage(browser, { viewport: { width, height: 760 }, colorScheme: scheme });
      await page.setContent(PAGE);
      await page.addScriptTag({ content: bundle.outputFiles[0].text });
      await page.evaluate((answer) => {
        const { createWidget } = (window as unknown as { KitWidget: typeof WidgetModule }).KitWidget;
        const widget = createWidget({ autoOpen: true, onAsk() {}, onStop() {} });
        widget.showUserMessage('How much does the Pro plan cost?');
        const view = widget.startAnswer();
        view.append(answer);
        view.setCitations([
          { url: 'https://acme.example/pricing', title: 'Pricing — Acme Cloud' },
          { url: 'https://acme.example/billing/faq', title: 'Billing FAQ' },
        ]);
        view.done();
        widget.showUserMessage('Is there an uptime guarantee?');
        widget.startAnswer().append('Enterprise includes a 99.9% uptime');
      }, ANSWER);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.locator('kit-widget textarea').blur();
      const path = width === 1100 ? `docs/widget-${scheme}.png` : `.tmp/widget-${scheme}-${width}.png`;
      await page.screenshot({ path: root(path), animations: 'disabled' });
      await page.close();
    }
  } finally {
    await browser.close();
  }
}

await main();
