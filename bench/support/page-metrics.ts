/**
 * What the browser benchmarks (`npm run bench -- sdk-page`, `npm run bench -- crawl`) read from a page: main-thread task
 * time (CDP `Performance.getMetrics` `TaskDuration`, thread CPU time) and long tasks (the page's own
 * `PerformanceObserver('longtask')`), and how they keep samples per variant and take medians.
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { TSX_EVALUATE_SHIM } from '../../test/support/chromium.js';

/** Init script: every long task of the page in `window.__longtasks`. */
const LONGTASKS = `
  window.__longtasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longtasks.push({ start: e.startTime, duration: e.duration }); })
    .observe({ type: 'longtask', buffered: true });`;

export type Sample = Record<string, number>;
export type LongTask = { start: number; duration: number };

/** Samples per variant, and their medians (NaN when none). */
export function sampleBook(): { record(variant: string, s: Sample): void; all(variant: string): Sample[]; med(variant: string, key: string): number } {
  const samples = new Map<string, Sample[]>();
  return {
    record: (variant, s) => { samples.set(variant, [...(samples.get(variant) ?? []), s]); },
    all: (variant) => samples.get(variant) ?? [],
    med: (variant, key) => median((samples.get(variant) ?? []).map((s) => s[key]!).filter((v) => v !== undefined && Number.isFinite(v))),
  };
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const sessions = new WeakMap<Page, CDPSession>();

/** The CDP session of a page from {@link freshPage}. */
export const cdpOf = (page: Page): CDPSession => sessions.get(page)!;

/** The page's main-thread task time so far, in ms (a page from {@link freshPage}). */
export async function taskMs(page: Page): Promise<number> {
  const { metrics } = await sessions.get(page)!.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? NaN) * 1000;
}

/** A page that records its long tasks and its task time (thread ticks). */
export async function freshPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript(TSX_EVALUATE_SHIM + LONGTASKS);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  sessions.set(page, cdp);
  return page;
}

/** The longest of the long tasks that overlap [from, to] (0 when none). */
export const longest = (tasks: LongTask[], from = 0, to = Infinity): number =>
  Math.max(0, ...tasks.filter((t) => t.start + t.duration > from && t.start < to).map((t) => t.duration));
