import type { LanguageModelApi, LanguageModelAvailability, LanguageModelPrompt, LanguageModelSession } from '../../adapters/chrome-ai/create-prompt-api-inference.js';

/** How the fake Chrome built-in model behaves. */
export interface FakeLanguageModelOptions {
  availability: LanguageModelAvailability;
  /** The answer streamed for every question, in pieces of a few characters. */
  answer?: string;
  /** Download progress fractions reported by the first create() when the model is not 'available'. */
  downloadSteps?: readonly number[];
  /** create() rejects with this DOMException name (e.g. 'NotAllowedError': a download needs a user gesture). */
  failCreate?: string;
  pieceDelayMs?: number;
}

/** What the fake saw, for assertions. */
export interface FakeLanguageModelLog {
  availabilityCalls: number;
  sessions: { initialPrompts: readonly LanguageModelPrompt[]; prompts: string[]; destroyed: boolean }[];
}

/**
 * A stand-in for Chrome's `LanguageModel` (the Prompt API): no machine here has Gemini Nano, so tests put this fake
 * behind the engine port (the page's global, or KitHostOptions.languageModel). It follows the API's shapes:
 * availability(), create({ initialPrompts, monitor, signal }) with `downloadprogress` events, promptStreaming() as a
 * ReadableStream of new text, destroy().
 */
export function createFakeLanguageModel(options: FakeLanguageModelOptions): LanguageModelApi & { log: FakeLanguageModelLog } {
  const log: FakeLanguageModelLog = { availabilityCalls: 0, sessions: [] };
  let availability = options.availability;
  const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(t); reject(signal.reason); }, { once: true });
  });
  return {
    log,
    async availability() {
      log.availabilityCalls++;
      return availability;
    },
    async create(o = {}) {
      if (options.failCreate) throw new DOMException('The fake refuses.', options.failCreate);
      if (availability !== 'available') {
        const monitor = new EventTarget();
        o.monitor?.(monitor);
        for (const loaded of options.downloadSteps ?? [0, 1]) {
          await sleep(5, o.signal);
          const e = new Event('downloadprogress') as Event & { loaded: number };
          Object.defineProperty(e, 'loaded', { value: loaded });
          monitor.dispatchEvent(e);
        }
        availability = 'available';
      }
      const entry = { initialPrompts: o.initialPrompts ?? [], prompts: [] as string[], destroyed: false };
      log.sessions.push(entry);
      const session: LanguageModelSession = {
        inputQuota: 6_000,
        promptStreaming(input, p = {}) {
          entry.prompts.push(input);
          const text = options.answer ?? 'The answer [1].';
          let i = 0;
          return new ReadableStream<string>({
            async pull(controller) {
              if (p.signal?.aborted) return controller.error(p.signal.reason);
              if (i >= text.length) return controller.close();
              await sleep(options.pieceDelayMs ?? 1);
              controller.enqueue(text.slice(i, i + 4));
              i += 4;
            },
          });
        },
        destroy() { entry.destroyed = true; },
      };
      return session;
    },
  };
}
