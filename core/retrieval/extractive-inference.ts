import type { InferenceEvent, InferencePort, InferenceRequest } from '../ports/inference.port.js';
import type { SourcePage } from '../sources.js';
import type { Corpus, CorpusOptions } from '../text/corpus.js';
import { prepareCorpus } from '../text/prepare-corpus.js';
import { createAnswerer, type Answerer, type AnswerOptions } from './answer.js';
import { createRetriever } from './retriever.js';

/** Options of {@link createExtractiveInference}. */
export interface ExtractiveInferenceOptions {
  /** Said when no sentence answers the question. Default: "I couldn't find that on this page." */
  readonly notFoundMessage?: string;
  /**
   * Said before the closest sentence when the engine is not sure enough to answer but the pages may say it there
   * (`NotFound.nearest`); the sentence follows in quotes. Default: "I couldn't find a direct answer on this page.
   * The closest it comes:".
   */
  readonly nearestMessage?: string;
  readonly corpus?: CorpusOptions;
  readonly answer?: AnswerOptions;
}

export const EXTRACTIVE_MODEL = 'extractive';
export const DEFAULT_NOT_FOUND_MESSAGE = "I couldn't find that on this page.";
export const DEFAULT_NEAREST_MESSAGE = "I couldn't find a direct answer on this page. The closest it comes:";

/** A rough token count (≈ 4 characters a token for English, as OpenAI's rule of thumb) for usage records. */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}

/**
 * Kit's built-in engine as an InferencePort: quotes the sentence of the sources that answers (with the sentence
 * of context it needs), streamed as word deltas, cites its source, and ends with `done` and estimated token
 * usage. When no sentence holds an answer of the kind asked for, it says so plainly (`notFoundMessage`) and cites
 * the closest passages' sources instead of stating a wrong sentence; when one may but the engine is not sure, it
 * says it found no direct answer and quotes the closest sentence (`nearestMessage`), never as the answer; both end
 * with `done.found: false` (the owner's log counts them as `not_found`). It needs no model and no network, which
 * makes it the server's default backend and the SDK's last resort. The index of the last sources is kept, so a
 * conversation about one page indexes it once.
 */
export function createExtractiveInference(options: ExtractiveInferenceOptions = {}): InferencePort {
  const notFound = options.notFoundMessage ?? DEFAULT_NOT_FOUND_MESSAGE;
  const nearest = options.nearestMessage ?? DEFAULT_NEAREST_MESSAGE;
  let cached: { sources: readonly SourcePage[]; answerer: Answerer } | null = null;

  const answererFor = async (sources: readonly SourcePage[]): Promise<Answerer> => {
    if (cached && sameSources(cached.sources, sources)) return cached.answerer;
    // The sources' language pack loads first, so the corpus is stemmed and weighed with it.
    const corpus: Corpus = await prepareCorpus(sources, options.corpus);
    cached = { sources: sources.map((s) => ({ url: s.url, title: s.title, text: s.text })), answerer: createAnswerer(createRetriever(corpus), options.answer) };
    return cached.answerer;
  };

  return {
    model: EXTRACTIVE_MODEL,
    async *answer(request: InferenceRequest): AsyncGenerator<InferenceEvent> {
      request.signal?.throwIfAborted();
      const outcome = (await answererFor(request.sources)).answer(request.question);
      let text = outcome.ok ? outcome.value.text : outcome.nearest ? `${nearest} “${outcome.nearest.text}”` : notFound;
      let finishReason: 'stop' | 'length' = 'stop';
      if (request.maxOutputTokens !== undefined && estimateTokens(text) > request.maxOutputTokens) {
        text = text.slice(0, Math.max(0, request.maxOutputTokens * 4));
        finishReason = 'length';
      }
      for (const piece of text.match(/\S+\s*/g) ?? []) {
        request.signal?.throwIfAborted();
        yield { type: 'delta', text: piece };
      }
      // Corpus pages are the request's sources in order, so a page index is the source's 1-based index − 1: every
      // source the shown text quotes (the answer's, and a runner-up's from another source) is cited. Without
      // an answer, the closest sentence's source (when one is offered) and the closest passages' sources are cited:
      // where the visitor may read on.
      const pages = outcome.ok ? outcome.value.pages
        : [...(outcome.nearest ? outcome.nearest.pages : []), ...outcome.closest.map((p) => p.page)];
      for (const page of new Set(pages)) yield { type: 'citation', index: page + 1 };
      const input = request.question + request.history.map((t) => t.content).join('') + request.sources.map((s) => s.title + s.text).join('');
      const usage = { inputTokens: estimateTokens(input), outputTokens: estimateTokens(text) };
      // Both replies without an answer (not found, and the closest sentence quoted) say so to the owner's log.
      yield outcome.ok ? { type: 'done', finishReason, usage } : { type: 'done', finishReason, usage, found: false };
    },
  };
}

function sameSources(a: readonly SourcePage[], b: readonly SourcePage[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i]!.url !== b[i]!.url || a[i]!.title !== b[i]!.title || a[i]!.text !== b[i]!.text) return false;
  }
  return true;
}
