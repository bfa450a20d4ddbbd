import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { DeviceProfile } from '../../../core/mode/device-profile.js';
import { launchChromium, newTestPage } from '../../support/chromium.js';
import { bundlePage, startPageServer, type PageServer } from '../webllm/page-server.js';

// The flag that gives WebGPU on this GPU-less machine: Chromium then hands out SwiftShader's CPU adapter (vendor
// "google", architecture "swiftshader", info.isFallbackAdapter true). '--disable-gpu' from the shared flags can stay.
const WEBGPU_FLAGS = ['--enable-unsafe-webgpu'];

const ENTRY = `
export { probeDevice } from './adapters/browser/webgpu-probe.ts';
export { measureGflops, createMatmulKernel, MATMUL_SIZE } from './adapters/browser/webgpu-benchmark.ts';
export { selectMode } from './core/mode/index.ts';
`;

type KitWindow = typeof globalThis & { kit: typeof import('../../../adapters/browser/webgpu-probe.js') & typeof import('../../../adapters/browser/webgpu-benchmark.js') & typeof import('../../../core/mode/index.js') };

describe('probeDevice', function () {
  this.timeout(60_000);
  let server: PageServer;
  let webgpu: Browser;
  let plain: Browser;
  let page: Page;

  before(async () => {
    server = await startPageServer(await bundlePage(ENTRY));
    [webgpu, plain] = await Promise.all([launchChromium({ extraArgs: WEBGPU_FLAGS }), launchChromium()]);
  });
  after(async () => {
    await Promise.all([webgpu?.close(), plain?.close()]);
    await server?.close();
  });
  afterEach(() => page?.close());

  async function open(browser: Browser): Promise<Page> {
    page = await newTestPage(browser);
    await page.goto(`${server.origin}/`);
    await page.waitForFunction(() => (globalThis as { kitReady?: boolean }).kitReady === true);
    return page;
  }

  it('reports SwiftShader as a software fallback adapter with its limits when WebGPU is enabled', async () => {
    await open(webgpu);
    const profile = await page.evaluate(() => (globalThis as KitWindow).kit.probeDevice({ benchmark: true }));
    expect(profile.adapter).to.not.equal(null);
    expect(profile.adapter!.isFallback).to.equal(true);
    expect(`${profile.adapter!.vendor} ${profile.adapter!.architecture}`).to.match(/swiftshader/i);
    expect(profile.adapter!.maxStorageBufferBindingSize).to.be.at.least(128 * 1024 * 1024);
    expect(profile.adapter!.maxBufferSize).to.be.at.least(profile.adapter!.maxStorageBufferBindingSize);
    expect(profile.adapter!.shaderF16).to.be.a('boolean');
    expect(profile.benchmarkGflops, 'the timing pass is skipped on a fallback adapter').to.equal(undefined);
    expect(profile.mobile).to.equal(false);
  });

  it("lets core's selectMode choose remote in 'auto' when the adapter is SwiftShader", async () => {
    await open(webgpu);
    const decision = await page.evaluate(async () => {
      const kit = (globalThis as KitWindow).kit;
      const device = await kit.probeDevice({ benchmark: true });
      return kit.selectMode({ mode: 'auto', model: 'auto' }, { modes: 'auto', defaultModel: 'auto' }, device);
    });
    expect(decision).to.deep.equal({ ok: true, value: { mode: 'remote', model: 'remote', reason: 'software_gpu' } });
  });

  it('reports no adapter and selectMode falls back to remote when Chromium runs without --enable-unsafe-webgpu', async () => {
    await open(plain);
    const { profile, decision } = await page.evaluate(async () => {
      const kit = (globalThis as KitWindow).kit;
      const profile: DeviceProfile = await kit.probeDevice({ benchmark: true });
      return { profile, decision: kit.selectMode({ mode: 'auto', model: 'auto' }, { modes: 'auto', defaultModel: 'auto' }, profile) };
    });
    expect(profile.adapter).to.equal(null);
    expect(profile.benchmarkGflops).to.equal(undefined);
    expect(decision).to.deep.include({ ok: true });
    expect(decision.ok && decision.value.reason).to.equal('no_webgpu');
  });

  it('asks for an adapter once per browser in auto mode: a recent "none" verdict is reused, so pages log no warning', async () => {
    await open(plain);
    const warnings: string[] = [];
    page.on('console', (m) => { if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text()); });
    const probe = (reuse: boolean) => page.evaluate((reuse) => (globalThis as KitWindow).kit.probeDevice({ benchmark: false, reuseAbsentVerdict: reuse }), reuse);
    await page.evaluate(() => localStorage.clear());

    expect((await probe(true)).adapter).to.equal(null);
    await page.waitForTimeout(200);
    expect(warnings, 'the first probe asks Chromium, which warns').to.deep.equal(['No available adapters.']);

    await page.reload();
    await page.waitForFunction(() => (globalThis as { kitReady?: boolean }).kitReady === true);
    expect((await probe(true)).adapter).to.equal(null);
    await page.waitForTimeout(200);
    expect(warnings, 'the next page view reuses the verdict').to.have.length(1);

    // A forced local mode asks every time; a verdict of another browser version is not reused.
    expect((await probe(false)).adapter).to.equal(null);
    await page.evaluate(() => localStorage.setItem('kit:webgpu-absent', JSON.stringify({ ua: 'Older/1.0', at: Date.now() })));
    expect((await probe(true)).adapter).to.equal(null);
    await page.waitForTimeout(200);
    expect(warnings).to.have.length(3);
  });

  it('never reuses a verdict when an adapter exists', async () => {
    await open(webgpu);
    await page.evaluate(() => localStorage.clear());
    const profile = await page.evaluate(() => (globalThis as KitWindow).kit.probeDevice({ benchmark: false, reuseAbsentVerdict: true }));
    expect(profile.adapter).to.not.equal(null);
    expect(await page.evaluate(() => localStorage.getItem('kit:webgpu-absent'))).to.equal(null);
  });

  it('reads mobile from the user agent when userAgentData is missing', async () => {
    page = await newTestPage(plain, { userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36' });
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'userAgentData', { get: () => undefined }));
    await page.goto(`${server.origin}/`);
    await page.waitForFunction(() => (globalThis as { kitReady?: boolean }).kitReady === true);
    const profile = await page.evaluate(() => (globalThis as KitWindow).kit.probeDevice({ benchmark: false }));
    expect(profile.mobile).to.equal(true);
  });
});

describe('measureGflops', function () {
  this.timeout(60_000);
  let server: PageServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    server = await startPageServer(await bundlePage(ENTRY));
    browser = await launchChromium({ extraArgs: WEBGPU_FLAGS });
    page = await newTestPage(browser);
    await page.goto(`${server.origin}/`);
    await page.waitForFunction(() => (globalThis as { kitReady?: boolean }).kitReady === true);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('multiplies the matrices it times correctly', async () => {
    const { maxError, checked } = await page.evaluate(async () => {
      const kit = (globalThis as KitWindow).kit;
      const n = kit.MATMUL_SIZE;
      const device = await (await navigator.gpu.requestAdapter())!.requestDevice();
      const kernel = kit.createMatmulKernel(device);
      // Small integers keep every product and sum exact in f32.
      const a = Float32Array.from({ length: n * n }, (_, i) => ((i * 7) % 5) - 2);
      const b = Float32Array.from({ length: n * n }, (_, i) => ((i * 3) % 7) - 3);
      device.queue.writeBuffer(kernel.a, 0, a);
      device.queue.writeBuffer(kernel.b, 0, b);
      const read = device.createBuffer({ size: n * n * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      // A 4×4 grid of workgroups computes the 128×128 corner of C over the full inner dimension: every tile path of
      // the kernel runs, at a sixteenth of the cost of the whole product on a CPU rasteriser.
      const grid = 4;
      device.queue.submit([kernel.encode(1, grid)]);
      const enc = device.createCommandEncoder();
      enc.copyBufferToBuffer(kernel.c, 0, read, 0, n * n * 4);
      device.queue.submit([enc.finish()]);
      await read.mapAsync(GPUMapMode.READ);
      const c = new Float32Array(read.getMappedRange().slice(0));
      let maxError = 0;
      let checked = 0;
      for (let r = 0; r < grid * 32; r += 3) {
        for (let col = 0; col < grid * 32; col += 5) {
          let sum = 0;
          for (let k = 0; k < n; k++) sum += a[r * n + k]! * b[k * n + col]!;
          maxError = Math.max(maxError, Math.abs(sum - c[r * n + col]!));
          checked++;
        }
      }
      device.destroy();
      return { maxError, checked };
    });
    expect(checked).to.be.greaterThan(1000);
    expect(maxError).to.equal(0);
  });

  it('returns a positive GFLOP/s figure within its budget when the adapter can run the kernel', async () => {
    // SwiftShader compiles the kernel on the CPU for seconds, far past the 250 ms default, hence the long budget.
    const budgetMs = 20_000;
    const { gflops, ms } = await page.evaluate(async (budgetMs) => {
      const kit = (globalThis as KitWindow).kit;
      const adapter = (await navigator.gpu.requestAdapter())!;
      const t0 = performance.now();
      const gflops = await kit.measureGflops(adapter, { budgetMs });
      return { gflops, ms: performance.now() - t0 };
    }, budgetMs);
    expect(gflops).to.be.a('number').and.greaterThan(0);
    // A CPU rasteriser on two cores: nowhere near the 150 GFLOP/s core asks of even the 'small' tier.
    expect(gflops).to.be.lessThan(150);
    expect(ms).to.be.lessThan(budgetMs);
    console.log(`      SwiftShader matmul: ${gflops} GFLOP/s (${Math.round(ms)} ms with compile)`);
  });

  it('gives up with undefined when the budget is too short for a timed batch', async () => {
    const gflops = await page.evaluate(async () => (globalThis as KitWindow).kit.measureGflops((await navigator.gpu.requestAdapter())!, { budgetMs: 1 }));
    expect(gflops).to.equal(undefined);
  });
});
