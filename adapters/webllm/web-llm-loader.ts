import { KitError } from '../../core/errors/index.js';
import type { EngineLoader, LocalChatEngine } from './local-engine.js';
import { createProgressMapper } from './load-progress.js';

// web-llm's .d.ts files use extensionless relative imports, which NodeNext resolution cannot follow (its types come out
// as `any`), so the few shapes Kit relies on are declared here.
/** A WebLLM model record (`ModelRecord`): where its weights and compiled library live. */
export interface WebLlmModelRecord {
  readonly model: string;
  readonly model_id: string;
  readonly model_lib: string;
  readonly vram_required_MB?: number;
  readonly low_resource_required?: boolean;
  readonly required_features?: readonly string[];
  readonly overrides?: Readonly<Record<string, unknown>>;
  readonly [extra: string]: unknown;
}
/** WebLLM's `AppConfig`: the model list (and cache options) an engine may load from. */
export interface WebLlmAppConfig {
  readonly model_list: readonly WebLlmModelRecord[];
  readonly [extra: string]: unknown;
}
interface WebLlmModule {
  readonly prebuiltAppConfig: WebLlmAppConfig;
  readonly MLCEngine: new (config: { appConfig: WebLlmAppConfig; initProgressCallback: (report: { progress: number; timeElapsed: number; text: string }) => void }) => LocalChatEngine & {
    reload(modelId: string): Promise<void>;
  };
}

export interface WebLlmLoaderOptions {
  /** A complete WebLLM AppConfig (e.g. with your own model records); it must list the chosen model id. */
  readonly appConfig?: WebLlmAppConfig;
  /** Base URL of self-hosted weights and model libraries (layout in docs/local-inference.md); relative to the page. */
  readonly modelBaseUrl?: string;
}

// WebLLM's own error names that mean "this device cannot run it" rather than "the model did not load".
const WEBGPU_ERRORS = new Set(['WebGPUNotAvailableError', 'WebGPUNotFoundError', 'ShaderF16SupportError', 'FeatureSupportError']);

/**
 * The real loader: checks for a WebGPU adapter, then fetches WebLLM through a dynamic import (its own lazy chunk,
 * never in the SDK's main bundle) and loads the model. Throws KitError('webgpu_unavailable' | 'model_load_failed')
 * with the cause; on abort, stops the download and rejects with the signal's reason.
 */
export function createWebLlmLoader(options: WebLlmLoaderOptions = {}): EngineLoader {
  return async (modelId, { signal, onProgress }) => {
    await requireWebGpu();
    signal.throwIfAborted();
    let webllm: WebLlmModule;
    try {
      webllm = (await import(/* webpackChunkName: "webllm" */ '@mlc-ai/web-llm')) as unknown as WebLlmModule;
    } catch (cause) {
      throw new KitError('model_load_failed', 'The WebLLM runtime could not be downloaded.', { cause, details: { model: modelId } });
    }
    signal.throwIfAborted();

    let appConfig: WebLlmAppConfig;
    try {
      appConfig = options.appConfig ?? (options.modelBaseUrl ? selfHostedAppConfig(webllm.prebuiltAppConfig, modelId, options.modelBaseUrl, pageUrl()) : webllm.prebuiltAppConfig);
    } catch (cause) {
      throw new KitError('model_load_failed', `The local model ${modelId} is not in WebLLM's model list.`, { cause, details: { model: modelId } });
    }
    const progress = createProgressMapper();
    const engine = new webllm.MLCEngine({ appConfig, initProgressCallback: (report) => onProgress(progress(report)) });
    // unload() aborts WebLLM's in-flight fetches; reload() then returns quietly, so the signal is checked after it.
    const onAbort = (): void => void engine.unload().catch(() => undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await engine.reload(modelId);
    } catch (cause) {
      void engine.unload().catch(() => undefined);
      if (signal.aborted) throw signal.reason;
      throw loadError(modelId, cause, weightsOrigin(appConfig, modelId));
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    signal.throwIfAborted();
    return engine;
  };
}

/** Throws webgpu_unavailable unless the browser hands out a WebGPU adapter (checked before downloading WebLLM). */
async function requireWebGpu(): Promise<void> {
  const gpu = (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu;
  if (!gpu) throw new KitError('webgpu_unavailable', 'This browser has no WebGPU (navigator.gpu is missing), so the local model cannot run.');
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' }).catch((cause: unknown) => {
    throw new KitError('webgpu_unavailable', 'WebGPU refused to provide an adapter, so the local model cannot run.', { cause });
  });
  if (!adapter) throw new KitError('webgpu_unavailable', 'WebGPU returned no adapter (blocked or unsupported GPU), so the local model cannot run.');
}

function loadError(modelId: string, cause: unknown, origin: string | undefined): KitError {
  const name = cause instanceof Error ? cause.name : '';
  const reason = (cause instanceof Error ? cause.message : String(cause)).split('\n')[0]!.slice(0, 200);
  const details = { model: modelId, ...(origin && { origin }) };
  if (WEBGPU_ERRORS.has(name)) return new KitError('webgpu_unavailable', `WebGPU cannot run the local model ${modelId}: ${reason}`, { cause, details });
  // Cache.add() and fetch() reject with a bare TypeError for a 404, a CORS refusal or a dropped connection alike.
  if (name === 'TypeError' && /fetch|request failed|network|load failed/i.test(reason)) {
    return new KitError('model_load_failed', `The files of the local model ${modelId} could not be downloaded${origin ? ` from ${origin}` : ''} (missing, blocked or unreachable): ${reason}`, { cause, details });
  }
  return new KitError('model_load_failed', `The local model ${modelId} could not be loaded: ${reason}`, { cause, details });
}

/** Where the model's weights come from (an origin only: no path, no query). */
function weightsOrigin(appConfig: WebLlmAppConfig, modelId: string): string | undefined {
  const record = appConfig.model_list.find((r) => r.model_id === modelId);
  try {
    return record ? new URL(record.model, pageUrl()).origin : undefined;
  } catch {
    return undefined;
  }
}

function pageUrl(): string | undefined {
  return (globalThis as { location?: { href?: string } }).location?.href;
}

/**
 * WebLLM's prebuilt record for `modelId`, pointed at self-hosted files: weights under `<base>/<modelId>/` (a plain copy
 * of the model's Hugging Face repository) and the compiled library under `<base>/libs/<wasm file name>`.
 */
export function selfHostedAppConfig(prebuilt: WebLlmAppConfig, modelId: string, modelBaseUrl: string, baseHref?: string): WebLlmAppConfig {
  const record = prebuilt.model_list.find((r) => r.model_id === modelId);
  if (!record) throw new Error(`unknown model id ${modelId}`);
  const base = new URL(modelBaseUrl.endsWith('/') ? modelBaseUrl : `${modelBaseUrl}/`, baseHref);
  const libName = record.model_lib.slice(record.model_lib.lastIndexOf('/') + 1);
  const own: WebLlmModelRecord = {
    ...record,
    // WebLLM appends "resolve/main/" (Hugging Face's layout) to any model URL without a "/resolve/<x>/" segment;
    // "resolve/../" satisfies that test and normalises away, so the files are read from <base>/<modelId>/ itself.
    model: `${new URL(`${encodeURIComponent(modelId)}/`, base).href}resolve/../`,
    model_lib: new URL(`libs/${libName}`, base).href,
  };
  return { ...prebuilt, model_list: [own] };
}
