import type { Corpus } from '../text/corpus.js';
import { detectLanguage } from '../text/language.js';
import { isStopword } from '../text/stopwords.js';
import { createBm25Index, type Bm25Index } from './bm25-index.js';
import { answerTypeMatches, expectedAnswerType } from './answer-type.js';

/** Tunables of sentence ranking. */
export interface RankingOptions {
  readonly passageWeight?: number;
  readonly previousWeight?: number;
  readonly rerankDepth?: number;
  readonly answerTypeBonus?: number;
  readonly k1?: number;
  readonly b?: number;
  readonly specificityWeight?: number;
  readonly proximityBonus?: number;
}

/** Defaults of {@link RankingOptions}, chosen on half of the SQuAD articles and checked on the other half. */
export const RANKING_DEFAULTS = Object.freeze({
  /** Weight of the enclosing passage's BM25 score: context disambiguates short sentences. */
  passageWeight: 0.3,
  /** Weight of the previous sentence's score: "It was built in 1712" answers a question about the previous one. */
  previousWeight: 0.15,
  /** Candidates re-ranked with the answer-type check. */
  rerankDepth: 30,
  /** Share of the best candidate's score added to a sentence holding an answer of the expected type. */
  answerTypeBonus: 0.3,
  /** BM25 term-frequency saturation: low, because a sentence rarely repeats a word that matters. */
  k1: 0.6,
  /** BM25 length normalisation: half, because long sentences do hold more answers. */
  b: 0.5,
  /**
   * How much a word's general-language rarity adds to its page-local IDF: the page's topic word ("Normandy"
   * on the Normandy page) has a low local IDF but still matters more than "country".
   */
  specificityWeight: 2,
  /** Share of the best score added per pair of question words found next to each other in a sentence. */
  proximityBonus: 0.05,
});

/** One ranked sentence, with where it comes from. */
export interface RankedSentence {
  /** Index into `corpus.sentences`. */
  readonly sentence: number;
  readonly text: string;
  readonly score: number;
  /** Index into `corpus.pages`. */
  readonly page: number;
  readonly url: string;
  readonly title: string;
}

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
}

/** BM25 over a corpus's sentences and passages, with the scratch memory to answer many questions fast. */
export interface Retriever {
  readonly corpus: Corpus;
  analyze(question: string): AnalyzedQuery;
  /** The `k` best sentences for the question, best first; empty when no content word of it is in the corpus. */
  rankSentences(question: string | AnalyzedQuery, k?: number): RankedSentence[];
  /**
   * The `k` best passages for the question (BM25 over passages, best first): the context to hand a generative
   * engine. Empty when no content word of the question is in the corpus.
   */
  rankPassages(question: string | AnalyzedQuery, k?: number): RankedPassage[];
  /** Share (0–1) of the question's IDF mass whose words occur in the passage holding `sentence`. */
  coverage(query: AnalyzedQuery, sentence: number): number;
}

/** Indexes `corpus` for sentence retrieval (build cost: linear, a fraction of buildCorpus's). */
export function createRetriever(corpus: Corpus, options: RankingOptions = {}): Retriever {
  const opts = { ...RANKING_DEFAULTS, ...options };
  const sentences = corpus.sentences;
  const sentenceIndex = createBm25Index(corpus, sentences.map((s) => s.terms), opts);
  const passageIndex = createPassageIndex(corpus, opts);
  const sScores = new Float64Array(sentences.length);
  const pScores = new Float64Array(corpus.passages.length);

  const analyze = (question: string): AnalyzedQuery => {
    const { words, terms } = corpus.analyze(question);
    const qLang = detectLanguage(words, corpus.language);
    const ids: number[] = [];
    const weights: number[] = [];
    let totalIdf = 0;
    const seen = new Set<string>();
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      const t = terms[i]!;
      if (seen.has(t) || corpus.resources.isStopword(w) || (qLang !== corpus.language && isStopword(w, qLang))) continue;
      seen.add(t);
      const id = corpus.vocabulary.get(t);
      // A word the pages lack counts as the rarest possible: it lowers the share of the question covered.
      totalIdf += id === undefined ? Math.log(1 + sentences.length + 0.5) : sentenceIndex.idf(id);
      if (id !== undefined) {
        ids.push(id);
        const rank = /^\d/.test(w) ? 5_000 : Math.min(corpus.resources.commonRank(t), 100_000);
        weights.push((1 + opts.specificityWeight * (Math.log10(rank) / 5)));
      }
    }
    return { terms: ids, weights, totalIdf, words };
  };

  const rankSentences = (question: string | AnalyzedQuery, k = 3): RankedSentence[] => {
    const q = typeof question === 'string' ? analyze(question) : question;
    if (q.terms.length === 0 || sentences.length === 0) return [];
    const touched = sentenceIndex.accumulate(q.terms, sScores, q.weights);
    const pTouched = passageIndex.accumulate(q.terms, pScores, q.weights);
    const { passageWeight, previousWeight, rerankDepth } = opts;
    const combined: { s: number; score: number }[] = [];
    for (const s of touched) {
      const pass = sentences[s]!.passage;
      const prev = s > 0 && sentences[s - 1]!.passage === pass ? sScores[s - 1]! : 0;
      combined.push({ s, score: sScores[s]! + passageWeight * pScores[pass]! + previousWeight * prev });
    }
    for (const s of touched) sScores[s] = 0;
    for (const p of pTouched) pScores[p] = 0;
    combined.sort((a, b) => b.score - a.score);
    const type = expectedAnswerType(q.words);
    const head = combined.slice(0, Math.max(k, rerankDepth));
    const top = head[0]?.score ?? 0;
    const pairs = opts.proximityBonus > 0 ? questionPairs(q.terms) : null;
    for (const c of head) {
      if (type !== null && answerTypeMatches(type, sentences[c.s]!.text, q.words)) c.score += top * opts.answerTypeBonus;
      if (pairs) c.score += top * opts.proximityBonus * adjacentPairs(sentences[c.s]!.terms, pairs);
    }
    head.sort((a, b) => b.score - a.score);
    return head.slice(0, k).map(({ s, score }) => {
      const passage = corpus.passages[sentences[s]!.passage]!;
      return { sentence: s, text: sentences[s]!.text, score, page: passage.page, url: passage.url, title: passage.title };
    });
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

  const coverage = (q: AnalyzedQuery, sentence: number): number => {
    if (q.totalIdf <= 0) return 0;
    const p = corpus.passages[sentences[sentence]!.passage]!;
    const wanted = new Set(q.terms);
    let found = 0;
    for (let s = p.firstSentence; s < p.firstSentence + p.sentenceCount; s++) {
      for (const id of sentences[s]!.terms) if (wanted.delete(id)) found += sentenceIndex.idf(id);
    }
    return Math.min(1, found / q.totalIdf);
  };

  return { corpus, analyze, rankSentences, rankPassages, coverage };
}

// Consecutive content terms of the question, as "a b" keys.
function questionPairs(terms: readonly number[]): ReadonlySet<number> {
  const out = new Set<number>();
  for (let i = 0; i + 1 < terms.length; i++) out.add(terms[i]! * 1_000_003 + terms[i + 1]!);
  return out;
}

// How many of the question's word pairs occur in the sentence in order within two positions (stopwords between).
function adjacentPairs(terms: Int32Array, pairs: ReadonlySet<number>): number {
  let n = 0;
  for (let i = 0; i + 1 < terms.length; i++) {
    if (pairs.has(terms[i]! * 1_000_003 + terms[i + 1]!)) n++;
    else if (i + 2 < terms.length && pairs.has(terms[i]! * 1_000_003 + terms[i + 2]!)) n++;
  }
  return n;
}

// A passage's terms are its sentences' terms, plus its page's title on the page's first passage.
function createPassageIndex(corpus: Corpus, options: { k1: number; b: number }): Bm25Index {
  return createBm25Index(corpus, corpus.passages.map((_, i) => corpus.passageTerms(i)), options);
}
