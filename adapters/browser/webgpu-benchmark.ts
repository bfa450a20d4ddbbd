// The WebGPU timing pass of probeDevice (adapters/browser/webgpu-probe.ts), a lazy chunk of its own.

/** Side of the square f32 matrices the timing pass multiplies (2·N³ ≈ 268 MFLOP per dispatch). */
export const MATMUL_SIZE = 512;
/** A timed batch shorter than this is dominated by submit latency, so the pass doubles it until it is longer. */
export const MIN_BATCH_MS = 25;
/** The pass keeps the best of this many batches of at least MIN_BATCH_MS (or stops earlier at the budget). */
export const TIMED_BATCHES = 3;

/**
 * Register-blocked tiled matmul C = A·B for N×N f32 matrices: each 8×8 workgroup computes a 32×32 tile of C through
 * workgroup memory, each invocation a 4×4 block. A naive kernel would measure memory latency rather than the
 * arithmetic throughput a model's matmuls get; this one gets within a small factor of what WebLLM's kernels reach.
 */
export const MATMUL_WGSL = /* wgsl */ `
const N : u32 = ${MATMUL_SIZE}u;
const TILE : u32 = 32u;
@group(0) @binding(0) var<storage, read> A : array<f32>;
@group(0) @binding(1) var<storage, read> B : array<f32>;
@group(0) @binding(2) var<storage, read_write> C : array<f32>;
var<workgroup> As : array<f32, 1024>;
var<workgroup> Bs : array<f32, 1024>;

@compute @workgroup_size(8, 8)
fn main(@builtin(workgroup_id) wg : vec3<u32>, @builtin(local_invocation_id) lid : vec3<u32>) {
  let t = lid.y * 8u + lid.x;
  var acc : array<f32, 16>;
  for (var k0 = 0u; k0 < N; k0 = k0 + TILE) {
    for (var i = 0u; i < 16u; i = i + 1u) {
      let idx = i * 64u + t;
      let r = idx / TILE;
      let c = idx % TILE;
      As[idx] = A[(wg.y * TILE + r) * N + k0 + c];
      Bs[idx] = B[(k0 + r) * N + wg.x * TILE + c];
    }
    workgroupBarrier();
    for (var k = 0u; k < TILE; k = k + 1u) {
      let b = vec4<f32>(Bs[k * TILE + lid.x * 4u], Bs[k * TILE + lid.x * 4u + 1u], Bs[k * TILE + lid.x * 4u + 2u], Bs[k * TILE + lid.x * 4u + 3u]);
      for (var i = 0u; i < 4u; i = i + 1u) {
        let a = As[(lid.y * 4u + i) * TILE + k];
        acc[i * 4u] = acc[i * 4u] + a * b.x;
        acc[i * 4u + 1u] = acc[i * 4u + 1u] + a * b.y;
        acc[i * 4u + 2u] = acc[i * 4u + 2u] + a * b.z;
        acc[i * 4u + 3u] = acc[i * 4u + 3u] + a * b.w;
      }
    }
    workgroupBarrier();
  }
  for (var i = 0u; i < 4u; i = i + 1u) {
    for (var j = 0u; j < 4u; j = j + 1u) {
      C[(wg.y * TILE + lid.y * 4u + i) * N + wg.x * TILE + lid.x * 4u + j] = acc[i * 4u + j];
    }
  }
}`;

/** Workgroups per side of a full dispatch; each workgroup computes one 32×32 tile of C (2·32·32·N FLOP). */
export const MATMUL_GRID = MATMUL_SIZE / 32;

/**
 * The matmul kernel bound to fresh buffers: `encode(times, grid)` records `times` dispatches of grid×grid workgroups
 * (grid = MATMUL_GRID computes all of C; smaller grids compute its top-left corner, for cheap warm-ups).
 */
export function createMatmulKernel(device: GPUDevice): { a: GPUBuffer; b: GPUBuffer; c: GPUBuffer; encode(times: number, grid?: number): GPUCommandBuffer; destroy(): void } {
  const bytes = MATMUL_SIZE * MATMUL_SIZE * 4;
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
  const [a, b, c] = [device.createBuffer({ size: bytes, usage }), device.createBuffer({ size: bytes, usage }), device.createBuffer({ size: bytes, usage })];
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code: MATMUL_WGSL }), entryPoint: 'main' } });
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [a, b, c].map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
  return {
    a,
    b,
    c,
    encode(times: number, grid = MATMUL_GRID): GPUCommandBuffer {
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroup);
      for (let i = 0; i < times; i++) pass.dispatchWorkgroups(grid, grid);
      pass.end();
      return encoder.finish();
    },
    destroy(): void {
      for (const buffer of [a, b, c]) buffer.destroy();
    },
  };
}

/**
 * Times the matmul kernel on `adapter` within `budgetMs` (probeDevice passes BENCHMARK_BUDGET_MS) and returns GFLOP/s, or undefined when WebGPU fails or the
 * budget ends before one timed batch. Runs on any adapter (probeDevice is the one that skips software ones).
 */
export async function measureGflops(adapter: GPUAdapter, options: { budgetMs: number; signal?: AbortSignal }): Promise<number | undefined> {
  const { budgetMs } = options;
  const start = performance.now();
  const left = (): number => budgetMs - (performance.now() - start);
  let device: GPUDevice | undefined;
  try {
    device = await adapter.requestDevice();
    device.lost.catch(() => undefined);
    const kernel = createMatmulKernel(device);
    const flopsPerTile = 2 * 32 * 32 * MATMUL_SIZE;
    const run = async (times: number, grid: number): Promise<number | undefined> => {
      const t0 = performance.now();
      device!.queue.submit([kernel.encode(times, grid)]);
      const finished = await withTimeout(device!.queue.onSubmittedWorkDone(), Math.max(0, left()));
      return finished ? performance.now() - t0 : undefined;
    };
    // One workgroup compiles the pipeline and warms caches; it is not timed.
    if ((await run(1, 1)) === undefined) return undefined;
    // Work grows from one tile: first the grid (×4 tiles a step) up to a full dispatch, then the number of dispatches
    // (×2), until a batch outlasts submit latency. Growing from small keeps a slow GPU inside the budget: work already
    // submitted cannot be cancelled.
    let best: number | undefined;
    let rough: number | undefined;
    let grid = 2;
    let times = 1;
    let timed = 0;
    while (left() > 0 && timed < TIMED_BATCHES && !options.signal?.aborted) {
      const ms = await run(times, grid);
      if (ms === undefined) break;
      const tiles = times * grid * grid;
      const gflops = (flopsPerTile * tiles) / (ms / 1000) / 1e9;
      if (ms >= MIN_BATCH_MS) {
        best = Math.max(best ?? 0, gflops);
        timed++;
      }
      else rough = gflops; // latency-bound, so an underestimate: used only when no batch got long enough
      const [nextTimes, nextGrid] = ms >= MIN_BATCH_MS ? [times, grid] : grid < MATMUL_GRID ? [times, grid * 2] : [times * 2, grid];
      if ((ms * nextTimes * nextGrid * nextGrid) / tiles > left()) break;
      [times, grid] = [nextTimes, nextGrid];
    }
    kernel.destroy();
    const result = best ?? rough;
    return result === undefined ? undefined : Math.round(result * 10) / 10;
  } catch {
    return undefined;
  } finally {
    device?.destroy();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(false);
      },
    );
  });
}
