import { createCitationMarkerParser } from '../../core/answer/citation-markers.js';
import { buildGroundedMessages } from '../../core/answer/grounded-prompt.js';
import { isKitError, KitError } from '../../core/errors/index.js';
import type { InferenceEvent, InferencePort, InferenceRequest } from '../../core/ports/inference.port.js';

/** What Chrome's `LanguageModel.availability()` says (the Prompt API, webmachinelearning/prompt-api). */
export type LanguageModelAvailability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

/** One prompt of the Prompt API (`initialPrompts`). */
export interface LanguageModelPrompt {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** A Prompt API session: Kit uses one per question (the sources change with every question). */
export interface LanguageModelSession {
  promptStreaming(input: string, options?: { signal?: AbortSignal }): AsyncIterable<string> | ReadableStream<string>;
  destroy(): void;
  /** Tokens the session accepts (`inputQuota`; older Chrome: `maxTokens`). */
  readonly inputQuota?: number;
  readonly maxTokens?: number;
}

/** The part of the `LanguageModel` global Kit uses; a fake with this shape stands in for it in tests. */
export interface LanguageModelApi {
  availability(options?: Record<string, unknown>): Promise<LanguageModelAvailability>;
  create(options?: {
    initialPrompts?: readonly LanguageModelPrompt[];
    signal?: AbortSignal;
    monitor?(m: EventTarget): void;
    expectedInputs?: readonly { type: 'text'; languages?: readonly string[] }[];
    expectedOutputs?: readonly { type: 'text'; languages?: readonly string[] }[];
  }): Promise<LanguageModelSession>;
}

/** Options of the built-in model engine. */
export interface PromptApiInferenceOptions {
  /** The Prompt API; default `globalThis.LanguageModel`. */
  readonly api?: LanguageModelApi;
  /**
   * Start or wait for the model's download when Chrome has not got it yet ('downloadable' / 'downloading').
   * Chrome starts a download only after a user gesture; without one, create() fails and Kit falls back.
   */
  readonly allowDownload: boolean;
  /** Download progress, loaded/total in [0, 1] (Chrome reports a fraction). */
  readonly onProgress?: (p: { loaded: number; total: number }) => void;
  readonly signal?: AbortSignal;
  /** Answer length budgeted in the prompt. Default 512 tokens. */
  readonly maxOutputTokens?: number;
}

/** The model id Kit reports for Chrome's built-in model (Gemini Nano; Chrome does not expose a version). */
export const CHROME_BUILT_IN_MODEL = 'chrome-built-in';
/** Context window assumed when the session does not say (Gemini Nano in Chrome accepts about 6,000 tokens). */
export const DEFAULT_INPUT_QUOTA = 6_000;
const OUTPUT_LANGUAGES = ['en', 'es', 'ja'];

/** The Prompt API's global in this context, or null (every browser but Chrome, and Chrome without it). */
export function findLanguageModel(): LanguageModelApi | null {
  const api = (globalThis as { LanguageModel?: unknown }).LanguageModel as LanguageModelApi | undefined;
  return api && typeof api.availability === 'function' && typeof api.create === 'function' ? api : null;
}

/**
 * Chrome's built-in model (Gemini Nano through the Prompt API) as an InferencePort: no download by Kit, nothing
 * leaves the device. Resolves once a session can be created; rejects with KitError('model_load_failed') when the
 * API is missing or says 'unavailable', when a download is needed and not allowed, or when Chrome refuses to
 * create a session (no user gesture for a download, not enough disk space, an enterprise policy…), so the caller
 * falls back to the next engine.
 */
export async function createPromptApiInference(options: PromptApiInferenceOptions): Promise<InferencePort> {
  const api = options.api ?? findLanguageModel();
  if (!api) throw new KitError('model_load_failed', "Chrome's built-in model (the Prompt API) is not available in this browser.");
  const expected = { expectedOutputs: [{ type: 'text' as const, languages: OUTPUT_LANGUAGES }] };
  let availability: LanguageModelAvailability;
  try {
    availability = await api.availability(expected);
  } catch (cause) {
    throw new KitError('model_load_failed', "Chrome's built-in model could not be queried.", { cause });
  }
  if (availability === 'unavailable') throw new KitError('model_load_failed', "Chrome's built-in model is unavailable on this device.");
  if (availability !== 'available' && !options.allowDownload) {
    throw new KitError('model_load_failed', `Chrome's built-in model is ${availability}; Kit does not start that download in 'auto' mode.`);
  }
  let quota = DEFAULT_INPUT_QUOTA;
  try {
    // The first session starts (or joins) Chrome's download and reports its progress; it also tells the quota.
    const first = await api.create({
      ...expected,
      ...(options.signal ? { signal: options.signal } : {}),
      monitor(m) {
        m.addEventListener('downloadprogress', (e) => {
          const loaded = Number((e as Event & { loaded?: number }).loaded);
          if (Number.isFinite(loaded)) options.onProgress?.({ loaded: Math.min(1, Math.max(0, loaded)), total: 1 });
        });
      },
    });
    quota = first.inputQuota ?? first.maxTokens ?? DEFAULT_INPUT_QUOTA;
    first.destroy();
  } catch (cause) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw new KitError('model_load_failed', `Chrome's built-in model could not start (${cause instanceof Error ? cause.name : 'error'}).`, { cause });
  }
  const maxOutputTokens = options.maxOutputTokens ?? 512;

  async function* answer(request: InferenceRequest): AsyncGenerator<InferenceEvent> {
    const { signal } = request;
    signal?.throwIfAborted();
    const messages = buildGroundedMessages(request, { contextWindowTokens: quota, maxOutputTokens });
    const question = messages.pop()!;
    const parser = createCitationMarkerParser(request.sources.length);
    let session: LanguageModelSession | null = null;
    try {
      session = await api!.create({ ...expected, initialPrompts: messages, ...(signal ? { signal } : {}) });
      // The `LanguageModel` global (Chrome 138+) streams new text only (the older `ai.languageModel` streamed the whole
      // answer so far, and is not supported).
      for await (const piece of iterate(session.promptStreaming(question.content, signal ? { signal } : {}))) {
        if (signal?.aborted) break;
        if (piece) yield* parser.push(piece);
      }
    } catch (cause) {
      if (signal?.aborted) throw signal.reason;
      if (isKitError(cause)) throw cause;
      throw new KitError('model_load_failed', `Chrome's built-in model failed while answering (${cause instanceof Error ? cause.name : 'error'}).`, { cause });
    } finally {
      session?.destroy();
    }
    signal?.throwIfAborted();
    yield* parser.end();
    yield { type: 'done', finishReason: 'stop', usage: { inputTokens: 0, outputTokens: 0 } };
  }

  return { model: CHROME_BUILT_IN_MODEL, answer };
}

async function* iterate(stream: AsyncIterable<string> | ReadableStream<string>): AsyncGenerator<string> {
  if (Symbol.asyncIterator in stream) {
    yield* stream as AsyncIterable<string>;
    return;
  }
  const reader = (stream as ReadableStream<string>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
