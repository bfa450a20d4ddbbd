import type { SourcePage } from '../sources.js';

/** One earlier turn of the conversation. */
export interface ChatTurn {
  readonly role: 'user' | 'assistant';
  readonly content: string;
}

/** What any engine (extractive, WebLLM, an OpenAI-compatible server, the Platform API) is asked. */
export interface InferenceRequest {
  readonly question: string;
  /** Earlier turns, oldest first, without the current question. */
  readonly history: readonly ChatTurn[];
  /** Numbered 1..n in this order; citations refer to these indexes. Already redacted and grounded. */
  readonly sources: readonly SourcePage[];
  readonly signal?: AbortSignal;
  readonly maxOutputTokens?: number;
  /** The site owner's instructions (tone, format) for model engines; never loosen the grounding rules (issue 13). */
  readonly instructions?: string | null;
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** The pieces an engine yields, in order: any number of deltas and citations, then exactly one done. */
export type InferenceEvent =
  | { readonly type: 'delta'; readonly text: string }
  /** `index` is 1-based into the request's sources. */
  | { readonly type: 'citation'; readonly index: number }
  /**
   * `found: false`: the engine found no answer in the sources and said so (core's extractive engine, for its
   * "I couldn't find that on this page." and its "The closest it comes: …" replies). The owner's log records such a
   * question as `not_found` (a coverage gap: content the site lacks); usage is as for any answer (the engine ran).
   * Absent = answered, or not known: model engines (OpenAI-compatible, WebLLM, Chrome's Prompt API) never set it —
   * their "I don't know" is free text, not detected; for them a visitor's thumbs down remains the signal.
   */
  | { readonly type: 'done'; readonly finishReason: 'stop' | 'length'; readonly usage: TokenUsage; readonly found?: false };

/**
 * An engine that answers a grounded question. It yields answer pieces; it does not mimic any vendor's API.
 * Broken I/O is thrown as KitError('upstream_unavailable' | 'model_load_failed' | 'network_error').
 */
export interface InferencePort {
  /** The model id reported in `start`/`done` events and usage rows (e.g. 'extractive', 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC'). */
  readonly model: string;
  answer(request: InferenceRequest): AsyncIterable<InferenceEvent>;
}
