import { KitError, isKitError } from '../../core/errors/index.js';
import type { InferenceEvent, InferencePort, InferenceRequest, TokenUsage } from '../../core/ports/inference.port.js';
import { readSse } from '../remote/sse-reader.js';
import { createCitationMarkerParser } from '../../core/answer/citation-markers.js';
// The same grounded prompt as the local engine, so an answer reads and cites alike in both modes.
import { buildGroundedMessages, type PromptMessage } from '../../core/answer/grounded-prompt.js';

/** Time budgets of one upstream call, in milliseconds. */
export interface InferenceTimeouts {
  /** Request sent → response headers. Default 10 000. */
  readonly connectMs: number;
  /** Request sent → first generated token (prompt processing on a CPU server can be slow). Default 30 000. */
  readonly firstTokenMs: number;
  /** Longest silence between two chunks once tokens flow. Default 20 000. */
  readonly idleMs: number;
  /** Whole answer. Default 120 000. */
  readonly totalMs: number;
}

/** Defaults of `InferenceTimeouts`. */
export const DEFAULT_INFERENCE_TIMEOUTS: InferenceTimeouts = Object.freeze({ connectMs: 10_000, firstTokenMs: 30_000, idleMs: 20_000, totalMs: 120_000 });

/** Options of the OpenAI-compatible engine (`KIT_INFERENCE_URL`, `KIT_INFERENCE_MODEL`, `KIT_INFERENCE_API_KEY`). */
export interface OpenAiCompatibleInferenceOptions {
  /** Base URL up to and including `/v1`, e.g. `http://localhost:8000/v1` (vLLM), `http://localhost:11434/v1` (Ollama). */
  readonly baseUrl: string;
  readonly model: string;
  /** Sent as `Authorization: Bearer`; omitted when unset (local servers). */
  readonly apiKey?: string;
  readonly timeouts?: Partial<InferenceTimeouts>;
  /** Answer length cap when the request gives none. Default 512 tokens. */
  readonly maxOutputTokens?: number;
  /**
   * The backend model's context window in tokens; sources and earlier turns are trimmed to fit it with the answer.
   * Default 32 768. Set it to the server's real window (e.g. llama.cpp's `--ctx-size`): an overflowing prompt fails.
   */
  readonly contextWindowTokens?: number;
  /** Sampling temperature. Default 0.2: grounded answers should stick to the sources. */
  readonly temperature?: number;
  readonly fetch?: typeof fetch;
}

/** Rough token count (≈ 4 characters per token for English), used when the backend reports no usage. */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}

interface ChunkChoice {
  delta?: { content?: unknown; reasoning_content?: unknown };
  finish_reason?: unknown;
}
interface Chunk {
  choices?: ChunkChoice[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
  error?: unknown;
}

type Phase = 'connect' | 'first_token' | 'idle' | 'total';

/**
 * An InferencePort over any server speaking OpenAI's streaming chat completions (vLLM, llama.cpp's server, Ollama,
 * OpenAI). Citation markers stay in the text, normalised to `[n]` (markers naming no source are dropped), and each
 * cited source also becomes one citation event (core/answer/citation-markers). Failures and timeouts throw
 * KitError('upstream_unavailable'); an abort of `request.signal` cancels the upstream call and rejects with its reason.
 */
export function createOpenAiCompatibleInference(options: OpenAiCompatibleInferenceOptions): InferencePort {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const timeouts: InferenceTimeouts = { ...DEFAULT_INFERENCE_TIMEOUTS, ...options.timeouts };
  const doFetch = options.fetch ?? fetch;

  async function* answer(request: InferenceRequest): AsyncGenerator<InferenceEvent, void, undefined> {
    request.signal?.throwIfAborted();
    const maxTokens = request.maxOutputTokens ?? options.maxOutputTokens ?? 512;
    const messages: PromptMessage[] = buildGroundedMessages(request, { contextWindowTokens: options.contextWindowTokens ?? 32_768, maxOutputTokens: maxTokens });
    const upstream = new AbortController();
    let expired: Phase | null = null;
    let phaseTimer: ReturnType<typeof setTimeout> | undefined;
    const expire = (phase: Phase): void => {
      expired ??= phase;
      upstream.abort(new KitError('upstream_unavailable', timeoutMessage(phase, timeouts), { details: { timeout: phase } }));
    };
    const arm = (phase: Phase, ms: number): void => {
      clearTimeout(phaseTimer);
      phaseTimer = setTimeout(() => expire(phase), ms);
    };
    let gotToken = false;
    const totalTimer = setTimeout(() => expire('total'), timeouts.totalMs);
    const firstTokenTimer = setTimeout(() => {
      if (!gotToken) expire('first_token');
    }, timeouts.firstTokenMs);
    const onAbort = (): void => upstream.abort(request.signal?.reason);
    request.signal?.addEventListener('abort', onAbort, { once: true });

    try {
      arm('connect', timeouts.connectMs);
      let response: Response;
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body: JSON.stringify({
            model: options.model,
            messages,
            stream: true,
            stream_options: { include_usage: true },
            max_tokens: maxTokens,
            temperature: options.temperature ?? 0.2,
          }),
          signal: upstream.signal,
        });
      } finally {
        clearTimeout(phaseTimer);
      }
      if (!response.ok || response.body === null) {
        await response.body?.cancel().catch(() => undefined);
        throw new KitError('upstream_unavailable', `The inference backend answered HTTP ${response.status}.`, { details: { upstream_status: response.status } });
      }
      if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
        await response.body.cancel().catch(() => undefined);
        throw new KitError('upstream_unavailable', 'The inference backend did not answer with an event stream.');
      }

      const citations = createCitationMarkerParser(request.sources.length);
      let usage: TokenUsage | null = null;
      let finishReason: 'stop' | 'length' | null = null;
      let sawDone = false;
      let output = '';
      const touch = (): void => {
        if (gotToken) arm('idle', timeouts.idleMs);
      };

      for await (const event of readSse(response.body, { onComment: touch })) {
        touch();
        if (event.data === '[DONE]') {
          sawDone = true;
          break;
        }
        let chunk: Chunk;
        try {
          chunk = JSON.parse(event.data) as Chunk;
        } catch {
          throw new KitError('upstream_unavailable', 'The inference backend sent a chunk that is not JSON.');
        }
        if (event.event === 'error' || (typeof chunk === 'object' && chunk !== null && chunk.error != null)) {
          // The upstream's own message may quote the prompt (page text): keep it out of ours.
          throw new KitError('upstream_unavailable', 'The inference backend reported an error mid-stream.', { details: { upstream_error: true } });
        }
        if (chunk.usage && typeof chunk.usage === 'object') {
          const input = chunk.usage.prompt_tokens;
          const out = chunk.usage.completion_tokens;
          if (typeof input === 'number' && typeof out === 'number') usage = { inputTokens: input, outputTokens: out };
        }
        const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
        if (!choice) continue;
        const content = choice.delta?.content;
        const thinking = choice.delta?.reasoning_content;
        if ((typeof content === 'string' && content.length > 0) || (typeof thinking === 'string' && thinking.length > 0)) {
          if (!gotToken) {
            gotToken = true;
            clearTimeout(firstTokenTimer);
            arm('idle', timeouts.idleMs);
          }
        }
        if (typeof content === 'string' && content.length > 0) {
          output += content;
          for (const piece of citations.push(content)) yield piece.type === 'delta' ? { type: 'delta', text: piece.text } : { type: 'citation', index: piece.index };
        }
        if (typeof choice.finish_reason === 'string') finishReason = choice.finish_reason === 'length' ? 'length' : 'stop';
      }
      // No [DONE] and no finish_reason: the connection ended in the middle of the answer.
      if (!sawDone && finishReason === null) throw new KitError('upstream_unavailable', 'The inference backend closed the stream before the answer ended.');
      for (const piece of citations.end()) yield piece.type === 'delta' ? { type: 'delta', text: piece.text } : { type: 'citation', index: piece.index };
      yield {
        type: 'done',
        finishReason: finishReason ?? 'stop',
        usage: usage ?? { inputTokens: estimateTokens(messages.map((m) => m.content).join('\n')), outputTokens: estimateTokens(output) },
      };
    } catch (err) {
      if (request.signal?.aborted) throw request.signal.reason;
      if (expired !== null) throw new KitError('upstream_unavailable', timeoutMessage(expired, timeouts), { details: { timeout: expired }, cause: err });
      if (isKitError(err)) throw err;
      throw new KitError('upstream_unavailable', 'The inference backend could not be reached or broke the connection.', { cause: err });
    } finally {
      clearTimeout(phaseTimer);
      clearTimeout(totalTimer);
      clearTimeout(firstTokenTimer);
      request.signal?.removeEventListener('abort', onAbort);
      // Also the path of a consumer that stops iterating early: close the upstream connection.
      upstream.abort(new Error('inference stream closed'));
    }
  }

  return { model: options.model, answer };
}

function timeoutMessage(phase: Phase, t: InferenceTimeouts): string {
  switch (phase) {
    case 'connect':
      return `The inference backend did not answer within ${t.connectMs} ms.`;
    case 'first_token':
      return `The inference backend sent no token within ${t.firstTokenMs} ms.`;
    case 'idle':
      return `The inference backend stalled for ${t.idleMs} ms.`;
    default:
      return `The inference backend did not finish within ${t.totalMs} ms.`;
  }
}
