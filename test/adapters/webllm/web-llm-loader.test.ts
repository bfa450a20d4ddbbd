import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import type { Browser, Page } from 'playwright-core';
import { createWebLlmLoader, selfHostedAppConfig, type WebLlmAppConfig } from '../../../adapters/webllm/web-llm-loader.js';
import { WEBLLM_MODELS } from '../../../adapters/webllm/model-catalog.js';
import { launchChromium, newTestPage } from '../../support/chromium.js';
import { bundlePage, startPageServer, type PageServer } from './page-server.js';

const NANO_F32 = WEBLLM_MODELS.nano.f32; // SwiftShader has no shader-f16, so the f32 build is the one a probe picks
const ENTRY = `export { createWebLlmInference, unloadWebLlmEngines } from './adapters/webllm/create-web-llm-inference.ts';`;
// A string only WebLLM's bundle contains: which served file holds it tells whether WebLLM was downloaded.
const WEBLLM_MARK = 'MLC_DUMMY_REQUIRE_VAR';

describe('selfHostedAppConfig', () => {
  it('points the weights at <base>/<model id>/ and the library at <base>/libs/ when given a relative base', () => {
    const config = selfHostedAppConfig(prebuiltAppConfig as WebLlmAppConfig, NANO_F32, '/models', 'https://shop.example/docs/page.html');
    expect(config.model_list).to.have.length(1);
    const record = config.model_list[0]!;
    expect(record.model_id).to.equal(NANO_F32);
    // WebLLM resolves the weights URL with new URL(), which drops the "resolve/../" it needs to see.
    expect(new URL(record.model).href).to.equal(`https://shop.example/models/${NANO_F32}/`);
    expect(record.model_lib).to.equal('https://shop.example/models/libs/SmolLM2-360M-Instruct-q4f32_1_cs1k-webgpu.wasm');
    expect(record.vram_required_MB).to.equal(WEBLLM_MODELS.nano.vramMb.f32);
  });

  it('throws for a model id WebLLM does not list', () => {
    expect(() => selfHostedAppConfig(prebuiltAppConfig as WebLlmAppConfig, 'No-Such-Model-MLC', 'https://cdn.example/')).to.throw(/unknown model id/);
  });
});

type PageError = { name: string; code?: string; message: string; cause?: { name: string; message: string } };
type KitWindow = typeof globalThis & {
  kit: typeof import('../../../adapters/webllm/create-web-llm-inference.js');
  pending?: Promise<PageError | { ok: true }>;
  kitStop?: AbortController;
  progress?: { loaded: number }[];
};

describe('createWebLlmLoader', function () {
  this.timeout(90_000);
  let server: PageServer;
  let bundleDir: string;
  let webgpu: Browser;
  let page: Page;
  const configPath = `/models/${NANO_F32}/mlc-chat-config.json`;
  const libPath = '/models/libs/SmolLM2-360M-Instruct-q4f32_1_cs1k-webgpu.wasm';

  before(async () => {
    bundleDir = await bundlePage(ENTRY);
    server = await startPageServer(bundleDir);
    webgpu = await launchChromium({ extraArgs: ['--enable-unsafe-webgpu'] });
  });
  after(async () => {
    await webgpu?.close();
    await server?.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.route('/models/', (_req, res) => void res.writeHead(404).end('no weights here'));
  });
  afterEach(() => page?.close());

  async function open(browser: Browser): Promise<Page> {
    page = await newTestPage(browser); // a fresh context each time: WebLLM's Cache Storage must not carry over
    await page.goto(`${server.origin}/`);
    await page.waitForFunction(() => (globalThis as { kitReady?: boolean }).kitReady === true);
    return page;
  }

  /** Starts a load of the nano model from /models in the page; `count` creates run at once. */
  function startLoad(count = 1): Promise<void> {
    return page.evaluate((count) => {
      const w = globalThis as KitWindow;
      w.kitStop = new AbortController();
      w.progress = [];
      const one = () =>
        w.kit
          .createWebLlmInference({ size: 'nano', shaderF16: false, modelBaseUrl: '/models/', signal: w.kitStop!.signal, onProgress: (p) => w.progress!.push(p) })
          .then(
            () => ({ ok: true as const }),
            (e: Error & { code?: string }) => ({ name: e.name, code: e.code, message: e.message, cause: e.cause instanceof Error ? { name: e.cause.name, message: e.cause.message } : undefined }),
          );
      w.pending = Promise.all(Array.from({ length: count }, one)).then((all) => (all.every((r) => JSON.stringify(r) === JSON.stringify(all[0])) ? all[0]! : { name: 'Mismatch', message: JSON.stringify(all) }));
    }, count);
  }
  const result = (): Promise<PageError | { ok: true }> => page.evaluate(() => (globalThis as KitWindow).pending!);

  async function servedWebLlm(): Promise<boolean> {
    for (const path of new Set(server.requests.filter((p) => p.endsWith('.js')))) {
      if ((await readFile(join(bundleDir, path))).includes(WEBLLM_MARK)) return true;
    }
    return false;
  }

  it('fails with model_load_failed and the cause when the self-hosted weights answer 404', async () => {
    await open(webgpu);
    expect(await servedWebLlm(), 'the page entry alone holds no WebLLM code').to.equal(false);
    await startLoad(2);
    const err = (await result()) as PageError;
    expect(err).to.include({ name: 'KitError', code: 'model_load_failed' });
    expect(err.message).to.contain(NANO_F32).and.contain(`could not be downloaded from ${server.origin}`);
    expect(err.cause, 'the original error is kept as cause').to.include({ name: 'TypeError' });
    expect(server.requests.filter((p) => p === configPath), 'two creates share one load').to.have.length(1);
    expect(await servedWebLlm(), 'WebLLM came as a lazy chunk').to.equal(true);
    const progress = await page.evaluate(() => (globalThis as KitWindow).progress!);
    expect(progress.filter((p) => p.loaded >= 1)).to.deep.equal([]);
  });

  it('fails with model_load_failed when the model config is not JSON', async () => {
    server.route(configPath, (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"vocab_size": 49152, oops'));
    await open(webgpu);
    await startLoad();
    const err = (await result()) as PageError;
    expect(err).to.include({ code: 'model_load_failed' });
    expect(err.cause?.name).to.equal('SyntaxError');
  });

  it('fails with model_load_failed when the model library is not WebAssembly', async () => {
    server.route(configPath, (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    server.route(libPath, (_req, res) => void res.writeHead(200, { 'content-type': 'application/wasm' }).end('<html>a CDN error page</html>'));
    await open(webgpu);
    await startLoad();
    const err = (await result()) as PageError;
    expect(err).to.include({ code: 'model_load_failed' });
    expect(err.cause?.name).to.equal('CompileError');
    expect(server.requests).to.include(libPath);
  });

  it('stops the download and rejects with the reason when aborted, and a later create starts afresh', async () => {
    let seen!: () => void;
    const requested = new Promise<void>((r) => (seen = r));
    let closedEarly = false;
    server.route(configPath, (req, res) => {
      seen();
      res.on('close', () => (closedEarly = !res.writableEnded));
      // Never answers: a slow CDN.
    });
    await open(webgpu);
    await startLoad();
    await requested;
    const t0 = Date.now();
    await page.evaluate(() => (globalThis as KitWindow).kitStop!.abort(new DOMException('visitor left', 'AbortError')));
    const err = (await result()) as PageError;
    expect(err).to.deep.include({ name: 'AbortError', message: 'visitor left' });
    expect(Date.now() - t0).to.be.lessThan(2000);
    await new Promise((r) => setTimeout(r, 200));
    expect(closedEarly, 'the hanging request was cancelled').to.equal(true);

    server.route(configPath, (_req, res) => void res.writeHead(404).end());
    await startLoad();
    expect(await result()).to.include({ code: 'model_load_failed' });
    expect(server.requests.filter((p) => p === configPath)).to.have.length(2);
  });

  it('fails with webgpu_unavailable without downloading WebLLM when the browser has no WebGPU adapter', async () => {
    const plain = await launchChromium();
    try {
      await open(plain);
      await startLoad();
      const err = (await result()) as PageError;
      expect(err).to.include({ name: 'KitError', code: 'webgpu_unavailable' });
      expect(await servedWebLlm()).to.equal(false);
      expect(server.requests.some((p) => p.startsWith('/models/'))).to.equal(false);
    } finally {
      await page.close();
      await plain.close();
    }
  });
});

describe('createWebLlmLoader in a runtime without WebGPU', () => {
  it('rejects with webgpu_unavailable before importing WebLLM', async () => {
    const loader = createWebLlmLoader();
    const ctl = new AbortController();
    try {
      await loader(NANO_F32, { signal: ctl.signal, onProgress: () => undefined });
      expect.fail('should reject');
    } catch (err) {
      expect(err).to.include({ name: 'KitError', code: 'webgpu_unavailable' });
    }
  });
});
