import { chromium, type Browser, type LaunchOptions, type Page } from 'playwright-core';

/** Flags every Kit test uses with the system Chromium: headless, no sandbox (containers), no network chatter. */
export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

/** Path of the system Chromium; override with KIT_CHROMIUM. Tests never download a browser. */
export const CHROMIUM_PATH = process.env.KIT_CHROMIUM ?? '/usr/bin/chromium';

export interface LaunchChromiumOptions extends Omit<LaunchOptions, 'executablePath'> {
  /** Flags added after the defaults (e.g. '--enable-unsafe-webgpu'); a later flag wins over an earlier one. */
  extraArgs?: readonly string[];
}

/** Launches the system Chromium with the shared flags; close it in the suite's `after`. */
export function launchChromium(options: LaunchChromiumOptions = {}): Promise<Browser> {
  const { extraArgs = [], args = [], ...rest } = options;
  return chromium.launch({ ...rest, executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...args, ...extraArgs] });
}

/**
 * tsx compiles test files with esbuild's keepNames, so functions passed to page.evaluate() can reference a `__name`
 * helper that only exists in Node; this shim defines it in every document of the page.
 */
export const TSX_EVALUATE_SHIM = 'globalThis.__name ??= (fn) => fn;';

/** A new page (own context) with the tsx evaluate shim installed; close it in the test's `afterEach`. */
export async function newTestPage(browser: Browser, options: Parameters<Browser['newPage']>[0] = {}): Promise<Page> {
  const page = await browser.newPage(options);
  await page.addInitScript(TSX_EVALUATE_SHIM);
  return page;
}
