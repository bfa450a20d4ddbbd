// Session 9 scratch: the answerer of an item's page, built once per page (one-page corpus, as the SDK builds it).
import { createAnswerer, createRetriever } from '../../../core/retrieval/index.js';
import { buildCorpus } from '../../../core/text/index.js';
import type { LabelledItem } from '../qa-data.js';

type Answerer = ReturnType<typeof createAnswerer>;

/** A per-run cache: `answererFor(item)` builds the page's answerer on first use, with the options given here. */
export function pageAnswerers(retriever: Parameters<typeof createRetriever>[1] = {}, answer: Parameters<typeof createAnswerer>[1] = {}): (item: LabelledItem) => Answerer {
  const cache = new Map<string, Answerer>();
  return (item) => {
    const page = typeof item.page === 'string' ? { url: 'x', title: '', text: item.page } : item.page;
    let a = cache.get(page.url);
    if (!a) { a = createAnswerer(createRetriever(buildCorpus([page]), retriever), answer); cache.set(page.url, a); }
    return a;
  };
}
