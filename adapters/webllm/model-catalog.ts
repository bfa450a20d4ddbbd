import type { ModelSize } from '../../core/config/types.js';

/** One WebLLM prebuilt model Kit runs for a size, in both weight formats. */
export interface WebLlmModelChoice {
  /** q4f16_1: 4-bit weights, f16 activations; needs the adapter's `shader-f16` feature. */
  readonly f16: string;
  /** q4f32_1: the same weights with f32 activations, for adapters without `shader-f16` (more VRAM, a bit slower). */
  readonly f32: string;
  /** `vram_required_MB` from web-llm 0.2.86's prebuiltAppConfig, for the docs and the tier thresholds. */
  readonly vramMb: { readonly f16: number; readonly f32: number };
  /** The model's KV-cache window in tokens (the prebuilt `context_window_size`); the prompt is trimmed to fit it. */
  readonly contextWindowTokens: number;
}

/**
 * Model id per size (CONTRACT §8: nano ≈ 0.4 GB VRAM, small ≈ 1 GB, balanced ≈ 2 GB, quality ≈ 4 GB). Ids and VRAM are
 * copied from `prebuiltAppConfig` of @mlc-ai/web-llm 0.2.86, so the SDK's main bundle need not load WebLLM to read them;
 * test/adapters/webllm/model-catalog.test.ts checks them against the installed package. Why these: docs/local-inference.md.
 */
export const WEBLLM_MODELS: Readonly<Record<ModelSize, WebLlmModelChoice>> = Object.freeze({
  nano: { f16: 'SmolLM2-360M-Instruct-q4f16_1-MLC', f32: 'SmolLM2-360M-Instruct-q4f32_1-MLC', vramMb: { f16: 376.06, f32: 579.61 }, contextWindowTokens: 4096 },
  small: { f16: 'Llama-3.2-1B-Instruct-q4f16_1-MLC', f32: 'Llama-3.2-1B-Instruct-q4f32_1-MLC', vramMb: { f16: 879.04, f32: 1128.82 }, contextWindowTokens: 4096 },
  balanced: { f16: 'Llama-3.2-3B-Instruct-q4f16_1-MLC', f32: 'Llama-3.2-3B-Instruct-q4f32_1-MLC', vramMb: { f16: 2263.69, f32: 2951.51 }, contextWindowTokens: 4096 },
  quality: { f16: 'Phi-4-mini-instruct-q4f16_1-MLC', f32: 'Phi-4-mini-instruct-q4f32_1-MLC', vramMb: { f16: 3437.58, f32: 4220.59 }, contextWindowTokens: 4096 },
});

/** The WebLLM model id for a size: the f16 build when the adapter has `shader-f16`, else the f32 build. */
export function webLlmModelId(size: ModelSize, shaderF16: boolean): string {
  const choice = WEBLLM_MODELS[size];
  return shaderF16 ? choice.f16 : choice.f32;
}

/** The size and format a catalog model id belongs to, or null for an id Kit does not pick. */
export function catalogEntryOf(modelId: string): { size: ModelSize; choice: WebLlmModelChoice } | null {
  for (const [size, choice] of Object.entries(WEBLLM_MODELS) as [ModelSize, WebLlmModelChoice][]) {
    if (choice.f16 === modelId || choice.f32 === modelId) return { size, choice };
  }
  return null;
}
