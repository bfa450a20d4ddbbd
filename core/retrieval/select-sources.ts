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
 * The passages most likely to hold the answer, chosen in rank order within the limits and sent in the pages' order
 * (session 15; before, in rank order): what the SDK sends any engine
 * (a model's context, or the server's extractive answerer) as `sources`. A question about the page itself
 * ("summarise this page") names no content: the opening passages stand in for what it does not rank.
 */
export function selectSources(retriever: Retriever, question: string, limits: SourceLimits): SourcePage[] {
  const { corpus } = retriever;
  // Twice the limit ranked: room for the copies skipped below.
  const order = retriever.rankPassages(question, limits.maxSources * 2).map((r) => r.passage);
  for (let p = 0; order.length < limits.maxSources * 2 && p < corpus.passages.length; p++) if (!order.includes(p)) order.push(p);
  const picked: number[] = [];
  const texts = new Set<string>();
  let used = 0;
  for (const p of order) {
    if (picked.length >= limits.maxSources) break;
    const passage = corpus.passages[p]!;
    // A passage whose text was already chosen (one page under two addresses) adds nothing but cost.
    if (texts.has(passage.text)) continue;
    texts.add(passage.text);
    if (used + passage.text.length > limits.maxChars) break;
    used += passage.text.length;
    picked.push(p);
  }
  // Sent in the pages' order (passages are numbered page by page, in reading order): a page's passages read in
  // sequence, and a question about the page itself ("what is this page about?") finds its opening first.
  return picked.sort((a, b) => a - b).map((p) => {
    const passage = corpus.passages[p]!;
    return { url: passage.url, title: passage.title, text: passage.text };
  });
}
