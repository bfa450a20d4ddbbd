import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import type * as WidgetModule from '../../../sdk/widget/index.js';
import type * as MarkdownModule from '../../../sdk/widget/markdown.js';
import type { AnswerView, Widget } from '../../../sdk/widget/index.js';

declare global {
  interface Window {
    KitWidget: typeof WidgetModule;
    KitMarkdown: typeof MarkdownModule;
    kitTest: { widget: Widget; calls: unknown[][]; answer: AnswerView; pwned?: unknown };
  }
}

const bundles = new Map<string, Promise<string>>();

/** `sdk/widget/<file>` bundled as an IIFE assigning its exports to `window[globalName]` (built once per process). */
export function pageBundle(file: string, globalName: string): Promise<string> {
  const entry = fileURLToPath(new URL(`../../../sdk/widget/${file}`, import.meta.url));
  let out = bundles.get(entry + globalName);
  if (!out) {
    out = build({ entryPoints: [entry], bundle: true, format: 'iife', globalName, target: 'es2022', write: false })
      .then((r) => r.outputFiles[0].text);
    bundles.set(entry + globalName, out);
  }
  return out;
}

export const DEFAULT_BODY =
  '<h1>Pricing</h1><p>The Pro plan costs 20 euros a month.</p><button id="outside" type="button">Outside</button>';

/** Origin the host page is served from (answered by page.route; nothing leaves the browser). */
export const HOST_ORIGIN = 'http://kit-host.test';

/** A small host page with the widget bundle loaded as `window.KitWidget` and an empty `window.kitTest`. */
export async function loadWidgetPage(page: Page, opts: { head?: string; body?: string } = {}): Promise<void> {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Host page</title>${opts.head ?? ''}</head>
<body>${opts.body ?? DEFAULT_BODY}</body></html>`;
  await page.unroute(`${HOST_ORIGIN}/`);
  await page.route(`${HOST_ORIGIN}/`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
  await page.goto(`${HOST_ORIGIN}/`);
  await page.addScriptTag({ content: await pageBundle('index.ts', 'KitWidget') });
  await page.evaluate(() => {
    window.kitTest = { calls: [] } as unknown as Window['kitTest'];
  });
}

/** Creates the widget in the page; callbacks record into `window.kitTest.calls` as [name, arg?]. */
export async function createInPage(page: Page, opts: { strings?: Record<string, string>; autoOpen?: boolean } = {}) {
  await page.evaluate((o) => {
    const k = window.kitTest;
    k.widget = window.KitWidget.createWidget({
      ...o,
      onAsk: (q) => k.calls.push(['ask', q]),
      onStop: () => k.calls.push(['stop']),
      onOpenChange: (open) => k.calls.push(['open', open]),
    });
  }, opts);
}

export const calls = (page: Page): Promise<unknown[][]> => page.evaluate(() => window.kitTest.calls);

/** Resolves after the next animation frame, i.e. after any streamed text the widget scheduled has rendered. */
export const nextFrame = (page: Page): Promise<void> =>
  page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));

/** Class name (or tag) of the element focused inside the widget's shadow root, or the page's focused element id. */
export const focused = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const inner = document.querySelector('kit-widget')?.shadowRoot?.activeElement;
    if (inner) return 'widget:' + (inner.className || inner.localName);
    return 'page:' + (document.activeElement?.id || document.activeElement?.localName || '');
  });
