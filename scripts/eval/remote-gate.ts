/**
 * The grounding gate as the default remote path decides (no KIT_INFERENCE_URL needed; any engine behind POST
 * /v1/chat): the SDK ranks the page's passages and sends the best (`selectSources`, 6 passages / 12,000 characters,
 * as sdk/runtime.ts), and the server gates the question against THOSE sources alone
 * (server/services/chat-service.ts: `prepareCorpus(sources)`, then `checkGrounding(corpus, question)`).
 *
 * Only the product's own functions: the whole-page retriever is core/retrieval's `createRetriever` over the corpus
 * the SDK prepares (`prepareCorpus`), the selection is core/retrieval's `selectSources` with the SDK's limits, the
 * server's corpus is core/text's `prepareCorpus` of the posted sources (no redaction: the default), the gate is
 * core/grounding's `checkGrounding` with the server's (default) options.
 */
import { checkGrounding, type GroundingOptions, type GroundingResult } from '../../core/grounding/index.js';
import { createRetriever, selectSources, type Retriever } from '../../core/retrieval/index.js';
import type { SourcePage } from '../../core/sources.js';
import { prepareCorpus, type Corpus } from '../../core/text/index.js';
import { SDK_SOURCE_LIMITS } from './qa-run.js';

/** A gate that decides as the remote path does, given the whole-page corpus the SDK built. */
export interface RemoteGate {
  /** The sources the SDK would post for this question. */
  sources(page: Corpus, question: string): SourcePage[];
  /** The server's corpus of those sources (prepared once per distinct set of sources, as the server's LRU). */
  corpus(page: Corpus, question: string): Promise<Corpus>;
  /** The server's verdict. */
  check(page: Corpus, question: string, options?: GroundingOptions): Promise<GroundingResult>;
}

export function remoteGate(limits: { maxSources: number; maxChars: number } = SDK_SOURCE_LIMITS): RemoteGate {
  const retrievers = new WeakMap<Corpus, Retriever>();
  const served = new Map<string, Promise<Corpus>>();
  const sources = (page: Corpus, question: string): SourcePage[] => {
    let r = retrievers.get(page);
    if (!r) { r = createRetriever(page); retrievers.set(page, r); } // as sdk/runtime.ts: createRetriever(corpus)
    return selectSources(r, question, limits);
  };
  const corpus = (page: Corpus, question: string): Promise<Corpus> => {
    const s = sources(page, question);
    const key = JSON.stringify(s.map((p) => [p.url, p.title, p.text]));
    let c = served.get(key);
    if (!c) { c = prepareCorpus(s); served.set(key, c); } // as ChatService#prepare (no redaction)
    return c;
  };
  return {
    sources,
    corpus,
    async check(page, question, options = {}) { return checkGrounding(await corpus(page, question), question, options); },
  };
}
