/** What the SDK learned about the visitor's device (adapters/browser probes it; core only reads it). */
export interface GpuAdapterProfile {
  /** `GPUAdapter.isFallbackAdapter` / `info.isFallbackAdapter`: a software implementation. */
  readonly isFallback: boolean;
  /** `GPUAdapterInfo` strings, used to spot software renderers that do not say they are fallbacks. */
  readonly vendor?: string;
  readonly architecture?: string;
  readonly description?: string;
  /** Bytes. `maxBufferSize` and `maxStorageBufferBindingSize` bound the largest weight tensor a model can use. */
  readonly maxBufferSize: number;
  readonly maxStorageBufferBindingSize: number;
  readonly shaderF16: boolean;
}

export interface DeviceProfile {
  /** null when `navigator.gpu` is missing or `requestAdapter()` returned null. */
  readonly adapter: GpuAdapterProfile | null;
  /** Result of the optional WebGPU timing pass, in GFLOP/s; undefined when gpuBenchmark is off or it failed. */
  readonly benchmarkGflops?: number;
  /** `navigator.deviceMemory` in GB (browsers cap it at 8); undefined when unknown. */
  readonly deviceMemoryGb?: number;
  readonly mobile?: boolean;
}

const SOFTWARE_RENDERERS = /swiftshader|llvmpipe|lavapipe|softpipe|software|microsoft basic render/i;

/** True when the adapter is a CPU implementation: it can run WebGPU, but far too slowly for a language model. */
export function isSoftwareAdapter(adapter: GpuAdapterProfile): boolean {
  if (adapter.isFallback) return true;
  return [adapter.vendor, adapter.architecture, adapter.description].some((s) => typeof s === 'string' && SOFTWARE_RENDERERS.test(s));
}
