import type { Citation } from '../core/sources.js';
import type { ErrorCode } from '../core/errors/index.js';
import type { ModelSize } from '../core/config/index.js';

/** What `ask()` resolves to (CONTRACT §8). `model` is a WebLLM model id, the service's model, or 'extractive'. */
export interface Answer {
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
  message: { role: 'user' | 'assistant'; text: string; citations: readonly Citation[]; refused: boolean };
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
  destroy(): void;
}

export type { ModelSize };
