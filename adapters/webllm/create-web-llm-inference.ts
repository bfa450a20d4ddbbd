import type { ModelSize } from '../../core/config/types.js';
import { isKitError, KitError } from '../../core/errors/index.js';
import type { InferenceEvent, InferencePort, InferenceRequest } from '../../core/ports/inference.port.js';
import { createCitationMarkerParser } from '../../core/answer/citation-markers.js';
import { acquireEngine, evictEngine } from './engine-cache.js';
import { buildGroundedMessages } from '../../core/answer/grounded-prompt.js';
import type { EngineLoader, LoadProgress, LocalChatEngine } from './local-engine.js';
import { WEBLLM_MODELS, webLlmModelId } from './model-catalog.js';
import { createWebLlmLoader, type WebLlmLoaderOptions } from './web-llm-loader.js';

export interface WebLlmInferenceOptions extends WebLlmLoaderOptions {
  readonly size: ModelSize;
  /** The adapter has `shader-f16` (from probeDevice): picks the q4f16 build, else q4f32. */
  readonly shaderF16: boolean;
  readonly onProgress?: (progress: LoadProgress) => void;
  /** Aborts this caller's wait for the model (the download stops when no other caller waits for it). */
  readonly signal?: AbortSignal;
  /** Default answer length when a request gives none. Default 512 tokens. */
  readonly maxOutputTokens?: number;
  /** Sampling temperature. Default 0.2: grounded answers should stick to the sources. */
  readonly temperature?: number;
  /** Replaces the WebLLM loader (tests, or another runtime behind the same engine shape). */
  readonly loader?: EngineLoader;
}

/** A local engine is also told apart from remote ones by its size. */
export interface LocalInferencePort extends InferencePort {
  readonly size: ModelSize;
}

export const DEFAULT_MAX_OUTPUT_TOKENS = 512;
export const DEFAULT_TEMPERATURE = 0.2;

const ports = new WeakMap<LocalChatEngine, LocalInferencePort>();

/**
 * Loads (or reuses) the WebLLM model for `size` and resolves with an InferencePort that answers with it. Repeated
 * calls for the same model return the same port and engine. Rejects with KitError('webgpu_unavailable' |
 * 'model_load_failed') when the device or the model fails, or with the signal's reason when aborted.
 */
export async function createWebLlmInference(options: WebLlmInferenceOptions): Promise<LocalInferencePort> {
  const modelId = webLlmModelId(options.size, options.shaderF16);
  const loader = options.loader ?? createWebLlmLoader(options);
  const engine = await acquireEngine(modelId, loader, { signal: options.signal, onProgress: options.onProgress });
  let port = ports.get(engine);
  if (!port) {
    port = createPort(modelId, options, engine);
    ports.set(engine, port);
  }
  return port;
}

function createPort(modelId: string, options: WebLlmInferenceOptions, engine: LocalChatEngine): LocalInferencePort {
  const contextWindowTokens = WEBLLM_MODELS[options.size].contextWindowTokens;
  const defaultMaxTokens = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const temperature = options.temperature ?? DEFAULT_TEMPERATURE;
  // The engine runs one generation at a time and interruptGenerate() stops whichever is running, so asks queue here:
  // aborting a queued ask must not interrupt the one in progress.
  let queue: Promise<void> = Promise.resolve();
  let broken: KitError | null = null;

  async function* answer(request: InferenceRequest): AsyncGenerator<InferenceEvent> {
    const { signal } = request;
    signal?.throwIfAborted();
    const turn = queue;
    let release!: () => void;
    const finished = new Promise<void>((r) => (release = r));
    queue = turn.then(() => finished);
    try {
      await untilOrAbort(turn, signal);
      if (broken) throw broken;
      const maxTokens = request.maxOutputTokens ?? defaultMaxTokens;
      const messages = buildGroundedMessages(request, { contextWindowTokens, maxOutputTokens: maxTokens });
      const onAbort = (): void => void engine.interruptGenerate();
      signal?.addEventListener('abort', onAbort, { once: true });
      const parser = createCitationMarkerParser(request.sources.length);
      let finishReason: 'stop' | 'length' = 'stop';
      let usage = { inputTokens: 0, outputTokens: 0 };
      try {
        const stream = await engine.chat.completions.create({ messages, stream: true, stream_options: { include_usage: true }, max_tokens: maxTokens, temperature });
        for await (const chunk of stream) {
          if (signal?.aborted) break;
          const choice = chunk.choices[0];
          const text = choice?.delta?.content;
          if (text) yield* parser.push(text);
          if (choice?.finish_reason === 'length') finishReason = 'length';
          if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
        }
      } catch (cause) {
        if (signal?.aborted) throw signal.reason;
        throw runFailure(cause);
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
      signal?.throwIfAborted();
      yield* parser.end();
      yield { type: 'done', finishReason, usage };
    } finally {
      release();
    }
  }

  function runFailure(cause: unknown): KitError {
    if (isKitError(cause)) return cause as KitError;
    // A failed generation usually means a lost GPU device; the engine is unusable, so the next init loads afresh.
    broken = new KitError('model_load_failed', `The local model ${modelId} failed while answering: ${cause instanceof Error ? cause.name : 'error'}.`, { cause, details: { model: modelId } });
    void evictEngine(modelId, engine);
    return broken;
  }

  return { model: modelId, size: options.size, answer };
}

function untilOrAbort(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, reject);
  });
}

export { unloadAllEngines as unloadWebLlmEngines } from './engine-cache.js';
