import type { SourcePage } from '../sources.js';
import type { Retriever } from './retriever.js';

/** Limits of {@link selectSources}. */
export interface SourceLimits {
  /** Passages sent with a question. */
  readonly maxSources: number;
  /** Characters of passage text in all. */
  readonly maxChars: number;
}

/**
 * The passages most likely to hold the answer, in rank order, within the limits: what the SDK sends any engine
 * (a model's context, or the server's extractive answerer) as `sources`. A question about the page itself
 * ("summarise this page") names no content: the opening passages stand in for what it does not rank.
 */
export function selectSources(retriever: Retriever, question: string, limits: SourceLimits): SourcePage[] {
  const { corpus } = retriever;
  const order = retriever.rankPassages(question, limits.maxSources).map((r) => r.passage);
  for (let p = 0; order.length < limits.maxSources && p < corpus.passages.length; p++) if (!order.includes(p)) order.push(p);
  const out: SourcePage[] = [];
  let used = 0;
  for (const p of order) {
    const passage = corpus.passages[p]!;
    if (used + passage.text.length > limits.maxChars) break;
    used += passage.text.length;
    out.push({ url: passage.url, title: passage.title, text: passage.text });
  }
  return out;
}
