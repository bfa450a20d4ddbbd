/**
 * Diagnosis for `npm run bench -- sdk-page`: a Chromium trace of the demo page with Kit read at init (`eager`: a host
 * waiting for `ready`), Kit as pasted (`kit`: nothing read until intent), DocSearch or bare, main thread only, from
 * navigation to `ready` (or network idle) + 1 s: every top-level task's thread time, grouped by what it ran (script
 * evaluation/compile by URL, function calls by URL, timers, parsing HTML, style/layout/paint, GC).
 * Run: npx tsx bench/sdk-page-trace.ts [eager|kit|docsearch|bare] (KIT_TRACE_ROUNDS=3)
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureSdkBuilt, startKitServer } from '../test/e2e/support/kit-server.js';
import { launchChromium, TSX_EVALUATE_SHIM } from '../test/support/chromium.js';
import { SourceMapConsumer } from 'source-map-js';
import { signalsReady, writeDemoVariants, type DemoVariant } from './support/demo-page.js';
import { addProfileTimes } from './support/cpu-profile.js';

const variant = (process.argv[2] ?? 'eager') as DemoVariant;
if (!['bare', 'kit', 'eager', 'docsearch'].includes(variant)) throw new Error(`usage: npx tsx bench/sdk-page-trace.ts [eager|kit|docsearch|bare]`);
const ROUNDS = Number(process.env.KIT_TRACE_ROUNDS ?? 3);
const root = resolve(import.meta.dirname, '..');
const dir = writeDemoVariants(root);

interface Ev { name: string; ph: string; ts: number; dur?: number; tdur?: number; tts?: number; pid: number; tid: number; args?: any; cat: string }
const kit = await startKitServer({ KIT_DEMO: 'true', KIT_DEMO_DIR: dir, KIT_LOG_LEVEL: 'error', ...(process.env.KIT_SDK_DIR ? { KIT_SDK_DIR: process.env.KIT_SDK_DIR } : {}) });
if (!process.env.KIT_SDK_DIR) ensureSdkBuilt();
const browser = await launchChromium();
const totals = new Map<string, number[]>();
const cpuProfiles: any[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(TSX_EVALUATE_SHIM);
    const cdp = await context.newCDPSession(page);
    const events: Ev[] = [];
    cdp.on('Tracing.dataCollected', (d: any) => { events.push(...d.value); });
    const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink', 'loading', 'toplevel', 'disabled-by-default-v8.compile'] }, transferMode: 'ReportEvents' } as any);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    await page.goto(`${kit.url}/demo/bench-${variant}.html`, { waitUntil: 'load' });
    if (signalsReady(variant)) await page.waitForFunction(() => (window as any).__readyAt !== undefined || (window as any).__kitError !== undefined, null, { timeout: 60_000 });
    else await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1000);
    const { profile } = await cdp.send('Profiler.stop');
    cpuProfiles.push(profile);
    await cdp.send('Tracing.end');
    await done;
    await context.close();
    // The renderer's main thread: the thread named CrRendererMain in the process that ran the page's scripts.
    const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
    const withScripts = mains.find((m) => events.some((e) => e.pid === m.pid && e.tid === m.tid && e.name === 'EvaluateScript')) ?? mains[0]!;
    const main = events.filter((e) => e.pid === withScripts.pid && e.tid === withScripts.tid && e.ph === 'X').sort((a, b) => a.ts - b.ts);
    const tasks = main.filter((e) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask');
    const round_ = new Map<string, number>();
    const add = (k: string, v: number) => round_.set(k, (round_.get(k) ?? 0) + v);
    let total = 0;
    const INTERESTING = /^(EvaluateScript|v8\.compile|v8\.compileModule|v8\.produceCache|v8\.run|FunctionCall|TimerFire|FireIdleCallback|EventDispatch|ParseHTML|ParseAuthorStyleSheet|UpdateLayoutTree|Layout|Paint|PrePaint|Layerize|HitTest|MajorGC|MinorGC|V8\.GC\w*|XHRReadyStateChange|ResourceReceivedData|ResourceFinish|ScheduleStyleRecalculation|RunMicrotasks|v8\.callFunction|v8\.parseOnBackground|V8\.CompileCode|V8\.CompileLazy\w*|v8\.deserializeOnBackground|FireAnimationFrame|HandlePostMessage|CpuProfiler::StartProfiling)$/;
    for (const t of tasks) {
      const end = t.ts + (t.dur ?? 0);
      const tms = (t.tdur ?? t.dur ?? 0) / 1000;
      total += tms;
      const kids = main.filter((e) => e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= end && e.name !== 'ThreadControllerImpl::RunTask').sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
      // Self wall time of each event, attributed to its nearest interesting ancestor (with the nearest URL).
      type Node = { e: Ev; end: number; label: string; url: string; childDur: number };
      const stack: Node[] = [];
      const selfOf = (n: Node) => Math.max(0, (n.e.dur ?? 0) - n.childDur) / 1000;
      let accounted = 0;
      const pop = () => { const n = stack.pop()!; const v = selfOf(n); accounted += v; add(n.label, v); };
      for (const k of kids) {
        while (stack.length && stack[stack.length - 1]!.end <= k.ts) pop();
        const parent = stack[stack.length - 1];
        if (parent) parent.childDur += k.dur ?? 0;
        const d = k.args?.data ?? k.args?.beginData ?? {};
        const rawUrl = d.url ?? d.fileName ?? d.stackTrace?.[0]?.url ?? d.frames?.[0]?.url ?? k.args?.fileName ?? '';
        const url = rawUrl ? String(rawUrl).replace(/^https?:\/\/[^/]+/, '').replace(/\.[0-9a-f]{8,}\./, '.') : parent?.url ?? '';
        const interesting = INTERESTING.test(k.name);
        const fn = k.name === 'FunctionCall' && d.functionName ? ` ${d.functionName}` : '';
        const label = interesting ? `${k.name}${fn} ${url}`.trim() : parent?.label ?? `(${k.name})`;
        stack.push({ e: k, end: k.ts + (k.dur ?? 0), label, url, childDur: 0 });
      }
      while (stack.length) pop();
      const wall = (t.dur ?? 0) / 1000;
      add('(task, outside any event)', Math.max(0, wall - accounted));
    }
    add('TOTAL (all tasks, thread time)', total);
    const longest = Math.max(...tasks.map((t) => (t.dur ?? 0) / 1000));
    add('longest task (wall)', longest);
    for (const [k, v] of round_) totals.set(k, [...(totals.get(k) ?? []), v]);
    process.stderr.write(`round ${round + 1}: total ${total.toFixed(1)} ms\n`);
  }
} finally {
  await browser.close();
  await kit.stop();
  rmSync(dir, { recursive: true, force: true });
}
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2; };
const rows = [...totals].map(([k, v]) => [k, median([...v, ...Array(ROUNDS - v.length).fill(0)])] as const).sort((a, b) => b[1] - a[1]);
for (const [k, v] of rows) if (v >= 0.3) console.log(`${v.toFixed(1).padStart(7)} ms  ${k}`);

const sdkDir = process.env.KIT_SDK_DIR ?? join(root, 'dist/sdk');
const maps = new Map<string, SourceMapConsumer | null>();
function original(cf: { url: string; lineNumber: number; columnNumber: number; functionName: string }): string | null {
  const m = /\/sdk\/(?:v[^/]+\/)?(.*\.js)$/.exec(cf.url);
  if (!m) return null;
  if (!maps.has(m[1]!)) {
    const f = join(sdkDir, `${m[1]}.map`);
    maps.set(m[1]!, existsSync(f) ? new SourceMapConsumer(JSON.parse(readFileSync(f, 'utf8'))) : null);
  }
  const c = maps.get(m[1]!);
  if (!c) return null;
  const pos = c.originalPositionFor({ line: cf.lineNumber + 1, column: cf.columnNumber });
  return `${pos.name ?? cf.functionName ?? '(anon)'} ${String(pos.source).replace(/^webpack:\/\/[^/]*\//, '')}:${pos.line} [${m[1]!.replace(/\.[0-9a-f]{8,}\./, '.')}]`;
}
// CPU profile: self time by function (url:line), and total ("inclusive") time by the outermost Kit frame.
const self = new Map<string, number>();
const incl = new Map<string, number>();
const label = (n: any) => original(n.callFrame) ?? `${n.callFrame.functionName || '(anon)'} ${String(n.callFrame.url).replace(/^https?:\/\/[^/]+/, '').replace(/\.[0-9a-f]{8,}\./, '.')}:${n.callFrame.lineNumber + 1}:${n.callFrame.columnNumber + 1}`;
for (const p of cpuProfiles) addProfileTimes(p, label, self, incl, { scale: 1 / cpuProfiles.length, skip: (n) => n.callFrame.functionName === '(idle)' });
console.log('\nCPU profile, self time (mean per round):');
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${v.toFixed(1).padStart(7)} ms  ${k}`);
console.log('\nCPU profile, inclusive time (mean per round):');
for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 70)) console.log(`${v.toFixed(1).padStart(7)} ms  ${k}`);
