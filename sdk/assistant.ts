import type { KitConfig } from '../core/config/index.js';
import type { ChatTurn, InferencePort } from '../core/ports/inference.port.js';
import type { Answer, ContextStats, KitEvents } from './types.js';
import type { PlatformAssistant } from '../adapters/remote/platform-client.js';
import type { SiteReading } from './site-context.js';

/**
 * What a host may plug into Kit.init's second argument. The browser extension routes Platform API calls through
 * its background worker and runs WebLLM in its offscreen document; tests plug a fake local engine here because no
 * machine of ours has model weights. Websites pass nothing.
 */
export interface KitHostOptions {
  /** Platform API transport (adapters/remote's port); default: window.fetch. */
  readonly transport?: unknown;
  /** Replaces the WebLLM engine for mode 'local'. Receives the chosen size; must reject with a KitError when it cannot run. */
  readonly localEngine?: (request: { size: string; shaderF16: boolean; onProgress: (p: { loaded: number; total: number }) => void; signal: AbortSignal }) => Promise<InferencePort>;
  /**
   * Chrome's Prompt API (`LanguageModel`) to use instead of the page's global: a fake in tests (no machine here has
   * the model); null disables the built-in model. Ignored when `localEngine` is set.
   */
  readonly languageModel?: unknown;
  /** Element the widget mounts into; default document.body. */
  readonly mount?: HTMLElement;
  /** false: no widget at all (headless use through ask()). */
  readonly widget?: boolean;
  /**
   * Called each time the context is (re)read, with what the assistant sees — for QA tools such as the extension's
   * panel. Redaction is reported as counts per kind only; `text` is the already-redacted text.
   */
  readonly inspect?: (snapshot: ContextSnapshot) => void;
}

/** What the assistant sees on this page (see KitHostOptions.inspect). */
export interface ContextSnapshot {
  readonly pages: readonly { readonly url: string; readonly title: string; readonly text: string }[];
  readonly stats: ContextStats;
  readonly redacted: Readonly<Partial<Record<string, number>>>;
  /** The grounding gate's verdict for a question, exactly as ask() would decide it. */
  checkGrounding(question: string): { readonly grounded: boolean; readonly matched: readonly string[]; readonly reason: string };
}

/** The heavy part of an instance, loaded as a lazy chunk: context, redaction, grounding, engines. */
export interface Assistant {
  readonly ready: KitEvents['ready'];
  /** Thumbs on an answer (`Answer.id`); the comment is kept only while the owner logs questions. */
  feedback(messageId: string, rating: 'up' | 'down', comment?: string): Promise<{ commentStored: boolean }>;
  ask(question: string, history: readonly ChatTurn[], options: { signal: AbortSignal; onToken(text: string): void }): Promise<Answer>;
  destroy(): void;
}

export type StartAssistant = (
  config: KitConfig,
  host: KitHostOptions,
  hooks: {
    emit<K extends keyof KitEvents>(event: K, payload: KitEvents[K]): void;
    signal: AbortSignal;
    /** The conversation's id (kept with the thread; a new one after `newConversation()`). */
    conversationId?: () => string;
    /**
     * Resolves when the page is to be read (docs/sdk.md, "What happens, in order": on the first sign of use); until
     * then only `GET /config` runs. Default: at once.
     */
    read?: Promise<unknown>;
    /**
     * Called with the site owner's settings from `GET /config` (issue 13) as soon as they arrive, before the page is
     * read (the launcher's theme, label, language, placement); null without them (service unreachable, older server).
     */
    settings?: (settings: PlatformAssistant | null) => unknown;
    /**
     * A site's crawl, started by the instance on the first sign of use beside the runtime's chunk (the crawl's chunk,
     * sdk/site-context.ts): the runtime joins it with the live page, extraction, redaction and the corpus. Required
     * for a site context (`context` other than 'page').
     */
    site?: Promise<SiteReading>;
  },
) => Promise<Assistant>;
