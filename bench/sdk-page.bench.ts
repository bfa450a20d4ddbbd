/**
 * The SDK on the page (issue 12 goal 6), in headless Chromium against references in the same run:
 *  1. the demo page (its own snippet: sitemap site context, redact 'secrets') with Kit, with `@docsearch/js` 3.x
 *     (served locally from node_modules, its button rendered), and with neither; main-thread task time added to a
 *     page view nobody interacts with (CDP Performance.getMetrics TaskDuration at network idle + 1 s, minus the bare
 *     page's), long tasks (PerformanceObserver 'longtask'); Kit also with a host waiting for `ready` (the page read at
 *     init); then, with Kit as pasted, the visitor's intent (pointer on the launcher) to `ready`, and a question
 *     (`instance.ask`, remote engine): task time and long tasks of each;
 * (The site crawl, issue 12 goal 7, is `npm run bench -- crawl`: bench/crawl.bench.ts.)
 * Rounds interleave the variants (order rotated); each variant runs in a fresh browser context (cold HTTP cache, empty
 * IndexedDB). Medians are printed, with ratios. The machine is shared: the load average is printed with the figures.
 * Run: npm run bench -- sdk-page   (KIT_BENCH_ROUNDS=5 by default)
 */
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { ensureSdkBuilt, startKitServer } from '../test/e2e/support/kit-server.js';
import { launchChromium } from '../test/support/chromium.js';
import { freshPage, longest, median, sampleBook, taskMs, type LongTask, type Sample } from './support/page-metrics.js';
import { signalsReady, writeDemoVariants, type DemoVariant } from './support/demo-page.js';

const ROUNDS = Number(process.env.KIT_BENCH_ROUNDS ?? 5);
const SETTLE_MS = 1_000;
const root = resolve(import.meta.dirname, '..');

// ---- the site the benchmark serves: the demo page and its variants (bench/support/demo-page.ts) ----
const dir = writeDemoVariants(root);

// ---- measurement helpers ----
const { record, all, med } = sampleBook();

const kit = await startKitServer({ KIT_DEMO: 'true', KIT_DEMO_DIR: dir, KIT_LOG_LEVEL: 'error', ...(process.env.KIT_SDK_DIR ? { KIT_SDK_DIR: process.env.KIT_SDK_DIR } : {}) });
if (!process.env.KIT_SDK_DIR) ensureSdkBuilt();
const browser = await launchChromium();
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const loadBefore = load();

/**
 * The demo page bare, with DocSearch, with Kit as pasted, or with Kit and a host waiting for `ready` (eager): task
 * time added by a page view nobody interacts with (to the network's rest, then 1 s more), long tasks; with Kit, the
 * visitor's intent (the pointer on the launcher) to `ready`, then a question.
 */
async function demoRound(variant: DemoVariant): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await freshPage(context);
    // What the page requested, for a page that never reaches network idle (session 13's and 15's stops in round 3).
    const requests: string[] = [];
    const opened = Date.now();
    page.on('request', (r) => requests.push(`${Date.now() - opened} ms > ${r.method()} ${r.url().replace(kit.url, '')}`));
    page.on('response', (r) => requests.push(`${Date.now() - opened} ms < ${r.status()} ${r.url().replace(kit.url, '')}`));
    page.on('requestfailed', (r) => requests.push(`${Date.now() - opened} ms x ${r.url().replace(kit.url, '')} ${r.failure()?.errorText ?? ''}`));
    await page.goto(`${kit.url}/demo/bench-${variant}.html`, { waitUntil: 'load' });
    if (signalsReady(variant)) {
      await page.waitForFunction(() => (window as any).__readyAt !== undefined || (window as any).__kitError !== undefined, null, { timeout: 60_000 });
    }
    // Every variant: no request for 500 ms (Kit: its chunk and GET /config answered), then the settling time.
    try {
      await page.waitForLoadState('networkidle');
    } catch (err) {
      const kitError = await page.evaluate(() => (window as any).__kitError ?? null).catch(() => 'unknown');
      process.stderr.write(`bench: ${variant} never reached network idle; Kit's error ${JSON.stringify(kitError)}; its last requests:\n  ${requests.slice(-40).join('\n  ')}\n`);
      throw err;
    }
    await page.waitForTimeout(SETTLE_MS);
    const err = await page.evaluate(() => (window as any).__kitError);
    if (err) throw new Error(`bench: Kit failed on the demo page: ${JSON.stringify(err)}`);
    const s: Sample = { taskMs: await taskMs(page) };
    const tasks = await page.evaluate(() => (window as any).__longtasks as LongTask[]);
    s.longestMs = longest(tasks);
    if (variant === 'docsearch' || variant === 'eager') s.readyMs = await page.evaluate(() => (window as any).__readyAt as number);
    if (variant === 'kit') {
      // Nothing of the site was read before the visitor's intent (the crawl starts with the sitemap).
      if (await page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('sitemap.xml')))) throw new Error('bench: Kit read the site before any intent');
      // The visitor's intent: the pointer on the launcher reads the page (and loads the panel); then `ready`.
      const beforeIntent = await taskMs(page);
      const t0 = await page.evaluate(() => performance.now());
      await page.hover('kit-widget .launcher');
      await page.evaluate(() => new Promise<void>((resolve) => (window as any).__kit.on('ready', () => { (window as any).__readyAt = performance.now(); resolve(); })));
      const t1 = await page.evaluate(() => (window as any).__readyAt as number);
      s.intentReadyMs = t1 - t0;
      await page.waitForTimeout(200);
      s.intentTaskMs = (await taskMs(page)) - beforeIntent;
      s.intentLongestMs = longest(await page.evaluate(() => (window as any).__longtasks as LongTask[]), t0, t1 + 200);
      const before = await taskMs(page);
      const q = await page.evaluate(async () => {
        const t0 = performance.now();
        const a = await (window as any).__kit.ask('How much does a repair cost after the first one?');
        return { t0, t1: performance.now(), refused: a.refused as boolean, text: a.text as string };
      });
      if (q.refused || !q.text) throw new Error(`bench: the demo question was not answered: ${JSON.stringify(q)}`);
      await page.waitForTimeout(200);
      s.askTaskMs = (await taskMs(page)) - before;
      s.askMs = q.t1 - q.t0;
      const all = await page.evaluate(() => (window as any).__longtasks as LongTask[]);
      s.askLongestMs = longest(all, q.t0, q.t1 + 200);
    }
    record(`demo-${variant}`, s);
  } finally {
    await context.close();
  }
}

try {
  for (let round = 0; round < ROUNDS; round++) {
    const demo = ['bare', 'kit', 'eager', 'docsearch'] as const;
    for (let k = 0; k < demo.length; k++) await demoRound(demo[(k + round) % demo.length]!);
    process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
  }
} finally {
  await browser.close();
  await kit.stop();
  rmSync(dir, { recursive: true, force: true });
}

const f = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');
const r2 = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
const bareTask = med('demo-bare', 'taskMs');
const added = (v: string) => median(all(v).map((s) => s.taskMs! - bareTask));
console.log(`Chromium (headless), ${ROUNDS} interleaved rounds, medians; load average ${loadBefore} before, ${load()} after.\n`);
console.log('| demo page | main-thread task time | added to the bare page | longest long task | ready after load start |');
console.log('|---|---|---|---|---|');
console.log(`| bare (no assistant) | ${f(bareTask)} ms | — | ${f(med('demo-bare', 'longestMs'))} ms | — |`);
console.log(`| Kit (demo snippet as pasted: site context, redact 'secrets'; nobody interacts) | ${f(med('demo-kit', 'taskMs'))} ms | **${f(added('demo-kit'))} ms** | ${f(med('demo-kit', 'longestMs'))} ms | — (on intent) |`);
console.log(`| Kit, a host waiting for \`ready\` (the page read at init) | ${f(med('demo-eager', 'taskMs'))} ms | ${f(added('demo-eager'))} ms | ${f(med('demo-eager', 'longestMs'))} ms | ${f(med('demo-eager', 'readyMs'))} ms |`);
console.log(`| @docsearch/js 3.9 | ${f(med('demo-docsearch', 'taskMs'))} ms | **${f(added('demo-docsearch'))} ms** | ${f(med('demo-docsearch', 'longestMs'))} ms | ${f(med('demo-docsearch', 'readyMs'))} ms |`);
console.log(`\nKit ÷ DocSearch, added task time: **${r2(added('demo-kit'), added('demo-docsearch'))}×** (goal ≤ 1.00); a host waiting for \`ready\`: ${r2(added('demo-eager'), added('demo-docsearch'))}×.`);
console.log(`The visitor's intent (pointer on the launcher) to \`ready\`: ${f(med('demo-kit', 'intentReadyMs'))} ms, main-thread task time ${f(med('demo-kit', 'intentTaskMs'))} ms (the page read, the panel loaded), longest long task ${f(med('demo-kit', 'intentLongestMs'))} ms.`);
console.log(`A question (remote engine): ${f(med('demo-kit', 'askMs'))} ms, main-thread task time ${f(med('demo-kit', 'askTaskMs'))} ms, longest long task ${f(med('demo-kit', 'askLongestMs'))} ms (0 = none over 50 ms).\n`);
