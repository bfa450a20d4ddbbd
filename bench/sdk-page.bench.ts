/**
 * The SDK on the page (issue 12 goals 6 and 7), in headless Chromium against references in the same run:
 *  1. the demo page (its own snippet: sitemap site context, redact 'secrets') with Kit, with `@docsearch/js` 3.x
 *     (served locally from node_modules, its button rendered), and with neither; main-thread task time added to the
 *     page (CDP Performance.getMetrics TaskDuration, minus the bare page's), long tasks (PerformanceObserver
 *     'longtask') during Kit's init, and during a question (`instance.ask`, remote engine);
 *  2. a 100-page (and the 25-page default) site crawl: `Kit.init({ context: { sitemap, maxPages } })` to `ready`
 *     beside plain `fetch` + `DOMParser` of the same pages at the same concurrency, wall time, main-thread task time
 *     and long tasks.
 * Rounds interleave the variants (order rotated); each variant runs in a fresh browser context (cold HTTP cache, empty
 * IndexedDB). Medians are printed, with ratios. The machine is shared: the load average is printed with the figures.
 * Run: npm run bench -- sdk-page   (KIT_BENCH_ROUNDS=5 by default)
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { ensureSdkBuilt, startKitServer } from '../test/e2e/support/kit-server.js';
import { launchChromium, TSX_EVALUATE_SHIM } from '../test/support/chromium.js';

const ROUNDS = Number(process.env.KIT_BENCH_ROUNDS ?? 5);
const SETTLE_MS = 1_000;
const root = resolve(import.meta.dirname, '..');

// ---- the site the benchmark serves (a copy of demo/ plus its variants and a generated 100-page site) ----
const dir = mkdtempSync(join(tmpdir(), 'kit-bench-page-'));
cpSync(join(root, 'demo'), dir, { recursive: true });
const demoHtml = readFileSync(join(root, 'demo/index.html'), 'utf8');
const snippet = /<!-- Kit:[^]*?<\/script>\n/.exec(demoHtml);
if (!snippet) throw new Error('bench: the demo page has no Kit snippet');
const bare = demoHtml.replace(snippet[0], '');
// The demo's own snippet, with the instance kept and its ready time noted.
const kitSnippet = snippet[0].replace(/onload="Kit\.init\((.*)\)"/, (_m, args: string) =>
  `onload="window.__kit = Kit.init(${args}); window.__kit.on('ready', () => { window.__readyAt = performance.now(); }); window.__kit.on('error', (e) => { window.__kitError = e; });"`);
if (kitSnippet === snippet[0]) throw new Error('bench: could not rewrite the demo snippet');
writeFileSync(join(dir, 'bench-bare.html'), bare);
writeFileSync(join(dir, 'bench-kit.html'), demoHtml.replace(snippet[0], kitSnippet));
mkdirSync(join(dir, 'docsearch'));
cpSync(join(root, 'node_modules/@docsearch/js/dist/umd/index.js'), join(dir, 'docsearch/docsearch.js'));
cpSync(join(root, 'node_modules/@docsearch/css/dist/style.css'), join(dir, 'docsearch/style.css'));
writeFileSync(join(dir, 'bench-docsearch.html'), bare.replace('</body>', `<div id="docsearch"></div>
<link rel="stylesheet" href="/demo/docsearch/style.css">
<script src="/demo/docsearch/docsearch.js" async onload="docsearch({ container: '#docsearch', appId: 'BH4D9OD16A', indexName: 'kit-demo', apiKey: '00000000000000000000000000000000' }); window.__readyAt = performance.now();"></script>
</body>`));

const WORDS = ('trail tent pack quilt stove filter route ridge valley river camp permit season weather layer boot sock pole stake guyline '
  + 'repair warranty shipping return order size fit weight volume fabric seam zipper buckle strap frame hipbelt shoulder torso capacity '
  + 'water snow rain wind sun cold warm night morning summit pass lake forest desert canyon bridge ford map compass battery lamp').split(' ');
/** A deterministic page of the generated site: header nav, an article of ~9 KB of text, an aside, a footer. */
function sitePage(i: number, n: number): string {
  let seed = i * 7919 + 17;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const sentence = () => {
    const words = Array.from({ length: 8 + Math.floor(rnd() * 14) }, () => WORDS[Math.floor(rnd() * WORDS.length)]!);
    return `${words[0]![0]!.toUpperCase()}${words.join(' ').slice(1)}.`;
  };
  const para = () => `<p>${Array.from({ length: 3 + Math.floor(rnd() * 4) }, sentence).join(' ')}</p>`;
  const nav = Array.from({ length: 24 }, (_, k) => `<li><a href="/demo/site/p${String(((i + k) % n) + 1).padStart(3, '0')}.html">Page ${((i + k) % n) + 1}</a></li>`).join('');
  const sections = Array.from({ length: 4 }, (_, s) => `<h2>Section ${s + 1} of guide ${i}</h2>${Array.from({ length: 2 }, para).join('\n')}`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Guide ${i}: ${WORDS[i % WORDS.length]}</title>
<link rel="stylesheet" href="/demo/style.css"><meta name="viewport" content="width=device-width"></head><body>
<header class="site"><a class="brand" href="/demo/">Fernwood</a><nav><ul>${nav}</ul></nav></header>
<div class="layout"><main><article><h1>Guide ${i}</h1>${sections}</article></main>
<aside><h3>Related</h3><ul>${nav.slice(0, 400)}</ul></aside></div>
<footer class="site"><p>© 2026 Fernwood Trail Co.</p><form><input name="q"><button>Search</button></form></footer>
</body></html>`;
}
const SITE_PAGES = 100;
mkdirSync(join(dir, 'site'));
for (let i = 1; i <= SITE_PAGES; i++) writeFileSync(join(dir, 'site', `p${String(i).padStart(3, '0')}.html`), sitePage(i, SITE_PAGES));
writeFileSync(join(dir, 'site/sitemap.xml'), `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${
  Array.from({ length: SITE_PAGES }, (_, i) => `  <url><loc>{{KIT_DEMO_ORIGIN}}/demo/site/p${String(i + 1).padStart(3, '0')}.html</loc></url>`).join('\n')}\n</urlset>\n`);
// The page a crawl starts from: not in the sitemap; Kit loaded, not started.
writeFileSync(join(dir, 'site/start.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Start</title></head><body>
<main><article><h1>Fernwood guides</h1><p>${'Every guide of the Fernwood Trail Co. site, from tents to trail food. '.repeat(6)}</p></article></main>
<script src="{{KIT_SDK_URL}}"></script>
<script>window.__kitKey = '{{KIT_DEMO_KEY}}'; window.__kitEndpoint = '{{KIT_ENDPOINT}}';</script>
</body></html>`);

// ---- measurement helpers ----
const LONGTASKS = `
  window.__longtasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longtasks.push({ start: e.startTime, duration: e.duration }); })
    .observe({ type: 'longtask', buffered: true });`;

interface Sample { [k: string]: number }
const samples = new Map<string, Sample[]>();
const record = (variant: string, s: Sample) => { samples.set(variant, [...(samples.get(variant) ?? []), s]); };
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2; };
const med = (variant: string, key: string) => median((samples.get(variant) ?? []).map((s) => s[key]!).filter((v) => v !== undefined && Number.isFinite(v)));

const sessions = new WeakMap<Page, CDPSession>();
async function taskMs(page: Page): Promise<number> {
  const { metrics } = await sessions.get(page)!.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? NaN) * 1000;
}
async function freshPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript(TSX_EVALUATE_SHIM + LONGTASKS);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  sessions.set(page, cdp);
  return page;
}
type LongTask = { start: number; duration: number };
const longest = (tasks: LongTask[], from = 0, to = Infinity) => Math.max(0, ...tasks.filter((t) => t.start + t.duration > from && t.start < to).map((t) => t.duration));

const kit = await startKitServer({ KIT_DEMO: 'true', KIT_DEMO_DIR: dir, KIT_LOG_LEVEL: 'error', ...(process.env.KIT_SDK_DIR ? { KIT_SDK_DIR: process.env.KIT_SDK_DIR } : {}) });
if (!process.env.KIT_SDK_DIR) ensureSdkBuilt();
const browser = await launchChromium();
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const loadBefore = load();

/** The demo page with Kit, with DocSearch, or bare: added task time, long tasks, and (Kit) a question. */
async function demoRound(variant: 'bare' | 'kit' | 'docsearch'): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await freshPage(context);
    await page.goto(`${kit.url}/demo/bench-${variant}.html`, { waitUntil: 'load' });
    if (variant !== 'bare') {
      await page.waitForFunction(() => (window as any).__readyAt !== undefined || (window as any).__kitError !== undefined, null, { timeout: 60_000 });
      const err = await page.evaluate(() => (window as any).__kitError);
      if (err) throw new Error(`bench: Kit failed on the demo page: ${JSON.stringify(err)}`);
    }
    await page.waitForTimeout(SETTLE_MS);
    const s: Sample = { taskMs: await taskMs(page) };
    const tasks = await page.evaluate(() => (window as any).__longtasks as LongTask[]);
    s.longestMs = longest(tasks);
    if (variant !== 'bare') s.readyMs = await page.evaluate(() => (window as any).__readyAt as number);
    if (variant === 'kit') {
      s.readyMs = await page.evaluate(() => (window as any).__readyAt as number);
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

/** A site crawl of `pages` pages (the start page + pages−1 from the sitemap) by Kit or by fetch + DOMParser. */
async function crawlRound(variant: 'kit' | 'ref', pages: number, concurrency: number): Promise<void> {
  const context = await browser.newContext();
  try {
    const page = await freshPage(context);
    await page.goto(`${kit.url}/demo/site/start.html`, { waitUntil: 'load' });
    await page.waitForTimeout(300);
    const before = await taskMs(page);
    const r = await page.evaluate(async ({ variant, pages, concurrency }) => {
      const w = window as any;
      const t0 = performance.now();
      let count = 0;
      if (variant === 'kit') {
        const instance = w.Kit.init({ apiKey: w.__kitKey, endpoint: w.__kitEndpoint, mode: 'remote', context: { sitemap: '/demo/site/sitemap.xml', maxPages: pages, concurrency } });
        const stats = await new Promise<any>((res, rej) => { instance.on('ready', (e: any) => res(e.context)); instance.on('error', (e: any) => { if (e.code !== 'network_error') rej(new Error(JSON.stringify(e))); }); });
        count = stats.pages;
      } else {
        const xml = await (await fetch('/demo/site/sitemap.xml')).text();
        const urls = [...new DOMParser().parseFromString(xml, 'application/xml').getElementsByTagName('loc')].map((l) => l.textContent!.trim()).slice(0, pages - 1);
        let next = 0;
        const worker = async () => {
          while (next < urls.length) {
            const url = urls[next++]!;
            const html = await (await fetch(url)).text();
            const doc = new DOMParser().parseFromString(html, 'text/html');
            if (doc.body.textContent!.length > 0) count++;
          }
        };
        await Promise.all(Array.from({ length: concurrency }, worker));
        count++; // the start page, as Kit counts it
      }
      return { t0, t1: performance.now(), count };
    }, { variant, pages, concurrency });
    await page.waitForTimeout(200);
    const tasks = await page.evaluate(() => (window as any).__longtasks as LongTask[]);
    record(`crawl-${pages}-${variant}`, { wallMs: r.t1 - r.t0, taskMs: (await taskMs(page)) - before, longestMs: longest(tasks, r.t0, r.t1 + 200), pages: r.count });
  } finally {
    await context.close();
  }
}

try {
  for (let round = 0; round < ROUNDS; round++) {
    const demo = ['bare', 'kit', 'docsearch'] as const;
    for (let k = 0; k < demo.length; k++) await demoRound(demo[(k + round) % demo.length]!);
    const crawls: [('kit' | 'ref'), number][] = [['kit', 100], ['ref', 100], ['kit', 25], ['ref', 25]];
    for (let k = 0; k < crawls.length; k++) { const [v, n] = crawls[(k + round) % crawls.length]!; await crawlRound(v, n, 4); }
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
const added = (v: string) => median((samples.get(v) ?? []).map((s) => s.taskMs! - bareTask));
console.log(`Chromium (headless), ${ROUNDS} interleaved rounds, medians; load average ${loadBefore} before, ${load()} after.\n`);
console.log('| demo page | main-thread task time | added to the bare page | longest long task | ready after load start |');
console.log('|---|---|---|---|---|');
console.log(`| bare (no assistant) | ${f(bareTask)} ms | — | ${f(med('demo-bare', 'longestMs'))} ms | — |`);
console.log(`| Kit (demo snippet: site context, redact 'secrets') | ${f(med('demo-kit', 'taskMs'))} ms | **${f(added('demo-kit'))} ms** | ${f(med('demo-kit', 'longestMs'))} ms | ${f(med('demo-kit', 'readyMs'))} ms |`);
console.log(`| @docsearch/js 3.9 | ${f(med('demo-docsearch', 'taskMs'))} ms | **${f(added('demo-docsearch'))} ms** | ${f(med('demo-docsearch', 'longestMs'))} ms | ${f(med('demo-docsearch', 'readyMs'))} ms |`);
console.log(`\nKit ÷ DocSearch, added task time: **${r2(added('demo-kit'), added('demo-docsearch'))}×** (goal ≤ 1.00).`);
console.log(`A question (remote engine): ${f(med('demo-kit', 'askMs'))} ms, main-thread task time ${f(med('demo-kit', 'askTaskMs'))} ms, longest long task ${f(med('demo-kit', 'askLongestMs'))} ms (0 = none over 50 ms).\n`);
console.log('| site crawl, concurrency 4 | wall time | main-thread task time | longest long task | pages |');
console.log('|---|---|---|---|---|');
for (const n of [100, 25]) {
  for (const v of ['kit', 'ref']) {
    const key = `crawl-${n}-${v}`;
    console.log(`| ${n} pages, ${v === 'kit' ? 'Kit.init → ready' : 'fetch + DOMParser'} | ${f(med(key, 'wallMs'))} ms | ${f(med(key, 'taskMs'))} ms | ${f(med(key, 'longestMs'))} ms | ${f(med(key, 'pages'))} |`);
  }
  console.log(`| ${n} pages, Kit ÷ reference | **${r2(med(`crawl-${n}-kit`, 'wallMs'), med(`crawl-${n}-ref`, 'wallMs'))}×** (goal ≤ 1.50) | ${r2(med(`crawl-${n}-kit`, 'taskMs'), med(`crawl-${n}-ref`, 'taskMs'))}× | | |`);
}
