/**
 * The npm packages (issue 15 §6): @kit-assistant/sdk as `npm pack` would publish it (ESM + UMD + .d.ts, types a
 * consumer compiles against), and the React and Vue wrappers mounted in real Chromium with the real frameworks from
 * npm, talking to the real Kit server.
 */
import { expect } from 'chai';
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { SDK_VERSION } from '../../sdk/version.js';
import { launchChromium, newTestPage } from '../support/chromium.js';
import { startKitServer, type KitServer } from './support/kit-server.js';
import { startSiteServer, type SiteServer } from './support/site-server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const FACTS = ['The Summit membership costs $49 per year and includes free standard shipping.', 'The Expedition membership costs $129 per year.'];

/** An app bundle for the browser: the wrapper from its built package, the SDK from the built ESM package. */
async function bundleApp(source: string): Promise<string> {
  const out = await build({
    stdin: { contents: source, resolveDir: root, loader: 'tsx' },
    bundle: true, format: 'iife', target: 'es2022', platform: 'browser', write: false, jsx: 'automatic',
    // The app never runs WebLLM (remote mode): its 6 MB chunk stays out of the inline test bundle.
    external: ['./create-web-llm-inference-*', './chunks/create-web-llm-inference-*'],
    alias: {
      '@kit-assistant/sdk': join(root, 'packages/kit/dist/esm/index.js'),
      '@kit-assistant/react': join(root, 'packages/react/dist/index.js'),
      '@kit-assistant/vue': join(root, 'packages/vue/dist/index.js'),
    },
    define: { 'process.env.NODE_ENV': '"production"', __VUE_OPTIONS_API__: 'true', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false' },
  });
  return out.outputFiles[0]!.text;
}

describe('npm packages (built, then used as a site developer would)', function () {
  this.timeout(300_000);
  let kit: KitServer;
  let key: string;
  let site: SiteServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    const r = spawnSync(process.execPath, [join(root, 'scripts/build-packages.mjs')], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('build-packages failed');
    kit = await startKitServer();
    ({ key } = await kit.developerKey([]));
    site = await startSiteServer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await kit?.stop();
  });
  beforeEach(async () => { page = await newTestPage(browser); });
  afterEach(async () => { await page?.close(); });

  it('@kit-assistant/sdk is publishable: ESM, UMD and declarations a TypeScript consumer compiles against', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'packages/kit/package.json'), 'utf8'));
    expect(pkg.private).to.equal(undefined);
    expect(pkg.version).to.equal(SDK_VERSION);
    for (const w of ['react', 'vue']) expect(JSON.parse(readFileSync(join(root, `packages/${w}/package.json`), 'utf8')).peerDependencies['@kit-assistant/sdk']).to.equal(SDK_VERSION);
    const pack = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: join(root, 'packages/kit'), encoding: 'utf8' });
    const files: string[] = JSON.parse(pack.stdout)[0].files.map((f: { path: string }) => f.path);
    expect(files).to.include.members(['package.json', 'README.md', 'dist/esm/index.js', 'dist/umd/kit.js', 'dist/types/sdk/index.d.ts']);
    expect(files.some((f) => f.startsWith('dist/umd/chunks/kit-ui.'))).to.equal(true);
    expect(files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md'].includes(f))).to.deep.equal([]);
    // A consumer project: the package under node_modules, strict TypeScript.
    const dir = mkdtempSync(join(tmpdir(), 'kit-consumer-'));
    try {
      mkdirSync(join(dir, 'node_modules/@kit-assistant'), { recursive: true });
      symlinkSync(join(root, 'packages/kit'), join(dir, 'node_modules/@kit-assistant/sdk'));
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler', target: 'ES2022', lib: ['ES2022', 'DOM'], noEmit: true, skipLibCheck: false, types: [] }, files: ['app.ts'] }));
      writeFileSync(join(dir, 'app.ts'), `import { init, type Answer, type KitInstance } from '@kit-assistant/sdk';
const kit: KitInstance = init({ apiKey: 'kit_pub_x', placement: 'inline', target: '#help' });
const a: Promise<Answer> = kit.ask('How much?');
a.then((x) => x.citations.map((c) => c.url + (c.text ?? '')));
kit.on('message', (m) => m.role === 'assistant' && m.text.length);
kit.newConversation();
const id: string = kit.conversationId;
// @ts-expect-error not an instance method
kit.nope();
export { id };
`);
      const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
      expect(tsc.stdout + tsc.stderr).to.equal('');
      expect(tsc.status).to.equal(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const mountPage = async (app: string) => {
    site.set('/app', `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Memberships</title></head><body>
<main><h1>Memberships</h1>${FACTS.map((f) => `<p>${f}</p>`).join('')}<div id="root"></div></main><script>${app}</script></body></html>`);
    await page.goto(`${site.origin}/app`);
  };

  it('React: <KitAssistant> mounts inline in its own element, answers through the ref, and unmounting destroys Kit', async () => {
    const app = await bundleApp(`
import { createRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { KitAssistant } from '@kit-assistant/react';
import type { KitInstance } from '@kit-assistant/sdk';
const ref = createRef<KitInstance | null>();
const events: string[] = [];
let show: (v: boolean) => void = () => {};
function App() {
  const [visible, setVisible] = useState(true);
  show = setVisible;
  return visible ? <KitAssistant ref={ref} apiKey=${JSON.stringify(key)} placement="inline" className="help"
    options={{ mode: 'remote', endpoint: ${JSON.stringify(`${kit.url}/v1`)} }} onReady={() => events.push('ready')} /> : <p>gone</p>;
}
const root = createRoot(document.getElementById('root')!);
flushSync(() => root.render(<App />));
Object.assign(window, { app: { ref, events, hide: () => flushSync(() => show(false)) } });
`);
    await mountPage(app);
    await page.waitForFunction(() => (window as any).app.events.includes('ready'), null, { timeout: 90_000 });
    expect(await page.evaluate(() => document.querySelector('#root .help > kit-widget') !== null)).to.equal(true);
    await page.locator('kit-widget .panel').waitFor();
    const a = await page.evaluate(() => (window as any).app.ref.current.ask('How much does the Summit membership cost?'));
    expect(a.text).to.include('$49');
    expect(await page.locator('kit-widget .bot .b').textContent()).to.include('$49');
    await page.evaluate(() => (window as any).app.hide());
    expect(await page.locator('kit-widget').count()).to.equal(0);
    expect(await page.evaluate(() => (window as any).app.ref.current)).to.equal(null);
  });

  it('React and Vue: without a ready listener the page is read on first use, not at mount; a listener added later reads it (issue 12 §6)', async () => {
    const sitemapAsked = () => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('sitemap.xml')));
    const options = `{ mode: 'remote', context: 'site', endpoint: ${JSON.stringify(`${kit.url}/v1`)} }`;
    // React, no onReady: GET /config at mount, nothing of the site read.
    await mountPage(await bundleApp(`
import { createRef } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { KitAssistant } from '@kit-assistant/react';
import type { KitInstance } from '@kit-assistant/sdk';
const ref = createRef<KitInstance | null>();
const events: string[] = [];
flushSync(() => createRoot(document.getElementById('root')!).render(<KitAssistant ref={ref} apiKey=${JSON.stringify(key)} options={${options}} />));
Object.assign(window, { app: { ref, events } });
`));
    await page.locator('kit-widget .launcher').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await sitemapAsked()).to.equal(false);
    // A listener added later reads the site (sitemap first), then ready.
    await page.evaluate(() => (window as any).app.ref.current.on('ready', () => (window as any).app.events.push('ready')));
    await page.waitForFunction(() => (window as any).app.events.includes('ready'), null, { timeout: 90_000 });
    expect(await sitemapAsked()).to.equal(true);
    // Vue: the same without @ready; with it, read at mount.
    for (const listens of [false, true]) {
      await page.close();
      page = await newTestPage(browser);
      await mountPage(await bundleApp(`
import { createApp, h } from 'vue';
import { KitAssistant } from '@kit-assistant/vue';
const events: string[] = [];
createApp({ render: () => h(KitAssistant, { apiKey: ${JSON.stringify(key)}, options: ${options}${listens ? ", onReady: () => events.push('ready')" : ''} }) }).mount('#root');
Object.assign(window, { app: { events } });
`));
      await page.locator('kit-widget .launcher').waitFor();
      if (listens) await page.waitForFunction(() => (window as any).app.events.includes('ready'), null, { timeout: 90_000 });
      else await page.waitForLoadState('networkidle');
      expect(await sitemapAsked()).to.equal(listens);
    }
  });

  it('Vue: <KitAssistant> shows the launcher, emits ready, exposes the instance, and unmounting destroys Kit', async () => {
    const app = await bundleApp(`
import { createApp, h, ref } from 'vue';
import { KitAssistant } from '@kit-assistant/vue';
const events: string[] = [];
const comp = ref<any>(null);
const vm = createApp({ render: () => h(KitAssistant, { ref: comp, apiKey: ${JSON.stringify(key)}, options: { mode: 'remote', endpoint: ${JSON.stringify(`${kit.url}/v1`)} }, onReady: () => events.push('ready') }) });
vm.mount('#root');
Object.assign(window, { app: { events, comp, unmount: () => vm.unmount() } });
`);
    await mountPage(app);
    await page.waitForFunction(() => (window as any).app.events.includes('ready'), null, { timeout: 90_000 });
    await page.locator('kit-widget .launcher').click();
    await page.locator('kit-widget textarea').fill('How much does the Expedition membership cost?');
    await page.keyboard.press('Enter');
    await page.locator('kit-widget .bot .b', { hasText: '$129' }).waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => typeof (window as any).app.comp.value.instance().ask)).to.equal('function');
    await page.evaluate(() => (window as any).app.unmount());
    expect(await page.locator('kit-widget').count()).to.equal(0);
  });
});
