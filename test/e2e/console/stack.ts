import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { FakeStripeServer } from '../../fakes/stripe-server.js';
import { launchChromium, TSX_EVALUATE_SHIM } from '../../support/chromium.js';
import { postgresAvailable } from '../../support/postgres.js';
import { testPostgres } from '../../support/databases.js';
import { startTestSmtp, type TestSmtp } from '../../support/smtp.js';
import { PRICES, STRIPE_SECRET, STRIPE_WEBHOOK_SECRET } from '../../server/support/stripe.js';
import { ensureSdkBuilt, startKitServer, type KitServer } from '../support/kit-server.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const require = createRequire(import.meta.url);
/** axe-core's browser build, evaluated in the page over the DevTools protocol (the console's CSP forbids inline scripts). */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Builds dist/console when missing or stale (the real bundle is what these tests load). */
export function ensureConsoleBuilt(): void {
  const r = spawnSync(process.execPath, [join(root, 'scripts/console/ensure-built.mjs')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('console build failed');
}

/**
 * The databases a console flow runs on. What the console does in the browser does not depend on the database behind
 * the API, whose routes the server suite runs on both: each flow runs on the embedded default (what `npm start`
 * gives a new user), and the keyboard walk through the whole owner's loop also on PostgreSQL 15 when installed — so
 * both databases are driven end to end from a browser without every flow paying twice.
 * `KIT_CONSOLE_E2E_BOTH=1` runs every flow on both.
 */
export function consoleTargets(bothDatabases = false): ('pglite' | 'postgres')[] {
  const postgres = postgresAvailable() || process.env.KIT_REQUIRE_POSTGRES === '1';
  return postgres && (bothDatabases || process.env.KIT_CONSOLE_E2E_BOTH === '1') ? ['pglite', 'postgres'] : ['pglite'];
}

let databases = 0;

/** A fresh database on the shared test cluster (each stack gets its own, so the demo seed runs as on a new install). */
async function freshPostgresUrl(): Promise<string> {
  const base = (await testPostgres()).url;
  const name = `kit_console_${process.pid}_${++databases}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  return base.replace(/\/[^/]*$/, `/${name}`);
}

/** The real server (child process, as `npm start`) with a real SMTP server and the loopback Stripe. */
export interface ConsoleStack {
  readonly kit: KitServer;
  readonly url: string;
  readonly smtp: TestSmtp;
  readonly stripe: FakeStripeServer;
  stop(): Promise<void>;
}

export async function startConsoleStack(target: 'pglite' | 'postgres', env: Record<string, string> = {}): Promise<ConsoleStack> {
  ensureSdkBuilt();
  ensureConsoleBuilt();
  const smtp = await startTestSmtp();
  let kitUrl = '';
  const stripe = new FakeStripeServer(STRIPE_SECRET, { webhookUrl: () => `${kitUrl}/v1/billing/webhook`, webhookSecret: STRIPE_WEBHOOK_SECRET });
  const { port } = await stripe.start();
  const kit = await startKitServer({
    KIT_SMTP_URL: smtp.url,
    KIT_MAIL_FROM: 'Kit <no-reply@kit.test>',
    KIT_LAST_USED_FLUSH_MS: '500', // the keys view's "last used" shows within the test's time
    STRIPE_SECRET_KEY: STRIPE_SECRET,
    STRIPE_WEBHOOK_SECRET,
    KIT_STRIPE_PRICE_PRO: PRICES.pro,
    KIT_STRIPE_PRICE_BUSINESS: PRICES.business,
    KIT_STRIPE_API_BASE: `http://127.0.0.1:${port}`,
    ...(target === 'postgres' ? { DATABASE_URL: await freshPostgresUrl() } : {}),
    ...env,
  });
  kitUrl = kit.url;
  return {
    kit,
    url: kit.url,
    smtp,
    stripe,
    async stop() {
      await kit.stop();
      await smtp.stop();
      await stripe.stop();
    },
  };
}

const shared = new Map<string, Promise<ConsoleStack>>();

/**
 * One stack per database for every console e2e file of this test process (a server start with its database costs
 * seconds; the flows create their own accounts, so they share it safely). Stopped by a root after-hook.
 */
export function sharedConsoleStack(target: 'pglite' | 'postgres'): Promise<ConsoleStack> {
  let stack = shared.get(target);
  if (!stack) {
    stack = startConsoleStack(target);
    shared.set(target, stack);
  }
  return stack;
}

let sharedBrowser: Promise<Browser> | null = null;

after(async function () {
  this.timeout(60_000);
  await (await sharedBrowser?.catch(() => null))?.close();
  sharedBrowser = null;
  for (const stack of shared.values()) await (await stack.catch(() => null))?.stop();
  shared.clear();
});

/** The password every console test account uses. */
export const PASSWORD = 'correct horse battery staple';

/** What a console suite's tests share: the stack of its database and one Chromium for every console file. */
export interface ConsoleSuite {
  readonly stack: ConsoleStack;
  readonly browser: Browser;
  readonly target: 'pglite' | 'postgres';
}

/**
 * A describe block per database (`consoleTargets(bothDatabases)`), titled "<title> (Chromium, real server on <db>)",
 * whose tests read `suite.stack` and `suite.browser` (started once per test process and shared by every console file).
 */
export function describeConsole(title: string, body: (suite: ConsoleSuite) => void, { timeout = 180_000, bothDatabases = false } = {}): void {
  for (const target of consoleTargets(bothDatabases)) {
    describe(`${title} (Chromium, real server on ${target})`, function () {
      this.timeout(timeout);
      const suite = { target } as { stack: ConsoleStack; browser: Browser; target: 'pglite' | 'postgres' };
      before(async function () {
        this.timeout(600_000);
        suite.stack = await sharedConsoleStack(target);
        sharedBrowser ??= launchChromium();
        suite.browser = await sharedBrowser;
      });
      body(suite);
    });
  }
}

/** A new page signed up through the console's form as a new owner of a new organization. */
export async function newOwner(suite: ConsoleSuite, options: { email?: string; org?: string; width?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<{ page: Page; context: BrowserContext; problems: PageProblems; email: string }> {
  const opened = await consolePage(suite.browser, options);
  const email = options.email ?? `owner-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  await signUp(opened.page, suite.stack.url, email, options.org ?? 'Test Shop');
  return { ...opened, email };
}

/** Signs up through the console's form and waits for the signed-in console. */
export async function signUp(page: Page, url: string, email: string, org: string): Promise<void> {
  await page.goto(`${url}/console/sign-up`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Organization name').fill(org);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
}

/** A call to /v1 from the signed-in page, with its cookie and CSRF token (as the console's own client sends it). */
export async function pageApi<T>(page: Page, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  return page.evaluate(
    async ({ method, path, body, headers }) => {
      const session = (await (await fetch('/v1/auth/session')).json()) as { csrf_token: string };
      const res = await fetch(`/v1${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token, ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.status === 204 ? null : await res.json();
    },
    { method, path, body, headers },
  ) as Promise<T>;
}

/** Asserts the page did nothing it must not (no CSP violation, no script error), then closes its context. */
export async function closeClean(opened: { context: BrowserContext; problems: PageProblems }): Promise<void> {
  const { problems } = opened;
  await opened.context.close();
  if (problems.csp.length > 0 || problems.errors.length > 0) throw new Error(`the page had problems: ${JSON.stringify(problems)}`);
}

/** What a page did that it must not: CSP violations, uncaught errors, console errors. */
export interface PageProblems {
  readonly csp: string[];
  readonly errors: string[];
}

/** A page in its own context; records CSP violations and script errors. */
export async function consolePage(browser: Browser, options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<{ page: Page; context: BrowserContext; problems: PageProblems }> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 900 }, colorScheme: options.colorScheme ?? 'light' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  await page.addInitScript(TSX_EVALUATE_SHIM);
  const problems: PageProblems = { csp: [], errors: [] };
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const text = m.text();
    if (/Content Security Policy/i.test(text)) problems.csp.push(text);
    // 401 from GET /auth/session is how a signed-out console learns it is signed out; other failed loads count.
    else if (!/status of 401|Failed to load resource/.test(text)) problems.errors.push(text);
  });
  page.on('pageerror', (e) => problems.errors.push(e.message));
  return { page, context, problems };
}

/** Serious and critical axe-core violations of the page as it is now (WCAG 2.1 A/AA and best practices). */
export async function axeViolations(page: Page): Promise<string[]> {
  const hasAxe = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (!hasAxe) await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate(() =>
    (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<unknown> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    }),
  )) as { violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] };
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

/** Signs in through the console's form (on the sign-in page already shown when `url` is null, keeping its `next`). */
export async function signIn(page: Page, url: string | null, email: string, password: string): Promise<void> {
  if (url !== null) await page.goto(`${url}/console/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
}

/** The demo owner's password, from the start banner (shown once, on a new database). */
export function demoPassword(kit: KitServer): string {
  const match = /demo@example\.com \/ (\S+)/.exec(kit.output());
  if (!match) throw new Error(`no demo password in the start banner of ${kit.url}:\n${kit.output()}`);
  return match[1]!;
}

/** The install view's live-preview frame (`/console/preview/sample`), once it has loaded. */
export async function previewFrame(page: Page): Promise<Frame> {
  for (let i = 0; ; i++) {
    const frame = page.frames().find((f) => f.url().endsWith('/console/preview/sample'));
    if (frame) {
      await frame.waitForLoadState('load');
      return frame;
    }
    if (i > 600) throw new Error('the preview frame never loaded');
    await page.waitForTimeout(50);
  }
}

/** The text of the Kit widget's log in a frame (in its shadow root), or '(frame gone)'. */
export function widgetLog(frame: Frame): Promise<string> {
  return frame.evaluate(() => document.querySelector('kit-widget')?.shadowRoot?.querySelector('[role=log]')?.textContent ?? '').catch(() => '(frame gone)');
}

/** Waits until the widget's log in `frame` shows `text` (not the page's own text); a failure quotes what it showed. */
export async function widgetLogShows(frame: Frame, text: string, timeoutMs = 60_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 100))) {
    const log = await widgetLog(frame);
    if (log.includes(text)) return;
    if (Date.now() > deadline) throw new Error(`the widget never showed ${JSON.stringify(text)}; it showed: ${JSON.stringify(log.slice(0, 600))}`);
  }
}
