/**
 * The console's bundle and first load (issue 14: interactive within 1 s in this machine's Chromium, at most 100 KB of
 * gzipped JavaScript for the first view). Sizes are read from dist/console (built first when stale). Load times come
 * from the BUILT server in its own process (`node dist/server/main.js`, as `npm start` runs it, rebuilt first when
 * older than its sources; embedded database) and the system Chromium, a new
 * browser context (cold cache) per round; rounds interleave the reference — the demo site's static page from the
 * same server — with the console signed out (sign-in form) and signed in (overview). "Interactive" is the moment the
 * view's form or content is in the DOM and enabled, from navigation start (performance.now() in the page).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { launchChromium, TSX_EVALUATE_SHIM } from '../test/support/chromium.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.KIT_BENCH_ROUNDS ?? 9);

// What `npm start` runs first (its prestart), then the built server itself.
for (const script of ['scripts/ensure-sdk-built.mjs', 'scripts/console/ensure-built.mjs', 'scripts/ensure-server-built.mjs']) {
  const r = spawnSync(process.execPath, [join(root, script)], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(1);
}

const assets = join(root, 'dist/console/assets');
const gz = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const chunks = readdirSync(join(assets, 'chunks')).filter((f) => f.endsWith('.js'));

const data = mkdtempSync(join(tmpdir(), 'kit-console-bench-'));
const server = await startBuiltServer({ KIT_DATA_DIR: data });
const password = /demo@example\.com \/ (\S+)/.exec(server.stderr())?.[1];
if (!password) throw new Error('no demo password in the start banner');
const browser: Browser = await launchChromium();

/** `node dist/server/main.js` on a free loopback port; resolves once it listens and has printed its start banner. */
async function startBuiltServer(env: Record<string, string>): Promise<{ url: string; stderr(): string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(root, 'dist/server/main.js')], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', KIT_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const m = /listening on (http:\/\/[^/"]+)\/v1/.exec(out);
      if (m && err.includes('Kit is running at')) resolve(m[1]!.replace('localhost', '127.0.0.1'));
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    void exited.then(() => reject(new Error(`the built server exited before listening:\n${out}\n${err}`)));
  });
  return {
    url,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** JavaScript a first view downloads, in bytes gzipped (measured from the browser's own resource list). */
const firstViewJs: number[] = [];

async function measure(kind: 'reference' | 'signed-out' | 'signed-in'): Promise<number> {
  const context = await browser.newContext();
  try {
    if (kind === 'signed-in') {
      const res = await fetch(`${server.url}/v1/auth/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'demo@example.com', password }) });
      const cookie = res.headers.get('set-cookie')!.split(';')[0]!.split('=');
      await context.addCookies([{ name: cookie[0]!, value: cookie[1]!, url: server.url }]);
    }
    const page = await context.newPage();
    await page.addInitScript(TSX_EVALUATE_SHIM); // tsx's keepNames helper, for the functions handed to the page
    const selector = kind === 'reference' ? 'main' : kind === 'signed-out' ? 'form button[type=submit]:not([disabled])' : 'nav[aria-label="Console"]';
    await page.addInitScript((sel: string) => {
      const w = window as unknown as { __ready?: number };
      const check = () => {
        if (w.__ready === undefined && document.querySelector(sel)) w.__ready = performance.now();
      };
      new MutationObserver(check).observe(document, { childList: true, subtree: true });
    }, selector);
    const path = kind === 'reference' ? '/demo/' : kind === 'signed-out' ? '/console/sign-in' : '/console/';
    await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
    await page.waitForFunction(() => (window as unknown as { __ready?: number }).__ready !== undefined, undefined, { timeout: 30_000 });
    const ready = await page.evaluate(() => (window as unknown as { __ready: number }).__ready);
    if (kind !== 'reference') {
      const scripts = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js') && e.name.includes('/console/')).map((e) => new URL(e.name).pathname));
      firstViewJs.push(scripts.reduce((sum, p) => sum + gz(join(root, 'dist', p.replace(/^\//, ''))), 0));
    }
    return ready;
  } finally {
    await context.close();
  }
}

const times: Record<'reference' | 'signed-out' | 'signed-in', number[]> = { reference: [], 'signed-out': [], 'signed-in': [] };
const load0 = loadavg()[0]!;
try {
  await measure('signed-out'); // warm the server's file cache once
  for (let i = 0; i < ROUNDS; i++) for (const kind of ['reference', 'signed-out', 'signed-in'] as const) times[kind].push(await measure(kind));
} finally {
  await browser.close();
  await server.stop();
  rmSync(data, { recursive: true, force: true });
}
const load1 = loadavg()[0]!;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
const ref = median(times.reference);

console.log('| what | gzipped | raw |');
console.log('|---|---:|---:|');
console.log(`| entry \`console.js\` (every first view) | ${kb(gz(join(assets, 'console.js')))} KB | ${kb(statSync(join(assets, 'console.js')).size)} KB |`);
console.log(`| \`console.css\` | ${kb(gz(join(assets, 'console.css')))} KB | ${kb(statSync(join(assets, 'console.css')).size)} KB |`);
for (const c of chunks) console.log(`| lazy chunk \`${c}\` | ${kb(gz(join(assets, 'chunks', c)))} KB | ${kb(statSync(join(assets, 'chunks', c)).size)} KB |`);
console.log(`| JavaScript the first view loaded (browser's resource list, max over rounds) | ${kb(Math.max(...firstViewJs))} KB | |`);
console.log('');
console.log(`| first load, new context each round (${ROUNDS} rounds, interleaved) | median ms | range ms | vs reference |`);
console.log('|---|---:|---:|---:|');
console.log(`| reference: demo site page, same server (static HTML) | ${ref.toFixed(0)} | ${range(times.reference)} | 1.00× |`);
console.log(`| console signed out: sign-in form interactive | ${median(times['signed-out']).toFixed(0)} | ${range(times['signed-out'])} | ${(median(times['signed-out']) / ref).toFixed(2)}× |`);
console.log(`| console signed in: overview rendered after GET /auth/session | ${median(times['signed-in']).toFixed(0)} | ${range(times['signed-in'])} | ${(median(times['signed-in']) / ref).toFixed(2)}× |`);
console.log('');
console.log(`Server: \`node dist/server/main.js\` (built, as \`npm start\` runs it), embedded database.`);
console.log(`Machine load (1-min average) ${load0.toFixed(2)} before, ${load1.toFixed(2)} after, on ${(await import('node:os')).cpus().length} cores.`);
console.log(
  JSON.stringify({
    first_view_js_gzip_kb: Number(kb(Math.max(...firstViewJs))),
    signed_out_interactive_ms: Math.round(median(times['signed-out'])),
    signed_in_interactive_ms: Math.round(median(times['signed-in'])),
    reference_ms: Math.round(ref),
  }),
);
