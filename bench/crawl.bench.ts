/**
 * The site crawl in the browser (issue 12 goal 7): `Kit.init({ mode: 'remote', context: { sitemap, maxPages,
 * concurrency: 4 } })` to `ready`, against plain `fetch` + `DOMParser` of the same sitemap's pages at the same
 * concurrency in the same page run — 100 pages, and the 25-page default. Headless Chromium, the real server
 * (`server/main.ts`, embedded database) serving the built SDK and a generated 100-page site (~3.3 KB of article text a
 * page, header nav of 24 links, aside, footer) on one origin. Every variant runs in a fresh browser context (cold HTTP
 * cache, empty IndexedDB); rounds interleave the variants (order rotated); medians and ratios are printed, with the
 * load average. Wall time is `Kit.init` (or the reference's first fetch) to `ready` (or its last parse); main-thread
 * task time is CDP `Performance.getMetrics` `TaskDuration` (thread CPU time); long tasks are the page's own
 * `PerformanceObserver('longtask')` entries during the crawl.
 *
 * Run: npm run bench -- crawl   (KIT_BENCH_ROUNDS, default 7; KIT_BENCH_PAGES=100,25 to choose the sizes)
 * Diagnosis: KIT_BENCH_TIMELINE=1 also prints, per Kit variant, a median timeline of the crawl (when each chunk, the
 * config, the sitemap and the first and last page were requested and received, relative to init) from the page's
 * resource timing, and the main thread's busiest functions from a CDP CPU profile of one extra round.
 * KIT_BENCH_CPU=1: the CPU time of every thread of the browser and the server during each crawl, by process kind and
 * thread (bench/support/thread-cpu.ts; the crawl's worker is ended after the snapshot, not at `ready`).
 * KIT_BENCH_TRACE=1: one more round per variant under Chromium's tracing: CPU per thread and JS function, and the
 * pages' requests — latency, mean in flight, how soon a slot is refilled (bench/support/trace-summary.ts).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { ensureSdkBuilt, startKitServer } from '../test/e2e/support/kit-server.js';
import { launchChromium } from '../test/support/chromium.js';
import { cdpOf, freshPage, longest, median, sampleBook, taskMs, type LongTask, type Sample } from './support/page-metrics.js';
import { addProfileTimes, type CpuProfile } from './support/cpu-profile.js';
import { cpuDelta, threadCpu } from './support/thread-cpu.js';
import { mainThreadTimeline, requestStats, summarizeTrace, tracedRequests, TRACE_CATEGORIES, type ThreadSummary } from './support/trace-summary.js';

const ROUNDS = Number(process.env.KIT_BENCH_ROUNDS ?? 7);
const SIZES = (process.env.KIT_BENCH_PAGES ?? '100,25').split(',').map(Number);
const TIMELINE = process.env.KIT_BENCH_TIMELINE === '1';
/** Also the CPU time of every thread of the browser and the server during each crawl (bench/support/thread-cpu.ts). */
const CPU = process.env.KIT_BENCH_CPU === '1';
/** Also one Chromium-traced round per variant: CPU per thread and per function (bench/support/trace-summary.ts). */
const TRACE = process.env.KIT_BENCH_TRACE === '1';
/** Also Kit with no Worker (the page hides the constructor): the crawl's main-thread fallback, in the same rounds. */
const WORKERLESS = process.env.KIT_BENCH_WORKERLESS === '1';
const CONCURRENCY = 4;
const root = resolve(import.meta.dirname, '..');

// ---- the site the benchmark serves: a generated 100-page site under /demo/site/ ----
const dir = mkdtempSync(join(tmpdir(), 'kit-bench-crawl-'));
cpSync(join(root, 'demo'), dir, { recursive: true });
const WORDS = ('trail tent pack quilt stove filter route ridge valley river camp permit season weather layer boot sock pole stake guyline '
  + 'repair warranty shipping return order size fit weight volume fabric seam zipper buckle strap frame hipbelt shoulder torso capacity '
  + 'water snow rain wind sun cold warm night morning summit pass lake forest desert canyon bridge ford map compass battery lamp').split(' ');
/** A deterministic page of the generated site: header nav, an article, an aside, a footer. */
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
const { record, all, med } = sampleBook();

/** Names a resource of the timeline: the SDK chunk, the API route, the sitemap, or a crawled page. */
function resourceKind(url: string): string | null {
  const path = new URL(url).pathname;
  const chunk = /\/sdk\/(?:v[^/]+\/)?(?:chunks\/)?([a-z-]+)[.\w]*\.m?js$/.exec(path);
  if (chunk) return `chunk ${chunk[1]}`;
  if (path.startsWith('/v1/')) return `api ${path.slice(4)}`;
  if (path.endsWith('sitemap.xml')) return 'sitemap';
  if (path.endsWith('robots.txt')) return 'robots.txt';
  return null;
}

const kit = await startKitServer({ KIT_DEMO: 'true', KIT_DEMO_DIR: dir, KIT_LOG_LEVEL: 'error', ...(process.env.KIT_SDK_DIR ? { KIT_SDK_DIR: process.env.KIT_SDK_DIR } : {}) });
if (!process.env.KIT_SDK_DIR) ensureSdkBuilt();
const browser = await launchChromium();
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const loadBefore = load();

type Variant = 'kit' | 'kit-main' | 'ref';
/** A site crawl of `pages` pages (the start page + pages−1 from the sitemap) by Kit or by fetch + DOMParser. */
async function crawlRound(variant: Variant, pages: number, profile: false | 'cpu' | 'trace' = false): Promise<unknown> {
  const context = await browser.newContext();
  try {
    const page = await freshPage(context);
    await page.goto(`${kit.url}/demo/site/start.html`, { waitUntil: 'load' });
    await page.waitForTimeout(300);
    const cdp = cdpOf(page);
    if (profile === 'trace') await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    if (profile === 'cpu') {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const before = await taskMs(page);
    const cpuBefore = CPU ? threadCpu() : null;
    const r = await page.evaluate(async ({ variant, pages, concurrency, keepWorkers, workerTimings }) => {
      const w = window as any;
      performance.clearResourceTimings();
      performance.setResourceTimingBufferSize(1000);
      const t0 = performance.now();
      performance.mark('kit-bench-t0'); // KIT_BENCH_TRACE: the main thread's timeline starts here
      let count = 0;
      if (variant === 'kit-main') (window as any).Worker = undefined;
      // KIT_BENCH_CPU: the crawl's worker is ended after the CPU snapshot, not at `ready` (a thread gone takes its time).
      if ((keepWorkers || workerTimings) && w.Worker) {
        w.__workers = [];
        w.__terminate = w.Worker.prototype.terminate;
        w.Worker.prototype.terminate = function (this: Worker) { w.__workers.push(this); };
      }
      // KIT_BENCH_TIMELINE: the pages the crawl's worker fetches are in the worker's resource timing, not the page's.
      // Each worker starts from a script that answers `{ kitBench: 'resources' }` with its entries (absolute times),
      // then runs the SDK's own script; the crawl ignores the answer (it carries no id).
      if (workerTimings && w.Worker) {
        const Original = w.Worker;
        const wrapped = function (url: string | URL, options?: WorkerOptions) {
          const prelude = `addEventListener('message', (e) => { if (e.data && e.data.kitBench === 'resources') postMessage({ kitBench: performance.getEntriesByType('resource').map((x) => ({ url: x.name, start: x.startTime + performance.timeOrigin, end: x.responseEnd + performance.timeOrigin })) }); });\nimportScripts(${JSON.stringify(String(url))});`;
          const worker = new Original(URL.createObjectURL(new Blob([prelude], { type: 'text/javascript' })), options);
          (w.__created ??= []).push(worker);
          return worker;
        };
        wrapped.prototype = Original.prototype;
        w.Worker = wrapped;
      }
      if (variant !== 'ref') {
        const instance = w.Kit.init({ apiKey: w.__kitKey, endpoint: w.__kitEndpoint, mode: 'remote', context: { sitemap: '/demo/site/sitemap.xml', maxPages: pages, concurrency } });
        // The last crawl progress event: every page read (extracted); what follows is the corpus and the engine.
        instance.on('progress', (p: any) => { if (p.phase === 'crawl' && p.loaded === p.total) w.__crawledAt = performance.now(); });
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
      const t1 = performance.now();
      const resources = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .map((e) => ({ url: e.name, start: e.startTime - t0, end: e.responseEnd - t0 }));
      for (const worker of workerTimings ? (w.__created ?? []) as Worker[] : []) {
        const entries = await new Promise<Array<{ url: string; start: number; end: number }>>((done) => {
          worker.addEventListener('message', (e) => e.data?.kitBench && done(e.data.kitBench));
          worker.postMessage({ kitBench: 'resources' });
          setTimeout(() => done([]), 2_000);
        });
        const origin = performance.timeOrigin + t0;
        for (const e of entries) resources.push({ url: e.url, start: e.start - origin, end: e.end - origin });
      }
      return { t0, t1, count, resources, crawled: w.__crawledAt === undefined ? undefined : w.__crawledAt - t0 };
    }, { variant, pages, concurrency: CONCURRENCY, keepWorkers: CPU, workerTimings: TIMELINE && profile === false });
    const cpu = cpuBefore ? cpuDelta(cpuBefore, threadCpu()) : null;
    if (CPU || TIMELINE) await page.evaluate(() => { for (const wk of (window as any).__workers ?? []) (window as any).__terminate.call(wk); });
    await page.waitForTimeout(200);
    const tasks = await page.evaluate(() => (window as any).__longtasks as LongTask[]);
    if (process.env.KIT_BENCH_DEBUG) for (const t of tasks.filter((x) => x.start + x.duration > r.t0 && x.start < r.t1 + 200)) process.stderr.write(`long task ${variant} ${pages}: at ${(t.start - r.t0).toFixed(0)} ms for ${t.duration.toFixed(0)} ms (ready at ${(r.t1 - r.t0).toFixed(0)})\n`);
    const s: Sample = { wallMs: r.t1 - r.t0, taskMs: (await taskMs(page)) - before, longestMs: longest(tasks, r.t0, r.t1 + 200), pages: r.count };
    // The timeline: first start and last end per kind; pages are the crawled ones (the site's /demo/site/p*.html).
    if (r.crawled !== undefined) s['pages read end'] = r.crawled;
    if (cpu) {
      s['cpu total'] = [...cpu.values()].reduce((a, b) => a + b, 0);
      for (const [k, ms] of cpu) s[`cpu ${k}`] = ms;
    }
    const crawled = r.resources.filter((e) => /\/demo\/site\/p\d+\.html$/.test(e.url));
    if (crawled.length) {
      s['page first start'] = Math.min(...crawled.map((e) => e.start));
      s['page last end'] = Math.max(...crawled.map((e) => e.end));
    }
    for (const e of r.resources) {
      const kind = resourceKind(e.url);
      if (!kind) continue;
      s[`${kind} start`] = Math.min(s[`${kind} start`] ?? Infinity, e.start);
      s[`${kind} end`] = Math.max(s[`${kind} end`] ?? -Infinity, e.end);
    }
    if (profile === 'trace') {
      const json = (await browser.stopTracing()).toString('utf8');
      return { threads: summarizeTrace(json), requests: requestStats(tracedRequests(json, /\/demo\/site\/p\d+\.html$/)), timeline: mainThreadTimeline(json, 'kit-bench-t0') };
    }
    if (profile === 'cpu') {
      const { profile: cpu } = await cdp.send('Profiler.stop');
      return cpu;
    }
    record(`crawl-${pages}-${variant}`, s);
    return null;
  } finally {
    await context.close();
  }
}

/** Self and total (inclusive) time per function (and its script's last path segment) of a CDP CPU profile. */
function selfTimes(cpu: CpuProfile): [string, number, number][] {
  const nameOf = (node: any) => {
    const f = node.callFrame;
    return `${f.functionName || '(anonymous)'} ${f.url ? f.url.split('/').pop() : ''}${f.lineNumber >= 0 ? `:${f.lineNumber + 1}:${f.columnNumber + 1}` : ''}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  addProfileTimes(cpu, nameOf, self, total);
  return [...self.entries()].filter(([n]) => !n.startsWith('(idle)')).map(([n, ms]) => [n, ms, total.get(n) ?? ms] as [string, number, number]).sort((a, b) => b[1] - a[1]);
}

/** The functions with the most total (inclusive) time, roots excluded. */
function totalTimes(cpu: any): [string, number][] {
  const names = selfTimes(cpu);
  return names.map(([n, , t]) => [n, t] as [string, number]).filter(([n]) => !n.startsWith('(root)') && !n.startsWith('(program)')).sort((a, b) => b[1] - a[1]);
}

const KINDS: Variant[] = WORKERLESS ? ['kit', 'kit-main', 'ref'] : ['kit', 'ref'];
const variants: [Variant, number][] = SIZES.flatMap((n) => KINDS.map((v) => [v, n] as [Variant, number]));
const profiles: [number, any][] = [];
type Traced = { threads: ThreadSummary[]; requests: string; timeline: string[] };
const traces: [string, Traced][] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < variants.length; k++) { const [v, n] = variants[(k + round) % variants.length]!; await crawlRound(v, n); }
    process.stderr.write(`round ${round + 1}/${ROUNDS} done (load ${load()})\n`);
  }
  if (TIMELINE) for (const n of SIZES) profiles.push([n, await crawlRound('kit', n, 'cpu')]);
  if (TRACE) for (const n of SIZES) for (const v of KINDS) traces.push([`${n} pages, ${v}`, await crawlRound(v, n, 'trace') as Traced]);
} finally {
  await browser.close();
  await kit.stop();
  rmSync(dir, { recursive: true, force: true });
}

const f = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');
const r2 = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
console.log(`Chromium (headless), ${ROUNDS} interleaved rounds, medians; load average ${loadBefore} before, ${load()} after.\n`);
console.log(`| site crawl, concurrency ${CONCURRENCY} | wall time | main-thread task time | longest long task | pages |`);
console.log('|---|---|---|---|---|');
for (const n of SIZES) {
  for (const v of KINDS) {
    const key = `crawl-${n}-${v}`;
    console.log(`| ${n} pages, ${v === 'kit' ? 'Kit.init → ready' : v === 'kit-main' ? 'Kit, no Worker (main-thread fetches)' : 'fetch + DOMParser'} | ${f(med(key, 'wallMs'))} ms | ${f(med(key, 'taskMs'))} ms | ${f(med(key, 'longestMs'))} ms | ${f(med(key, 'pages'))} |`);
  }
  if (WORKERLESS) console.log(`| ${n} pages, Kit without Worker ÷ reference | ${r2(med(`crawl-${n}-kit-main`, 'wallMs'), med(`crawl-${n}-ref`, 'wallMs'))}× | ${r2(med(`crawl-${n}-kit-main`, 'taskMs'), med(`crawl-${n}-ref`, 'taskMs'))}× | | |`);
  console.log(`| ${n} pages, Kit ÷ reference | **${r2(med(`crawl-${n}-kit`, 'wallMs'), med(`crawl-${n}-ref`, 'wallMs'))}×** (goal ≤ 1.50) | ${r2(med(`crawl-${n}-kit`, 'taskMs'), med(`crawl-${n}-ref`, 'taskMs'))}× | | |`);
}
const worstOf = (key: string) => Math.max(0, ...all(key).map((s) => s.longestMs!));
const worst = SIZES.flatMap((n) => KINDS.map((v) => `${n} pages ${v} ${f(worstOf(`crawl-${n}-${v}`))} ms`));
console.log(`\nLongest long task in any round (0 = none over 50 ms): ${worst.join(', ')}.`);
if (CPU) {
  for (const n of SIZES) {
    console.log(`\nCPU ms during the crawl, ${n} pages, medians per thread group (process kind / thread), Kit vs reference:`);
    const keys = [...new Set(KINDS.flatMap((v) => all(`crawl-${n}-${v}`).flatMap((s) => Object.keys(s))))].filter((k) => k.startsWith('cpu '));
    const rows = keys.map((k) => [k.slice(4), ...KINDS.map((v) => all(`crawl-${n}-${v}`).map((s) => s[k] ?? 0))] as const);
    const meds = rows.map(([k, ...vs]) => [k, ...vs.map((x) => median(x as number[]))] as [string, ...number[]]).sort((a, b) => (b[1] as number) - (a[1] as number));
    console.log(`| thread | ${KINDS.join(' | ')} |\n|---|${KINDS.map(() => '---').join('|')}|`);
    for (const [k, ...ms] of meds) if (Math.max(...ms) >= 1) console.log(`| ${k} | ${ms.map((x) => x.toFixed(1)).join(' | ')} |`);
  }
}
if (TIMELINE) {
  for (const n of SIZES) {
    for (const v of KINDS) {
      const key = `crawl-${n}-${v}`;
      const names = [...new Set(all(key).flatMap((s) => Object.keys(s)))].filter((k) => / (start|end)$/.test(k));
      const rows = names.map((k) => [k, med(key, k)] as const).sort((a, b) => a[1] - b[1]);
      console.log(`\nTimeline, ${n} pages, ${v} (ms after start, medians): ${rows.map(([k, t]) => `${k} ${f(t)}`).join(' · ')} · ready ${f(med(key, 'wallMs'))}`);
    }
  }
  for (const [n, cpu] of profiles) {
    console.log(`\nMain thread, one profiled Kit crawl of ${n} pages, busiest functions (self ms):`);
    for (const [name, ms] of selfTimes(cpu).slice(0, 25)) console.log(`  ${ms.toFixed(1).padStart(7)}  ${name}`);
    console.log(`Same profile, functions by total (inclusive) ms:`);
    for (const [name, ms] of totalTimes(cpu).slice(0, 40)) console.log(`  ${ms.toFixed(1).padStart(7)}  ${name}`);
  }
}
for (const [what, { threads, requests, timeline }] of traces) {
  console.log(`\nTrace of one crawl, ${what}: the pages' requests: ${requests}.\nThreads by time in top-level tasks (ms), their busiest tasks and JS functions (self ms):`);
  for (const t of threads.filter((x) => x.busy >= 2 || x.functions.length > 0).slice(0, 12)) {
    console.log(`  ${t.busy.toFixed(1).padStart(7)}  ${t.thread}: ${t.tasks.slice(0, 4).map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(', ')}`);
    for (const [name, ms] of t.functions.slice(0, 12)) if (ms >= 0.5) console.log(`           ${ms.toFixed(1).padStart(7)}  ${name}`);
  }
  console.log(`The page's main thread from the start (init or the first fetch), 10 ms windows: busy ms, busiest JS functions (self ms):`);
  for (const line of timeline) console.log(`  ${line}`);
}
