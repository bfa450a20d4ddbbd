import { isSoftwareAdapter, type DeviceProfile, type GpuAdapterProfile } from '../../core/mode/device-profile.js';

export interface ProbeOptions {
  /** Run the short WebGPU timing pass (Kit option `gpuBenchmark`). Skipped on fallback and other software adapters. */
  readonly benchmark: boolean;
  readonly signal?: AbortSignal;
  /** Wall-clock budget of the timing pass, pipeline compile included. Default BENCHMARK_BUDGET_MS. */
  readonly benchmarkBudgetMs?: number;
  /**
   * Trust a recent "no adapter" verdict of this browser (stored for ABSENT_VERDICT_TTL_MS) instead of asking again.
   * Chromium logs the warning "No available adapters." on every requestAdapter() that finds none, so without this
   * every page of a site would show a warning for an expected outcome. Use it when a missing adapter only means
   * "answer remotely" (mode 'auto'); a forced local mode asks every time.
   */
  readonly reuseAbsentVerdict?: boolean;
}

/** How long a "no WebGPU adapter" verdict is reused (default 7 days; a browser update may bring WebGPU). */
export const ABSENT_VERDICT_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** localStorage key of that verdict (per origin, as localStorage is): `{ ua, at }`. */
export const ABSENT_VERDICT_KEY = 'kit:webgpu-absent';

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

  if (!nav?.gpu || options.signal?.aborted) return { adapter: null, ...base };
  if (options.reuseAbsentVerdict && absentRecently(nav)) return { adapter: null, ...base };
  let adapter: GPUAdapter | null = null;
  try {
    // WebLLM asks for the high-performance adapter too, so the probe describes the GPU the model would run on.
    adapter = await nav.gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch {
    adapter = null;
  }
  if (!adapter) {
    rememberAbsent(nav);
    return { adapter: null, ...base };
  }

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

// localStorage may be missing or throw (sandboxed frames, blocked storage): then the probe simply asks each time.
function storage(): Storage | null {
  try {
    return (globalThis as { localStorage?: Storage }).localStorage ?? null;
  } catch {
    return null;
  }
}

function absentRecently(nav: NavigatorLike): boolean {
  try {
    const raw = storage()?.getItem(ABSENT_VERDICT_KEY);
    if (!raw) return false;
    const v = JSON.parse(raw) as { ua?: unknown; at?: unknown };
    const age = Date.now() - Number(v.at);
    return v.ua === nav.userAgent && age >= 0 && age < ABSENT_VERDICT_TTL_MS;
  } catch {
    return false;
  }
}

function rememberAbsent(nav: NavigatorLike): void {
  try {
    storage()?.setItem(ABSENT_VERDICT_KEY, JSON.stringify({ ua: nav.userAgent ?? '', at: Date.now() }));
  } catch {
    // storage full or blocked: nothing to remember
  }
}

function isMobile(nav: NavigatorLike | undefined): boolean | undefined {
  if (typeof nav?.userAgentData?.mobile === 'boolean') return nav.userAgentData.mobile;
  if (typeof nav?.userAgent !== 'string') return undefined;
  return /Mobi|Android|iPhone|iPod/i.test(nav.userAgent);
}
