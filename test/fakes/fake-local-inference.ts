/**
 * A fake local model behind Kit's real local-inference adapter. No machine this project runs on has a GPU or the
 * hundreds of MB of model weights WebLLM would download, so tests that need a *working* local model use this engine:
 * it has WebLLM's engine shape (chat.completions.create streaming chunks, interruptGenerate, unload) and streams a
 * scripted answer with [n] citation markers. Everything around it (prompt, citation parsing, usage, abort, queueing,
 * the one-engine-per-page cache, progress) is the production code of adapters/webllm. The real WebLLM path is tested
 * separately in Chromium, where it must fail cleanly (test/adapters/webllm/web-llm-chromium.test.ts).
 * Browser-safe (no Node built-ins), so the SDK's Chromium e2e can bundle it too.
 */
import type { ModelSize } from '../../core/config/types.js';
import type { InferenceRequest } from '../../core/ports/inference.port.js';
import { createWebLlmInference, type LocalInferencePort } from '../../adapters/webllm/create-web-llm-inference.js';
import type { ChatChunk, ChatRequest, EngineLoader, LoadProgress, LocalChatEngine } from '../../adapters/webllm/local-engine.js';
import { createProgressMapper } from '../../adapters/webllm/load-progress.js';

export type FakeScript = string | ((request: ChatRequest) => string);

export interface FakeEngineOptions {
  /** The answer to stream; default: the first sentence of source [1] followed by " [1]". */
  readonly answer?: FakeScript;
  /** Pause between streamed pieces (lets tests abort mid-answer). Default 0. */
  readonly pieceDelayMs?: number;
  /** Thrown by chat.completions.create, to simulate a model that fails while running (e.g. a lost GPU device). */
  readonly failWith?: unknown;
}

export interface FakeLocalEngine extends LocalChatEngine {
  /** Every chat request the engine received, in order. */
  readonly requests: ChatRequest[];
  readonly interrupts: number;
  readonly unloaded: boolean;
}

/** The default script: repeats the start of the first source and cites it, like a grounded answer would. */
export function defaultFakeAnswer(request: ChatRequest): string {
  const system = request.messages[0]?.content ?? '';
  const m = /\[1\][^\n]*\nURL: [^\n]*\n([^\n]+)/.exec(system);
  if (!m) return 'I do not know.';
  const sentence = /^.*?[.!?](?=\s|$)/.exec(m[1] as string)?.[0] ?? (m[1] as string).slice(0, 120);
  return `${sentence} [1]`;
}

/** Splits text into word-sized pieces the way a tokenizer stream arrives (markers may be split across pieces). */
function pieces(text: string): string[] {
  return text.match(/\s*\S{1,3}/g) ?? [];
}

/** A WebLLM-shaped engine that streams a scripted answer; interruptGenerate() ends the stream with finish 'abort'. */
export function createFakeLocalEngine(options: FakeEngineOptions = {}): FakeLocalEngine {
  const requests: ChatRequest[] = [];
  let interruptFlag = false;
  let interrupts = 0;
  let unloaded = false;
  const engine: FakeLocalEngine = {
    requests,
    get interrupts() {
      return interrupts;
    },
    get unloaded() {
      return unloaded;
    },
    interruptGenerate() {
      interrupts++;
      interruptFlag = true;
    },
    async unload() {
      unloaded = true;
    },
    chat: {
      completions: {
        async create(request: ChatRequest): Promise<AsyncIterable<ChatChunk>> {
          if (unloaded) throw new Error('EngineNotLoadedError: the fake engine was unloaded');
          if (options.failWith !== undefined) throw options.failWith;
          requests.push(request);
          interruptFlag = false; // like WebLLM: an interrupt applies to the generation running when it was raised
          const script = options.answer ?? defaultFakeAnswer;
          const parts = pieces(typeof script === 'function' ? script(request) : script);
          const promptTokens = Math.ceil(request.messages.reduce((n, m) => n + m.content.length, 0) / 4);
          return (async function* stream(): AsyncGenerator<ChatChunk> {
            let sent = 0;
            let finish = 'stop';
            for (const part of parts) {
              if (options.pieceDelayMs) await new Promise((r) => setTimeout(r, options.pieceDelayMs));
              if (interruptFlag) {
                finish = 'abort';
                break;
              }
              if (sent >= request.max_tokens) {
                finish = 'length';
                break;
              }
              sent++;
              yield { choices: [{ delta: { content: part }, finish_reason: null }] };
            }
            yield { choices: [{ delta: { content: '' }, finish_reason: finish }] };
            yield { choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: sent } };
          })();
        },
      },
    },
  };
  return engine;
}

export interface FakeLoaderOptions {
  /** The engine the loader resolves with (default: a new createFakeLocalEngine()). */
  readonly engine?: LocalChatEngine | (() => LocalChatEngine);
  /** Number of download steps reported before "Loading model from cache". Default 4. */
  readonly steps?: number;
  /** Pause between progress reports. Default 0. */
  readonly stepDelayMs?: number;
  /** Rejects the load with this after the first step (e.g. a KitError('model_load_failed')). */
  readonly failWith?: unknown;
}

export interface FakeLoader extends EngineLoader {
  /** Model ids the loader was asked to load, in order. */
  readonly loads: string[];
  /** Signals it was handed, to check that an abort reached it. */
  readonly signals: AbortSignal[];
}

/** An EngineLoader that reports WebLLM-shaped progress, honours abort, and resolves with a fake engine. */
export function createFakeLocalLoader(options: FakeLoaderOptions = {}): FakeLoader {
  const loads: string[] = [];
  const signals: AbortSignal[] = [];
  const steps = options.steps ?? 4;
  const loader = async (modelId: string, { signal, onProgress }: { signal: AbortSignal; onProgress: (p: LoadProgress) => void }): Promise<LocalChatEngine> => {
    loads.push(modelId);
    signals.push(signal);
    const map = createProgressMapper();
    const report = async (progress: number, text: string): Promise<void> => {
      if (options.stepDelayMs) await abortableDelay(options.stepDelayMs, signal);
      signal.throwIfAborted();
      onProgress(map({ progress, text }));
    };
    for (let i = 1; i <= steps; i++) {
      await report(i / steps, `Fetching param cache[${i}/${steps}]: fake weights`);
      if (options.failWith !== undefined) throw options.failWith;
    }
    for (let i = 1; i <= steps; i++) await report(i / steps, `Loading model from cache[${i}/${steps}]: fake weights`);
    await report(1, 'Finish loading on WebGPU - fake');
    const engine = options.engine;
    return typeof engine === 'function' ? engine() : engine ?? createFakeLocalEngine();
  };
  return Object.assign(loader, { loads, signals });
}

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The real local-inference adapter over a fake engine: what the SDK's "local mode" tests plug in. */
export function createFakeLocalInference(options: { size?: ModelSize; shaderF16?: boolean; engine?: FakeEngineOptions; loader?: Omit<FakeLoaderOptions, 'engine'>; onProgress?: (p: LoadProgress) => void; signal?: AbortSignal } = {}): Promise<LocalInferencePort> {
  return createWebLlmInference({
    size: options.size ?? 'nano',
    shaderF16: options.shaderF16 ?? true,
    onProgress: options.onProgress,
    signal: options.signal,
    loader: createFakeLocalLoader({ ...options.loader, engine: () => createFakeLocalEngine(options.engine) }),
  });
}

/** Collects an answer's events (test helper). */
export async function collectAnswer(port: LocalInferencePort, request: InferenceRequest): Promise<{ text: string; citations: number[]; done: unknown }> {
  let text = '';
  const citations: number[] = [];
  let done: unknown;
  for await (const e of port.answer(request)) {
    if (e.type === 'delta') text += e.text;
    else if (e.type === 'citation') citations.push(e.index);
    else done = e;
  }
  return { text, citations, done };
}
