import { KitError, isErrorCode } from '../../core/errors/index.js';
import type { InferenceEvent, InferenceRequest } from '../../core/ports/inference.port.js';
import type { PlatformClient } from './platform-client.js';

/**
 * The service refused the question as not grounded in the sources (CONTRACT §4 `refusal`): show `message` instead of
 * an answer. No delta follows it; `done` ends the stream as usual.
 */
export interface RefusalEvent {
  readonly type: 'refusal';
  readonly message: string;
}

/** The service's id of this answer (`start`'s request_id): what feedback on it refers to. */
export interface StartEvent {
  readonly type: 'start';
  readonly requestId: string;
}

/** What the remote engine yields: core's InferenceEvent plus the refusal only a server can send, and the answer's id. */
export type RemoteInferenceEvent = InferenceEvent | RefusalEvent | StartEvent;

/** An InferencePort whose stream may also carry a refusal (core's union does not have one yet). */
export interface RemoteInferencePort {
  /** The requested model until a `start` event names the one the service used. */
  readonly model: string;
  answer(request: InferenceRequest): AsyncIterable<RemoteInferenceEvent>;
}

/** Options of the remote engine. */
export interface RemoteInferenceOptions {
  /** The `model` field of POST /chat. Default 'auto' (the service's choice). */
  readonly model?: string;
  /** The page and conversation sent with each question, for the owner's question log. */
  readonly context?: () => { readonly pageUrl?: string; readonly conversationId?: string };
}

/**
 * The Platform API as an inference engine: POST /chat read as SSE, its events mapped to InferenceEvents.
 * An `error` event throws KitError(code, message, { details: { request_id } }); a stream that ends without `done`
 * throws KitError('network_error'); aborting `request.signal` closes the connection and rejects with its reason.
 */
export function createRemoteInference(client: PlatformClient, options: RemoteInferenceOptions = {}): RemoteInferencePort {
  const requested = options.model ?? 'auto';
  let model = requested;

  async function* answer(request: InferenceRequest): AsyncGenerator<RemoteInferenceEvent, void, undefined> {
    const body = {
      messages: [...request.history.map(({ role, content }) => ({ role, content })), { role: 'user' as const, content: request.question }],
      sources: request.sources.map(({ url, title, text }) => ({ url, title, text })),
      model: requested,
      ...(() => {
        const c = options.context?.();
        return { ...(c?.pageUrl ? { page_url: c.pageUrl } : {}), ...(c?.conversationId ? { conversation_id: c.conversationId } : {}) };
      })(),
    };
    const cited = new Set<number>();
    let refused = false;
    for await (const event of client.chat(body, request.signal ? { signal: request.signal } : {})) {
      if (!['start', 'delta', 'citation', 'refusal', 'done', 'error'].includes(event.event)) continue; // newer servers may add events
      const data = parseData(event.data);
      switch (event.event) {
        case 'start':
          if (typeof data.model === 'string' && data.model) model = data.model;
          if (typeof data.request_id === 'string' && data.request_id) yield { type: 'start', requestId: data.request_id };
          break;
        case 'delta':
          if (typeof data.text === 'string' && data.text !== '' && !refused) yield { type: 'delta', text: data.text };
          break;
        case 'citation': {
          const index = data.index;
          if (typeof index === 'number' && Number.isInteger(index) && index >= 1 && index <= request.sources.length && !cited.has(index)) {
            cited.add(index);
            yield { type: 'citation', index };
          }
          break;
        }
        case 'refusal':
          refused = true;
          yield { type: 'refusal', message: typeof data.message === 'string' ? data.message : '' };
          break;
        case 'done': {
          if (data.finish_reason === 'refused' && !refused) yield { type: 'refusal', message: '' };
          const usage = (typeof data.usage === 'object' && data.usage !== null ? data.usage : {}) as Record<string, unknown>;
          yield {
            type: 'done',
            finishReason: data.finish_reason === 'length' ? 'length' : 'stop',
            usage: { inputTokens: count(usage.input_tokens), outputTokens: count(usage.output_tokens) },
          };
          return;
        }
        default: {
          const error = (typeof data.error === 'object' && data.error !== null ? data.error : {}) as Record<string, unknown>;
          const requestId = typeof error.request_id === 'string' ? error.request_id : undefined;
          throw new KitError(
            isErrorCode(error.code) ? error.code : 'internal_error',
            typeof error.message === 'string' ? error.message : undefined,
            requestId ? { details: { request_id: requestId } } : undefined,
          );
        }
      }
    }
    throw new KitError('network_error', 'The answer stream ended before it was complete.');
  }

  return {
    get model() {
      return model;
    },
    answer,
  };
}

function parseData(data: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(data);
    if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new KitError('internal_error', 'The service sent a malformed stream event.');
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}
