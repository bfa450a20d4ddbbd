/**
 * Shared set-up of the extension's Chromium tests: one build of the extension per test process (into a temporary
 * directory, from the sources, exactly as `npm run build` makes it) and a persistent Chromium profile with it loaded
 * unpacked — extensions need a persistent context and the new headless mode.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import webpack from 'webpack';
import extensionConfig from '../../extension/webpack.extension.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, TSX_EVALUATE_SHIM } from '../support/chromium.js';

const root = resolve(import.meta.dirname, '../..');
let built: Promise<string> | null = null;

/**
 * Builds the extension once per process (development mode: no minification, same bundles) and returns its directory.
 * With `KIT_EXTENSION_DIR` set (CI: `dist/extension` after `npm run build`) the tests load that production build instead.
 */
export function buildExtension(): Promise<string> {
  const prebuilt = process.env.KIT_EXTENSION_DIR;
  if (prebuilt) {
    const dir = resolve(root, prebuilt);
    if (!existsSync(join(dir, 'manifest.json'))) return Promise.reject(new Error(`KIT_EXTENSION_DIR=${prebuilt}: no manifest.json there; run npm run build`));
    return Promise.resolve(dir);
  }
  built ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-extension-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const configs = extensionConfig({
      mode: 'development',
      root,
      typescript: { test: /\.ts$/, exclude: /node_modules/, loader: 'esbuild-loader', options: { loader: 'ts', target: 'es2022', tsconfig: resolve(root, 'tsconfig.json') } },
      resolveTs: { extensions: ['.ts', '.js', '.mjs'], extensionAlias: { '.js': ['.ts', '.js'], '.mjs': ['.mts', '.mjs'] } },
      outDir: join(dir, 'extension'),
      zipPath: join(dir, 'kit-extension.zip'),
    });
    await new Promise<void>((done, fail) => {
      webpack(configs.map((c) => ({ ...c, devtool: false as const })), (err?: Error | null, stats?: webpack.MultiStats) => {
        if (err) return fail(err);
        if (stats?.hasErrors()) return fail(new Error(stats.toString({ all: false, errors: true })));
        done();
      });
    });
    return join(dir, 'extension');
  })();
  return built;
}

export interface LoadedExtension {
  readonly context: BrowserContext;
  readonly id: string;
  /** The background service worker (evaluate() runs there, with `chrome.*`). */
  readonly background: Worker;
  close(): Promise<void>;
}

/** Launches Chromium with the unpacked extension; close it in the suite's `after`. */
export async function launchWithExtension(dir: string, extraArgs: readonly string[] = []): Promise<LoadedExtension> {
  const profile = mkdtempSync(join(tmpdir(), 'kit-extension-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: false, // the flags below choose the new headless mode, which runs extensions
    args: [...CHROMIUM_ARGS, `--disable-extensions-except=${dir}`, `--load-extension=${dir}`, ...extraArgs],
  });
  await context.addInitScript(TSX_EVALUATE_SHIM);
  const background = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 20_000 }));
  const id = new URL(background.url()).host;
  return {
    context,
    id,
    background,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The tab id Chromium gave the page at `url` (asked from the background). */
export async function tabIdOf(ext: LoadedExtension, url: string): Promise<number> {
  const id = await ext.background.evaluate(async (u) => {
    const tabs = (globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> } } }).chrome.tabs;
    return (await tabs.query({})).find((t) => t.url === u)?.id;
  }, url);
  if (typeof id !== 'number') throw new Error(`no tab shows ${url}`);
  return id;
}

/** Opens the popup as a page driving `tabId`, the way the toolbar button's popup drives the active tab. */
export async function openPopup(ext: LoadedExtension, tabId: number): Promise<Page> {
  const popup = await ext.context.newPage();
  await popup.goto(`chrome-extension://${ext.id}/popup.html?tab=${tabId}`);
  await popup.locator('#status').filter({ hasText: /\S/ }).waitFor();
  return popup;
}

/** Switches the assistant on or off in `tabId` with the popup's switch; resolves with the popup's status line. */
export async function switchTab(ext: LoadedExtension, tabId: number, on: boolean): Promise<string> {
  const popup = await openPopup(ext, tabId);
  try {
    const toggle = popup.locator('#on');
    if ((await toggle.isChecked()) !== on) await toggle.click();
    await popup.waitForFunction((want) => {
      const t = document.getElementById('on') as HTMLInputElement;
      return !t.disabled && t.checked === want;
    }, on, { timeout: 10_000 }).catch(() => undefined);
    return (await popup.locator('#status').textContent()) ?? '';
  } finally {
    await popup.close();
  }
}

/** Saves the connection through the options page's form. */
export async function saveOptions(ext: LoadedExtension, values: { endpoint: string; apiKey: string; modelBaseUrl?: string }): Promise<string> {
  const page = await ext.context.newPage();
  try {
    await page.goto(`chrome-extension://${ext.id}/options.html`);
    await page.fill('#endpoint', values.endpoint);
    await page.fill('#apiKey', values.apiKey);
    await page.fill('#modelBaseUrl', values.modelBaseUrl ?? '');
    await page.click('#save');
    await page.locator('#saved').filter({ hasText: /Saved/ }).waitFor({ timeout: 10_000 });
    return (await page.locator('#saved').textContent()) ?? '';
  } finally {
    await page.close();
  }
}

/** A loopback site whose pages tests define: path → { html, headers }. */
export interface TestSite {
  readonly url: string;
  /** Paths requested so far, in order. */
  readonly requests: string[];
  set(path: string, html: string, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

export async function startSite(): Promise<TestSite> {
  const pages = new Map<string, { html: string; headers: Record<string, string> }>();
  const requests: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(new URL(req.url ?? '/', 'http://x').pathname);
    const page = pages.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...page.headers }).end(page.html);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    set: (path, html, headers = {}) => void pages.set(path, { html, headers }),
    close: () => new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  };
}
