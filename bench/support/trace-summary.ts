/**
 * Where a Chromium trace's CPU went, per thread: self time per JS function from the V8 sampling profiler's
 * `ProfileChunk` events (every thread that runs JS: the page's main thread, a dedicated worker) and, for every
 * thread, the time in its top-level tasks by name (`toplevel` category slices, thread time where the trace has it).
 * For the crawl benchmark's `KIT_BENCH_TRACE=1`: `browser.startTracing(page, { categories: TRACE_CATEGORIES })`.
 */

export const TRACE_CATEGORIES = ['toplevel', 'disabled-by-default-v8.cpu_profiler', 'v8', 'devtools.timeline', 'IndexedDB', 'blink.worker', 'blink.user_timing'];

interface TraceEvent { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; id?: string; cat?: string; args?: any }

export interface ThreadSummary {
  readonly thread: string;
  /** Self ms per function ("name file:line"), from the sampling profiler. */
  readonly functions: [string, number][];
  /** ms per top-level task name (thread time when known, else wall). */
  readonly tasks: [string, number][];
  /** Sum of top-level tasks (ms). */
  readonly busy: number;
}

function eventsOf(json: string): TraceEvent[] {
  const parsed = JSON.parse(json) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  return Array.isArray(parsed) ? parsed : parsed.traceEvents ?? [];
}

/** Thread names by `pid:tid`, from the trace's metadata events. */
function threadNames(events: readonly TraceEvent[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  return names;
}

/** One sample of the V8 sampling profiler: its thread, the function's call frame, when (trace µs) and its ms. */
interface ProfileSample { readonly pid: number; readonly tid: number; readonly frame: any; readonly ts: number; readonly ms: number }

/**
 * Every sample of the trace's sampling profiles: a 'Profile' event names the thread and the start; its
 * 'ProfileChunk's (same pid and id) add nodes, samples and the time deltas between them.
 */
function profileSamples(events: readonly TraceEvent[]): ProfileSample[] {
  const profiles = new Map<string, { pid: number; tid: number; start: number; nodes: Map<number, any>; samples: number[]; deltas: number[] }>();
  for (const e of events) {
    if (e.name === 'Profile' && e.id) profiles.set(`${e.pid}:${e.id}`, { pid: e.pid, tid: e.tid, start: Number(e.args?.data?.startTime ?? e.ts), nodes: new Map(), samples: [], deltas: [] });
  }
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || !e.id) continue;
    const p = profiles.get(`${e.pid}:${e.id}`);
    const data = e.args?.data;
    if (!p || !data) continue;
    for (const n of data.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
    p.samples.push(...(data.cpuProfile?.samples ?? []));
    p.deltas.push(...(data.timeDeltas ?? []));
  }
  const out: ProfileSample[] = [];
  for (const p of profiles.values()) {
    let ts = p.start;
    for (let i = 0; i < p.samples.length; i++) {
      ts += p.deltas[i] ?? 0;
      const node = p.nodes.get(p.samples[i]!);
      // The delta before the next sample is this sample's time.
      if (node) out.push({ pid: p.pid, tid: p.tid, frame: node.callFrame ?? {}, ts, ms: (p.deltas[i + 1] ?? 0) / 1000 });
    }
  }
  return out;
}

export function summarizeTrace(json: string): ThreadSummary[] {
  const events = eventsOf(json);
  const names = threadNames(events);
  const threadOf = (e: { pid: number; tid: number }) => `${names.get(`${e.pid}:${e.tid}`) ?? 'thread'} (${e.pid}:${e.tid})`;
  const out = new Map<string, { functions: Map<string, number>; tasks: Map<string, number>; busy: number }>();
  const slot = (thread: string) => {
    let s = out.get(thread);
    if (!s) out.set(thread, (s = { functions: new Map(), tasks: new Map(), busy: 0 }));
    return s;
  };
  for (const sample of profileSamples(events)) {
    const f = sample.frame;
    const name = `${f.functionName || '(anonymous)'} ${f.url ? String(f.url).split('/').pop() : ''}${f.lineNumber >= 0 ? `:${f.lineNumber + 1}:${f.columnNumber + 1}` : ''}`;
    const s = slot(threadOf(sample));
    s.functions.set(name, (s.functions.get(name) ?? 0) + sample.ms);
  }
  for (const e of events) {
    if (e.ph !== 'X' || !e.cat?.split(',').includes('toplevel')) continue;
    const ms = (e.tdur ?? e.dur ?? 0) / 1000;
    const s = slot(threadOf(e));
    s.tasks.set(e.name, (s.tasks.get(e.name) ?? 0) + ms);
    s.busy += ms;
  }
  const top = (m: Map<string, number>) => [...m.entries()].filter(([n]) => !n.startsWith('(idle)')).sort((a, b) => b[1] - a[1]);
  return [...out.entries()].map(([thread, s]) => ({ thread, functions: top(s.functions), tasks: top(s.tasks), busy: s.busy })).sort((a, b) => b.busy - a.busy);
}

/** Requests whose URL matches, from the trace's `ResourceSendRequest` / `ResourceFinish` (ms, from the first send). */
export interface TracedRequest { readonly url: string; readonly thread: string; readonly sent: number; readonly finished: number }

export function tracedRequests(json: string, match: RegExp): TracedRequest[] {
  const events = eventsOf(json);
  const names = threadNames(events);
  const sent = new Map<string, { url: string; thread: string; ts: number }>();
  const done = new Map<string, number>();
  for (const e of events) {
    const d = e.args?.data;
    if (!d?.requestId) continue;
    if (e.name === 'ResourceSendRequest' && match.test(d.url ?? '')) sent.set(d.requestId, { url: d.url, thread: names.get(`${e.pid}:${e.tid}`) ?? '?', ts: e.ts });
    if (e.name === 'ResourceFinish') done.set(d.requestId, e.ts);
  }
  const rows = [...sent.entries()].filter(([id]) => done.has(id)).map(([id, s]) => ({ url: s.url, thread: s.thread, sent: s.ts, finished: done.get(id)! }));
  const t0 = Math.min(...rows.map((r) => r.sent));
  return rows.map((r) => ({ ...r, sent: (r.sent - t0) / 1000, finished: (r.finished - t0) / 1000 })).sort((a, b) => a.sent - b.sent);
}

/** Latency and achieved concurrency of traced requests. */
export function requestStats(rows: TracedRequest[]): string {
  if (rows.length === 0) return 'no requests traced';
  const lat = rows.map((r) => r.finished - r.sent).sort((a, b) => a - b);
  const span = Math.max(...rows.map((r) => r.finished)) - rows[0]!.sent;
  const busy = lat.reduce((a, b) => a + b, 0);
  // Time from a request's finish to the next request's send (how soon a slot is refilled).
  const finishes = rows.map((r) => r.finished).sort((a, b) => a - b);
  const sends = rows.map((r) => r.sent);
  const refill = sends.slice(4).map((s) => { const f = finishes.filter((x) => x <= s); return f.length ? s - f[f.length - 1]! : 0; }).sort((a, b) => a - b);
  const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
  const threads = [...new Set(rows.map((r) => r.thread))].map((t) => `${t}: ${rows.filter((r) => r.thread === t).length} from ${Math.min(...rows.filter((r) => r.thread === t).map((r) => r.sent)).toFixed(0)} ms`);
  return `${rows.length} requests (${threads.join(', ')}) over ${span.toFixed(0)} ms: latency p50 ${q(lat, 0.5).toFixed(1)} / p90 ${q(lat, 0.9).toFixed(1)} ms; mean in flight ${(busy / span).toFixed(2)}; a send after the last finish before it p50 ${refill.length ? q(refill, 0.5).toFixed(1) : 'n/a'} / p90 ${refill.length ? q(refill, 0.9).toFixed(1) : 'n/a'} ms`;
}

/**
 * The page's main thread over time, from the `performance.mark(mark)` the page made at its start (the thread that
 * made it): per window of `windowMs`, its busy ms in top-level tasks and the JS functions with the most self time
 * there (sampling profiler). Where the critical path waits for the main thread and where it is idle (KIT_BENCH_TRACE).
 */
export function mainThreadTimeline(json: string, mark: string, windowMs = 10, untilMs = 600): string[] {
  const events = eventsOf(json);
  const m = events.find((e) => e.name === mark && e.cat?.includes('blink.user_timing'));
  if (!m) return [`(no mark ${mark} in the trace)`];
  const on = (e: { pid: number; tid: number }) => e.pid === m.pid && e.tid === m.tid;
  const n = Math.ceil(untilMs / windowMs);
  const busy = new Array<number>(n).fill(0);
  const fns = Array.from({ length: n }, () => new Map<string, number>());
  // Busy: wall time of top-level tasks split across the windows they span.
  for (const e of events) {
    if (e.ph !== 'X' || !on(e) || !e.cat?.split(',').includes('toplevel') || !e.dur) continue;
    const a = (e.ts - m.ts) / 1000;
    const b = a + e.dur / 1000;
    for (let w = Math.max(0, Math.floor(a / windowMs)); w < n && w * windowMs < b; w++) busy[w]! += Math.min(b, (w + 1) * windowMs) - Math.max(a, w * windowMs);
  }
  // The thread's profile samples in each window.
  for (const sample of profileSamples(events)) {
    if (!on(sample)) continue;
    const f = sample.frame;
    const name = `${f.functionName || '(anonymous)'}${f.url ? ` ${String(f.url).split('/').pop()}:${f.lineNumber + 1}` : ''}`;
    if (name.startsWith('(idle)') || name.startsWith('(program)')) continue;
    const w = Math.floor((sample.ts - m.ts) / 1000 / windowMs);
    if (w >= 0 && w < n) fns[w]!.set(name, (fns[w]!.get(name) ?? 0) + sample.ms);
  }
  const last = busy.reduce((acc, b, i) => (b > 0.05 ? i : acc), 0);
  return busy.slice(0, last + 1).map((b, w) => `${String(w * windowMs).padStart(4)}–${String((w + 1) * windowMs).padEnd(4)} busy ${b.toFixed(1).padStart(4)} ms  ${[...fns[w]!.entries()].sort((x, y) => y[1] - x[1]).slice(0, 4).map(([f, ms]) => `${f} ${ms.toFixed(1)}`).join(', ')}`);
}
