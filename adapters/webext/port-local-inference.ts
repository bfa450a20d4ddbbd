/**
 * Local mode in the extension: the model runs once, in the extension's offscreen document, and every tab's content
 * script reaches it through this proxy. One download and one GPU copy serve every site (a page-local WebLLM would
 * download into each site's origin). The caller side builds the SDK's `localEngine` host option; the host side
 * (createLocalInferenceHost) serves it next to WebLLM.
 */
import { MODEL_SIZES, type ModelSize } from '../../core/config/types.js';
import { KitError } from '../../core/errors/index.js';
import type { ChatTurn, InferenceEvent, InferencePort, InferenceRequest } from '../../core/ports/inference.port.js';
import type { SourcePage } from '../../core/sources.js';
import { openPortStream, type PortStreamHandler, type RuntimePortLike } from './port-stream.js';

/** Port name of local-engine calls (the background relays it to the offscreen document). */
export const LOCAL_PORT_NAME = 'kit-local';

/** Which model: the SDK's chosen size and the page's `shader-f16` verdict. */
export interface LocalModelChoice {
  readonly size: ModelSize;
  readonly shaderF16: boolean;
}

/** Calls a content script makes (plain data). */
export type LocalEngineCall =
  | ({ readonly op: 'load' } & LocalModelChoice)
  | ({ readonly op: 'answer'; readonly request: { readonly question: string; readonly history: readonly ChatTurn[]; readonly sources: readonly SourcePage[]; readonly maxOutputTokens?: number } } & LocalModelChoice);

/** Items the host streams back: load progress and the ready model, or the answer's events. */
export type LocalEngineItem =
  | { readonly type: 'progress'; readonly loaded: number; readonly total: number }
  | { readonly type: 'ready'; readonly model: string }
  | { readonly type: 'event'; readonly event: InferenceEvent };

/** The SDK's `localEngine` host option (sdk/assistant.ts KitHostOptions). */
export type LocalEngineFactory = (request: { size: string; shaderF16: boolean; onProgress: (p: { loaded: number; total: number }) => void; signal: AbortSignal }) => Promise<InferencePort>;

/** The `localEngine` option for Kit.init: loads and answers through the extension's shared engine. */
export function createPortLocalEngine(options: { readonly connect: () => RuntimePortLike }): LocalEngineFactory {
  return async ({ size, shaderF16, onProgress, signal }) => {
    if (!(MODEL_SIZES as readonly string[]).includes(size)) throw new KitError('model_load_failed', `There is no local model of size "${size}".`);
    const choice: LocalModelChoice = { size: size as ModelSize, shaderF16 };
    let model: string | null = null;
    for await (const item of openPortStream<LocalEngineItem>(options.connect, { op: 'load', ...choice } satisfies LocalEngineCall, signal)) {
      if (item.type === 'progress') onProgress({ loaded: item.loaded, total: item.total });
      else if (item.type === 'ready') model = item.model;
    }
    if (model === null) throw new KitError('model_load_failed', 'The extension did not load a model.');
    const loadedModel = model;
    return {
      model: loadedModel,
      async *answer(request: InferenceRequest): AsyncGenerator<InferenceEvent> {
        const call: LocalEngineCall = {
          op: 'answer',
          ...choice,
          request: { question: request.question, history: request.history, sources: request.sources, ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }) },
        };
        for await (const item of openPortStream<LocalEngineItem>(options.connect, call, request.signal)) {
          if (item.type === 'event') yield item.event;
        }
      },
    };
  };
}

/** Loads an engine in the host (e.g. createWebLlmInference with the user's model base URL). */
export type HostEngineLoader = (request: LocalModelChoice & { onProgress: (p: { loaded: number; total: number }) => void; signal: AbortSignal }) => Promise<InferencePort>;

/**
 * The host side: serves `load` (progress, then `ready`) and `answer` (the engine's events) calls. Each call asks
 * `load` for its engine: sharing one load between tabs, and stopping it when every waiting tab has gone, is the
 * loader's job (createWebLlmInference keeps one engine per model and counts its waiters).
 */
export function createLocalInferenceHost(load: HostEngineLoader): PortStreamHandler {
  return async function* host(raw, signal): AsyncGenerator<LocalEngineItem> {
    const call = raw as LocalEngineCall;
    if (!call || (call.op !== 'load' && call.op !== 'answer') || typeof call.size !== 'string') throw new KitError('invalid_request', 'The extension received a malformed engine call.');
    const progress: LocalEngineItem[] = [];
    let wake: (() => void) | null = null;
    const engine = load({ size: call.size, shaderF16: call.shaderF16 === true, signal, onProgress: (p) => {
      progress.push({ type: 'progress', loaded: p.loaded, total: p.total });
      wake?.();
    } });
    let port: InferencePort | null = null;
    let failure: { error: unknown } | null = null;
    void engine.then((p) => { port = p; wake?.(); }, (error: unknown) => { failure = { error }; wake?.(); });
    const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    for (;;) {
      while (progress.length > 0) yield progress.shift()!;
      if (failure) throw (failure as { error: unknown }).error;
      if (port || signal.aborted) break;
      await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted]);
      wake = null;
    }
    if (signal.aborted) return;
    const ready = port as unknown as InferencePort;
    if (call.op === 'load') {
      yield { type: 'ready', model: ready.model };
      return;
    }
    const { request } = call;
    for await (const event of ready.answer({ question: request.question, history: request.history, sources: request.sources, signal, ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }) })) {
      yield { type: 'event', event };
    }
  };
}
