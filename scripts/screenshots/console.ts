/**
 * Saves docs/console-*.png: the console's views as an owner sees them, light and dark, desktop and phone width.
 * Starts its own server (server/main.ts, a throw-away embedded database with the demo organisation), asks the demo
 * site a few questions through the API so insights have data, and signs in as the demo owner.
 * Run: npx tsx scripts/screenshots/console.ts
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../../test/support/chromium.js';
import { startChildServer } from '../../test/server/support/child-server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
for (const script of ['scripts/ensure-sdk-built.mjs', 'scripts/console/ensure-built.mjs']) {
  if (spawnSync(process.execPath, [join(root, script)], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);
}

const data = mkdtempSync(join(tmpdir(), 'kit-console-shots-'));
const server = await startChildServer({ KIT_DATA_DIR: data, KIT_BOT_CHALLENGE: 'none' }); // info level: it waits for the "listening on" log line
// The start banner (with the demo owner's password) is on stderr; older servers printed it on stdout.
const password = /demo@example\.com \/ (\S+)/.exec(server.stderr() + server.stdout())?.[1];
if (!password) throw new Error(`no demo password in the start banner:\n${server.stderr()}`);
const browser = await launchChromium();
try {
  const login = await fetch(`${server.url}/v1/auth/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'demo@example.com', password }) });
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const { csrf_token: csrf } = (await login.json()) as { csrf_token: string };
  const auth = { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' };
  // Question logging on, then a few chats through the real /chat route with a secret key, so insights show data.
  const logging = await fetch(`${server.url}/v1/org/question-logging`, { headers: { cookie } });
  await fetch(`${server.url}/v1/org/question-logging`, { method: 'PATCH', headers: { ...auth, 'if-match': logging.headers.get('etag')! }, body: JSON.stringify({ mode: 'redacted' }) });
  const created = await fetch(`${server.url}/v1/keys`, { method: 'POST', headers: auth, body: JSON.stringify({ kind: 'secret', name: 'Shop backend' }) });
  const secret = ((await created.json()) as { secret: string }).secret;
  const source = { url: `${server.url}/demo/pricing.html`, title: 'Memberships', text: 'The Summit plan costs $49 per year and gives 10% off all gear, free standard shipping and one free repair per year.' };
  for (const q of ['How much is the Summit membership?', 'Does Summit include free shipping?', 'How much is the Summit membership?', 'Do you sell kayaks?', 'What is the capital of France?']) {
    await fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: q }], sources: [source], stream: false, page_url: `${server.url}/demo/pricing.html` }) });
  }
  await new Promise((r) => setTimeout(r, 1500)); // the question log is written in batches

  const shots: { file: string; path: string; scheme: 'light' | 'dark'; width: number; height: number }[] = [
    { file: 'console-install-light.png', path: '/console/install', scheme: 'light', width: 1280, height: 900 },
    { file: 'console-keys-dark.png', path: '/console/keys', scheme: 'dark', width: 1280, height: 700 },
    { file: 'console-insights-light.png', path: '/console/insights', scheme: 'light', width: 1280, height: 1100 },
    { file: 'console-members-phone-dark.png', path: '/console/members', scheme: 'dark', width: 375, height: 812 },
  ];
  for (const shot of shots) {
    const context = await browser.newContext({ viewport: { width: shot.width, height: shot.height }, colorScheme: shot.scheme, deviceScaleFactor: 1 });
    const [name, value] = cookie.split('=');
    await context.addCookies([{ name: name!, value: value!, url: server.url }]);
    const page = await context.newPage();
    await page.goto(`${server.url}${shot.path}`);
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    await page.waitForLoadState('networkidle');
    if (shot.path === '/console/install') {
      const frame = page.frameLocator('iframe.preview-frame');
      await frame.getByText('The assistant is running').waitFor({ timeout: 60_000 });
      await frame.getByRole('button', { name: 'Ask about this page' }).press('Enter'); // the preview opens on its button
      await frame.getByRole('textbox', { name: 'Your question' }).waitFor();
    }
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(root, 'docs', shot.file) });
    await context.close();
    console.log(`wrote docs/${shot.file}`);
  }
} finally {
  await browser.close();
  await server.stop();
  rmSync(data, { recursive: true, force: true });
}
