/**
 * Screenshots of the demo as a visitor sees it after `npm start`: the widget open on /demo/pricing.html with a real
 * streamed answer from the running server. Usage: `npm start` in one terminal, then
 * `npx tsx scripts/screenshots/demo.ts [http://localhost:8787]` → docs/demo-light.png, docs/demo-dark.png.
 */
import { launchChromium, newTestPage } from '../../test/support/chromium.js';

const base = process.argv[2] ?? 'http://localhost:8787';
const browser = await launchChromium();
try {
  for (const scheme of ['light', 'dark'] as const) {
    const page = await newTestPage(browser, { viewport: { width: 1100, height: 760 }, colorScheme: scheme });
    await page.goto(`${base}/demo/pricing.html`);
    await page.locator('kit-widget .launcher').click();
    await page.locator('kit-widget textarea').fill('How much is the Summit membership, and what does it include?');
    await page.locator('kit-widget textarea').press('Enter');
    await page.locator('kit-widget .msg.bot:not(.live)').last().waitFor({ timeout: 90_000 });
    await page.waitForTimeout(300);
    console.log(scheme, (await page.locator('kit-widget .msg.bot').last().textContent())?.slice(0, 200));
    await page.screenshot({ path: `docs/demo-${scheme}.png` });
    await page.close();
  }
} finally {
  await browser.close();
}
