import type { Corpus } from '../text/corpus.js';
import { detectLanguage } from '../text/language.js';
import { isStopword } from '../text/stopwords.js';
import { createBm25Index, type Bm25Index } from './bm25-index.js';

/** Tunables of passage retrieval. */
export interface RetrieverOptions {
  /** BM25 term-frequency saturation. Default 0.6: a passage rarely repeats a word that matters. */
  readonly k1?: number;
  /** BM25 length normalisation. Default 0.5: long passages do hold more answers. */
  readonly b?: number;
  /**
   * How much a word's general-language rarity adds to its page-local IDF. Default 2: the page's topic word
   * ("Normandy" on the Normandy page) has a low local IDF but still matters more than "country".
   */
  readonly specificityWeight?: number;
}

/** Defaults of {@link RetrieverOptions}, chosen on half of the SQuAD articles and checked on the other half. */
export const RETRIEVER_DEFAULTS = Object.freeze({ k1: 0.6, b: 0.5, specificityWeight: 2 });

/** One ranked passage: what an engine with a context window is given as `sources`. */
export interface RankedPassage {
  /** Index into `corpus.passages`. */
  readonly passage: number;
  readonly text: string;
  readonly score: number;
  readonly page: number;
  readonly url: string;
  readonly title: string;
}

/** The question as the retriever sees it. */
export interface AnalyzedQuery {
  /** Content term ids found in the corpus (stopwords and question words removed, no duplicates). */
  readonly terms: readonly number[];
  /** Sum of the IDF of every content word of the question, found in the corpus or not. */
  readonly totalIdf: number;
  /** By term: weight multiplying its IDF (general-language specificity). */
  readonly weights: readonly number[];
  /** Normalised words of the question (all of them), for the answer-type check. */
  readonly words: readonly string[];
  /** Stems of `words`, in the same order. */
  readonly stems: readonly string[];
  /** Indexes into `words` of the content words (first occurrence of each stem), whether the pages hold them or not. */
  readonly content: readonly number[];
}

/**
 * BM25 over a corpus's passages: what the SDK sends a model as sources. It ships in the SDK's runtime; the
 * extractive answerer (sentence ranking, answer types) is built on it in a lazy chunk.
 */
export interface Retriever {
  readonly corpus: Corpus;
  readonly options: Readonly<Required<RetrieverOptions>>;
  /** The passage index (one unit per `corpus.passages` entry). */
  readonly passageIndex: Bm25Index;
  analyze(question: string): AnalyzedQuery;
  /**
   * The `k` best passages for the question (BM25 over passages, best first): the context to hand a generative
   * engine. Empty when no content word of the question is in the corpus.
   */
  rankPassages(question: string | AnalyzedQuery, k?: number): RankedPassage[];
  /** IDF (over passages) of a term id; 0 for a term no passage holds. */
  idf(term: number): number;
}

/** Indexes `corpus`'s passages (linear, a fraction of buildCorpus's cost). */
export function createRetriever(corpus: Corpus, options: RetrieverOptions = {}): Retriever {
  const opts = { ...RETRIEVER_DEFAULTS, ...options };
  const passageIndex = createBm25Index(corpus, corpus.passages.map((_, i) => corpus.passageTerms(i)), opts);
  const pScores = new Float64Array(corpus.passages.length);
  const missingIdf = Math.log(1 + corpus.passages.length + 0.5);

  const analyze = (question: string): AnalyzedQuery => {
    const { words, terms } = corpus.analyze(question);
    const qLang = detectLanguage(words, corpus.language);
    const ids: number[] = [];
    const weights: number[] = [];
    const content: number[] = [];
    let totalIdf = 0;
    const seen = new Set<string>();
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      const t = terms[i]!;
      if (seen.has(t) || corpus.resources.isStopword(w) || (qLang !== corpus.language && isStopword(w, qLang))) continue;
      seen.add(t);
      content.push(i);
      const id = corpus.vocabulary.get(t);
      // A word the pages lack counts as the rarest possible: it lowers the share of the question covered.
      totalIdf += id === undefined ? missingIdf : passageIndex.idf(id);
      if (id !== undefined) {
        ids.push(id);
        const rank = /^\d/.test(w) ? 5_000 : Math.min(corpus.resources.commonRank(t), 100_000);
        weights.push(1 + opts.specificityWeight * (Math.log10(rank) / 5));
      }
    }
    return { terms: ids, weights, totalIdf, words, stems: terms, content };
  };

  const rankPassages = (question: string | AnalyzedQuery, k = 5): RankedPassage[] => {
    const q = typeof question === 'string' ? analyze(question) : question;
    if (q.terms.length === 0 || corpus.passages.length === 0) return [];
    const touched = passageIndex.accumulate(q.terms, pScores, q.weights);
    const ranked = touched.map((p) => ({ p, score: pScores[p]! })).sort((a, b) => b.score - a.score || a.p - b.p).slice(0, k);
    for (const p of touched) pScores[p] = 0;
    return ranked.map(({ p, score }) => {
      const passage = corpus.passages[p]!;
      return { passage: p, text: passage.text, score, page: passage.page, url: passage.url, title: passage.title };
    });
  };

  return { corpus, options: opts, passageIndex, analyze, rankPassages, idf: passageIndex.idf };
}
