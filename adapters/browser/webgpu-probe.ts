import { isSoftwareAdapter, type DeviceProfile, type GpuAdapterProfile } from '../../core/mode/device-profile.js';

export interface ProbeOptions {
  /** Run the short WebGPU timing pass (Kit option `gpuBenchmark`). Skipped on fallback and other software adapters. */
  readonly benchmark: boolean;
  readonly signal?: AbortSignal;
  /** Wall-clock budget of the timing pass, pipeline compile included. Default BENCHMARK_BUDGET_MS. */
  readonly benchmarkBudgetMs?: number;
}

/** Default budget of the timing pass: long enough for a stable figure on a real GPU, short enough not to delay init. */
export const BENCHMARK_BUDGET_MS = 250;

type AdapterInfoLike = { vendor?: string; architecture?: string; description?: string; isFallbackAdapter?: boolean };
// Older Chromium (< 127) exposes `requestAdapterInfo()` and `adapter.isFallbackAdapter` instead of `adapter.info`.
type LegacyAdapter = GPUAdapter & { requestAdapterInfo?: () => Promise<AdapterInfoLike>; isFallbackAdapter?: boolean };
type NavigatorLike = { gpu?: GPU; deviceMemory?: number; userAgent?: string; userAgentData?: { mobile?: boolean } };

/**
 * Describes the visitor's device for core's selectMode: the WebGPU adapter (or null), device memory, mobile, and,
 * when `benchmark` is on, a measured GFLOP/s. Never throws: anything that fails reads as "unknown" or "no WebGPU".
 */
export async function probeDevice(options: ProbeOptions): Promise<DeviceProfile> {
  const nav = (globalThis as { navigator?: NavigatorLike }).navigator;
  const deviceMemoryGb = typeof nav?.deviceMemory === 'number' && nav.deviceMemory > 0 ? nav.deviceMemory : undefined;
  const mobile = isMobile(nav);
  const base = { ...(deviceMemoryGb !== undefined && { deviceMemoryGb }), ...(mobile !== undefined && { mobile }) };

  let adapter: GPUAdapter | null = null;
  try {
    // WebLLM asks for the high-performance adapter too, so the probe describes the GPU the model would run on.
    adapter = nav?.gpu && !options.signal?.aborted ? await nav.gpu.requestAdapter({ powerPreference: 'high-performance' }) : null;
  } catch {
    adapter = null;
  }
  if (!adapter) return { adapter: null, ...base };

  const profile = await describeAdapter(adapter as LegacyAdapter);
  // A CPU rasteriser is "no GPU" for core whatever it measures, and its dispatches cost the visitor real CPU time.
  if (!options.benchmark || isSoftwareAdapter(profile) || options.signal?.aborted) return { adapter: profile, ...base };
  // The timing pass (its WGSL kernel included) is its own chunk: devices without a hardware GPU never download it.
  const { measureGflops } = await import(/* webpackChunkName: "kit-gpu-benchmark" */ './webgpu-benchmark.js');
  const benchmarkGflops = await measureGflops(adapter, { budgetMs: options.benchmarkBudgetMs ?? BENCHMARK_BUDGET_MS, signal: options.signal });
  return { adapter: profile, ...(benchmarkGflops !== undefined && { benchmarkGflops }), ...base };
}

async function describeAdapter(adapter: LegacyAdapter): Promise<GpuAdapterProfile> {
  let info: AdapterInfoLike = {};
  try {
    info = (adapter.info as AdapterInfoLike | undefined) ?? (await adapter.requestAdapterInfo?.()) ?? {};
  } catch {
    info = {};
  }
  const text = (s: unknown): string | undefined => (typeof s === 'string' && s !== '' ? s : undefined);
  const vendor = text(info.vendor);
  const architecture = text(info.architecture);
  const description = text(info.description);
  return {
    isFallback: info.isFallbackAdapter === true || adapter.isFallbackAdapter === true,
    ...(vendor && { vendor }),
    ...(architecture && { architecture }),
    ...(description && { description }),
    maxBufferSize: Number(adapter.limits.maxBufferSize),
    maxStorageBufferBindingSize: Number(adapter.limits.maxStorageBufferBindingSize),
    shaderF16: adapter.features.has('shader-f16'),
  };
}

function isMobile(nav: NavigatorLike | undefined): boolean | undefined {
  if (typeof nav?.userAgentData?.mobile === 'boolean') return nav.userAgentData.mobile;
  if (typeof nav?.userAgent !== 'string') return undefined;
  return /Mobi|Android|iPhone|iPod/i.test(nav.userAgent);
}
