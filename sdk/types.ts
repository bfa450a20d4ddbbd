import type { Citation } from '../core/sources.js';
import type { ErrorCode } from '../core/errors/index.js';
import type { ModelSize } from '../core/config/index.js';

/** What `ask()` resolves to (CONTRACT §8). `model` is a WebLLM model id, the service's model, or 'extractive'. */
export interface Answer {
  /** The answer's id, for `feedback()`: the service's request id (`req_…`) or, for answers made here, `msg_…`. */
  readonly id?: string;
  readonly text: string;
  readonly citations: readonly Citation[];
  readonly refused: boolean;
  readonly mode: 'local' | 'remote';
  readonly model: string;
}

/** How much content the assistant reads; `cut` says what the limits dropped (pages not read, characters cut). */
export interface ContextStats {
  readonly pages: number;
  readonly chars: number;
  readonly truncated: boolean;
  readonly cut: { readonly pages: number; readonly chars: number };
}

export type ModeEvent = { mode: 'local' | 'remote'; model: string; reason: string };

/** Events of `on(event, fn)` (CONTRACT §8). */
export type KitEvents = {
  ready: { mode: 'local' | 'remote'; model: string; context: ContextStats };
  open: Record<string, never>;
  close: Record<string, never>;
  token: { text: string };
  /** Assistant messages carry `id` (pass it to `feedback()`). */
  message: { role: 'user' | 'assistant'; text: string; citations: readonly Citation[]; refused: boolean; id?: string };
  progress: { phase: 'crawl' | 'model'; loaded: number; total: number };
  mode: ModeEvent;
  /** `retryAfterSeconds` comes with `rate_limited` and `quota_exceeded` when the service said when to retry. */
  error: { code: ErrorCode; message: string; retryAfterSeconds?: number };
};

export interface AskOptions {
  readonly signal?: AbortSignal;
}

/** The object `Kit.init` returns (SPEC §2.4, CONTRACT §8). */
export interface KitInstance {
  ask(question: string, options?: AskOptions): Promise<Answer>;
  open(): void;
  close(): void;
  on<K extends keyof KitEvents>(event: K, fn: (payload: KitEvents[K]) => void): () => void;
  /**
   * The visitor's thumbs on an answer (`answer.id`), with an optional comment (≤ 500 characters) that the service keeps
   * only while the site owner logs questions. Rejects with a KitError (e.g. `rate_limited`, `network_error`).
   */
  feedback(messageId: string, rating: 'up' | 'down', options?: { comment?: string }): Promise<{ commentStored: boolean }>;
  destroy(): void;
}

export type { ModelSize };
