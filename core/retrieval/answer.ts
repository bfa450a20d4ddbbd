import { fail, ok, type Result } from '../errors/result.js';
import type { Citation } from '../sources.js';
import type { RankedSentence, Retriever } from './retriever.js';

/** Tunables of the extractive answerer. */
export interface AnswerOptions {
  /** Ranked sentences returned beside the answer (the answer's own first). Default 3. */
  readonly candidates?: number;
  /**
   * Least share of the question's IDF mass that the best sentence's passage must hold, else the outcome is
   * `not_found`. Default 0.15: below it, a passage shares too little of what the question is about to answer it.
   */
  readonly minCoverage?: number;
}

/** An extractive answer: sentences quoted from the pages, with the pages they come from. */
export interface ExtractiveAnswer {
  /** The best sentence, quoted verbatim. */
  readonly text: string;
  readonly citations: readonly Citation[];
  /** The best sentences, best first; `sentences[0].text === text`. */
  readonly sentences: readonly RankedSentence[];
}

export const ANSWER_DEFAULTS = Object.freeze({ candidates: 3, minCoverage: 0.15 });

/**
 * Kit's built-in engine: picks the sentence of the pages that best answers `question` (BM25 over sentences
 * and passages, re-ranked by answer type and word proximity) and cites its page. `not_found` when no sentence
 * matches well enough; that is an expected outcome, not an error.
 */
export function answerQuestion(retriever: Retriever, question: string, options: AnswerOptions = {}): Result<ExtractiveAnswer, 'not_found'> {
  const k = Math.max(1, options.candidates ?? ANSWER_DEFAULTS.candidates);
  const minCoverage = options.minCoverage ?? ANSWER_DEFAULTS.minCoverage;
  const query = retriever.analyze(question);
  const ranked = retriever.rankSentences(query, k);
  const best = ranked[0];
  if (!best) return fail('not_found', 'no word of the question occurs in the pages');
  if (retriever.coverage(query, best.sentence) < minCoverage) return fail('not_found', 'no passage matches enough of the question');
  return ok({ text: best.text, citations: [{ url: best.url, title: best.title }], sentences: ranked });
}
