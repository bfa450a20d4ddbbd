// EXPERIMENTS of 2026-11-27 evening (docs/eval.md, Session 7): every option marked EXPERIMENT, off by default; reverted
// in the next commit. GRADED=1 in the environment makes answerNearBonus graded by distance.
import { createBm25Index } from './bm25-index.js';
import { tokenize } from '../text/tokenize.js';
import { foldAccents } from '../text/normalize.js';
import { answerMatches, answerPossible, expectedAnswer, type AnswerIntent } from './answer-type.js';
import type { AnalyzedQuery, Retriever } from './retriever.js';
import { isAnswerRole, sentenceRoles, type SentenceRole } from './sentence-roles.js';

/** Tunables of sentence ranking. */
export interface RankingOptions {
  readonly passageWeight?: number;
  readonly previousWeight?: number;
  readonly headingWeight?: number;
  readonly nextWeight?: number;
  readonly possibleTypeBonus?: number;
  readonly coverageBonus?: number;
  readonly rarestBonus?: number;
  readonly positionBonus?: number;
  readonly rerankDepth?: number;
  readonly answerTypeBonus?: number;
  readonly proximityBonus?: number;
  readonly answerNounWeight?: number;
  readonly noveltyBonus?: number;
  readonly densityBonus?: number;
  readonly definitionBonus?: number;
  readonly typedPreviousWeight?: number;
  readonly answerNearBonus?: number;
  readonly whichNameBonus?: number;
  readonly windowWeight?: number;
  readonly reasonBonus?: number;
  readonly answerNearWords?: number;
  readonly k1?: number;
  readonly b?: number;
}

/** Defaults of {@link RankingOptions}; see docs/eval.md for how each was chosen (development splits only). */
export const RANKING_DEFAULTS = Object.freeze({
  /** Weight of the enclosing passage's BM25 score: context disambiguates short sentences. */
  passageWeight: 0.65,
  /** Weight of the previous sentence's score: "It was built in 1712" answers a question about the previous one. */
  previousWeight: 0.2,
  /**
   * Weight of the score of the heading (or FAQ question) the sentence sits under, divided by its distance in
   * sentences from it: "Cleaning" answers nothing, but the first sentences under it say how to clean.
   */
  headingWeight: 0.5,
  /** Weight of the next sentence's score. */
  nextWeight: 0.05,
  /** Candidates re-ranked with the answer-type check. */
  rerankDepth: 30,
  /** Share of the best candidate's score added to a sentence holding an answer of the expected kind. */
  answerTypeBonus: 0.3,
  /** Share of the best score added per pair of question words found next to each other in a sentence. */
  proximityBonus: 0.05,
  /** Share added to a sentence that holds a looser form of the kind asked for (any number for an amount). */
  possibleTypeBonus: 0,
  /** Share added times the share of the question's weight the sentence itself holds. */
  coverageBonus: 0,
  /** Share added when the sentence holds the question's rarest word. */
  rarestBonus: 0.05,
  /** Share added times the sentence's position in the pages (0 first, 1 last); negative favours early sentences. */
  positionBonus: 0,
  /** EXPERIMENT: weight multiplier of the noun right after what/which (the kind of answer wanted). */
  answerNounWeight: 1,
  /** EXPERIMENT: share added times the sentence's share of new content words (not in the question), saturating. */
  noveltyBonus: 0,
  /** EXPERIMENT: share added times the density of matched question weight (matched words / their span). */
  densityBonus: 0,
  /** EXPERIMENT: share added to a sentence that defines what a "what is X" question asks about ("X was a …"). */
  definitionBonus: 0,
  /** EXPERIMENT: more of the previous sentence's score for a sentence holding the asked kind that the previous one lacks. */
  typedPreviousWeight: 0,
  /** EXPERIMENT: share added when a candidate answer of the asked kind sits within `answerNearWords` words of a question word. */
  answerNearBonus: 0,
  answerNearWords: 3,
  /** EXPERIMENT: share added to a sentence with a new name for an untyped "which/what NOUN" question. */
  whichNameBonus: 0,
  /** EXPERIMENT: weight of the best BM25 score of the two-sentence windows (with the previous or the next sentence) holding the sentence. */
  windowWeight: 0,
  /** EXPERIMENT: share added to a sentence with a causal cue (because, due to, parce que…) for a "why" question. */
  reasonBonus: 0,
  /** BM25 term-frequency saturation over sentences. */
  k1: 0.6,
  /** BM25 length normalisation over sentences. */
  b: 0.5,
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
  /** True when the sentence holds a fact of the kind the question asks for (always false for untyped questions). */
  readonly typeMatch: boolean;
}

/** Sentence-level retrieval over a retriever's corpus: the extractive answerer's ranking. */
export interface SentenceRanker {
  readonly retriever: Retriever;
  /** By sentence: its role (only `sentence` and `row` are ranked). */
  readonly roles: readonly SentenceRole[];
  /** By sentence: the heading or FAQ question it sits under, or -1. */
  readonly headingOf: Int32Array;
  /** The answer the question asks for, as detected from its words. */
  intentOf(query: AnalyzedQuery): AnswerIntent | null;
  /** The `k` best answer sentences (never a heading, question or fragment), best first. */
  rank(query: string | AnalyzedQuery, k?: number): RankedSentence[];
  /** BM25 score of every sentence for the query (scratch: valid until the next call). */
  sentenceScores(query: AnalyzedQuery): Float64Array;
  /** The best `depth` candidates with their features and scores, best first (for evaluation and tuning). */
  candidates(query: AnalyzedQuery, depth: number): Candidate[];
}

/** A candidate answer sentence with the features it was scored on (see {@link RANKING_DEFAULTS}). */
export interface Candidate {
  readonly sentence: number;
  /** BM25 scores: the sentence, its passage, the sentence before, its heading (by distance), its row name, the sentence after. */
  readonly first: readonly number[];
  /** Exact answer kind, a looser answer kind, adjacent question-word pairs, share of the question's weight, its rarest word, position in the pages (0–1). */
  second: readonly number[];
  /** The first stage's score. */
  readonly base: number;
  /** The final score: `base` + the best base × the second stage's weighted features. */
  score: number;
  typeMatch: boolean;
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Builds the sentence index of `retriever`'s corpus (linear in its size). */
export function createSentenceRanker(retriever: Retriever, options: RankingOptions = {}): SentenceRanker {
  const opts = { ...RANKING_DEFAULTS, ...options };
  const { corpus } = retriever;
  const sentences = corpus.sentences;
  const index = createBm25Index(corpus, sentences.map((s) => s.terms), opts);
  const roles = sentenceRoles(corpus);
  const n = sentences.length;
  // Window w = sentences w and w + 1 (same passage), for windowWeight.
  const windowIndex = opts.windowWeight !== 0 ? createBm25Index(corpus, sentences.map((x, i) => {
    const nx = sentences[i + 1];
    if (!nx || nx.passage !== x.passage) return x.terms;
    const t = new Int32Array(x.terms.length + nx.terms.length);
    t.set(x.terms); t.set(nx.terms, x.terms.length);
    return t;
  }), opts) : null;
  const wScores = new Float64Array(n);
  // The section head of each sentence and how many sentences below it the sentence is.
  const headingOf = new Int32Array(n).fill(-1);
  const depth = new Int32Array(n);
  let head = -1;
  let below = 0;
  for (let i = 0; i < n; i++) {
    const page = corpus.passages[sentences[i]!.passage]!.page;
    if (i > 0 && corpus.passages[sentences[i - 1]!.passage]!.page !== page) head = -1;
    if (roles[i] === 'heading' || roles[i] === 'question') {
      head = i;
      below = 0;
      continue;
    }
    headingOf[i] = head;
    depth[i] = below++;
  }
  // A table row is about the value of its first column ("Plan: Summit; Price: …" is the Summit row): how many of
  // its leading terms name it.
  const rowKey = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    if (roles[i] !== 'row') continue;
    const text = sentences[i]!.text;
    const cut = text.indexOf(';');
    rowKey[i] = Math.min(sentences[i]!.terms.length, corpus.analyze(cut < 0 ? text : text.slice(0, cut)).words.length);
  }
  const firstWeights = [1, opts.passageWeight, opts.previousWeight, opts.headingWeight, opts.headingWeight, opts.nextWeight, opts.windowWeight];
  const secondWeights = [opts.answerTypeBonus, opts.possibleTypeBonus, opts.proximityBonus, opts.coverageBonus, opts.rarestBonus, opts.positionBonus,
    opts.noveltyBonus, opts.densityBonus, opts.definitionBonus, opts.answerNearBonus, opts.whichNameBonus, opts.reasonBonus];
  const copulas = new Set<number>();
  for (const t of corpus.analyze(COPULAS).terms) { const id = corpus.vocabulary.get(t); if (id !== undefined) copulas.add(id); }
  // The term ids of X in "what is X" (every word of X in the pages), or null.
  const definedOf = (q: AnalyzedQuery): number[] | null => {
    const w = q.words;
    let i = 0;
    if (w[0] === 'o' && w[1] === 'que') i = 2; else if (DEFINE_WH.has(w[0] ?? '')) i = 1; else return null;
    if (w[i] === 'ce' && w[i + 1] === 'que') i += 2; // qu'est-ce que
    if (!DEFINE_COPULA.has(w[i] ?? '')) return null;
    i++;
    if (ARTICLES.has(w[i] ?? '')) i++;
    const rest = w.length - i;
    if (rest < 1 || rest > 5) return null;
    const out: number[] = [];
    for (let j = i; j < w.length; j++) {
      const id = corpus.vocabulary.get(q.stems[j]!);
      if (id === undefined) return null;
      out.push(id);
    }
    return out;
  };
  // "X is/was …" (or "The X was …") near the start of the sentence: the sentence defines X.
  const defines = (terms: Int32Array, x: readonly number[]): boolean => {
    const last = x[x.length - 1]!;
    for (let p = 0; p < Math.min(terms.length - 1, x.length + 3); p++) {
      if (terms[p] !== last || !copulas.has(terms[p + 1]!)) continue;
      const before = new Set<number>();
      for (let k = 0; k <= p; k++) before.add(terms[k]!);
      if (x.every((t) => before.has(t))) return true;
    }
    return false;
  };
  const reweigh = (q: AnalyzedQuery): AnalyzedQuery => {
    if (opts.answerNounWeight === 1) return q;
    const w = q.words;
    for (let i = 0; i + 1 < w.length; i++) {
      if (!WHAT_WORDS.has(w[i]!)) continue;
      const id = corpus.vocabulary.get(q.stems[i + 1]!);
      const at = id === undefined ? -1 : q.terms.indexOf(id);
      if (at < 0) return q;
      const weights = q.weights.slice();
      weights[at] = weights[at]! * opts.answerNounWeight;
      return { ...q, weights };
    }
    return q;
  };
  const sScores = new Float64Array(n);
  const pScores = new Float64Array(corpus.passages.length);
  const scratch = new Float64Array(n);

  // IDF mass of the question terms among a row's first `m` terms (its name).
  const keyScore = (terms: Int32Array, m: number, q: AnalyzedQuery): number => {
    let sum = 0;
    for (let i = 0; i < q.terms.length; i++) {
      const t = q.terms[i]!;
      for (let j = 0; j < m; j++) if (terms[j] === t) { sum += index.idf(t) * q.weights[i]!; break; }
    }
    return sum;
  };

  const sentenceScores = (q: AnalyzedQuery): Float64Array => {
    const touched = index.accumulate(q.terms, scratch, q.weights);
    const out = new Float64Array(n);
    for (const s of touched) { out[s] = scratch[s]!; scratch[s] = 0; }
    return out;
  };

  // The candidates of a question with their features: the first stage (BM25 of the sentence and its
  // surroundings) for every sentence the question reaches, the second (answer kind, proximity, coverage) for the
  // best `limit` of them.
  const candidates = (q0: AnalyzedQuery, limit: number): Candidate[] => {
    if (q0.terms.length === 0 || n === 0) return [];
    const q = reweigh(q0);
    const touched = index.accumulate(q.terms, sScores, q.weights);
    const pTouched = retriever.passageIndex.accumulate(q.terms, pScores, q.weights);
    const wTouched = windowIndex ? windowIndex.accumulate(q.terms, wScores, q.weights) : [];
    // Answer sentences that match themselves, sit under a matching heading, or follow a matching sentence.
    const cand = new Set<number>();
    for (const s of touched) {
      if (isAnswerRole(roles[s]!)) cand.add(s);
      else for (let t = s + 1; t < n && headingOf[t] === s && t <= s + 3; t++) if (isAnswerRole(roles[t]!)) cand.add(t);
      if (s + 1 < n && isAnswerRole(roles[s + 1]!) && sentences[s + 1]!.passage === sentences[s]!.passage) cand.add(s + 1);
    }
    const out: Candidate[] = [];
    for (const s of cand) {
      const pass = sentences[s]!.passage;
      const prev = s > 0 && sentences[s - 1]!.passage === pass && isAnswerRole(roles[s - 1]!) ? sScores[s - 1]! : 0;
      const next = s + 1 < n && sentences[s + 1]!.passage === pass && isAnswerRole(roles[s + 1]!) ? sScores[s + 1]! : 0;
      const h = headingOf[s]!;
      const heading = h >= 0 ? sScores[h]! / (1 + depth[s]!) : 0;
      const name = rowKey[s]! > 0 ? keyScore(sentences[s]!.terms, rowKey[s]!, q) : 0;
      const win = windowIndex ? Math.max(wScores[s]!, s > 0 && sentences[s - 1]!.passage === pass ? wScores[s - 1]! : 0) : 0;
      const first = [sScores[s]!, pScores[pass]!, prev, heading, name, next, win];
      out.push({ sentence: s, first, second: [], base: dot(first, firstWeights), score: 0, typeMatch: false });
    }
    for (const s of touched) sScores[s] = 0;
    for (const p of pTouched) pScores[p] = 0;
    for (const w of wTouched) wScores[w] = 0;
    out.sort((a, b) => b.base - a.base || a.sentence - b.sentence);
    const head = out.slice(0, limit);
    const intent = expectedAnswer(q.words);
    const pairs = questionPairs(q.terms);
    let rarest = -1;
    for (let i = 0; i < q.terms.length; i++) if (rarest < 0 || index.idf(q.terms[i]!) * q.weights[i]! > index.idf(q.terms[rarest]!) * q.weights[rarest]!) rarest = i;
    const whichNoun = intent === null && opts.whichNameBonus !== 0 && whichNounQuestion(q);
    const defined = opts.definitionBonus !== 0 ? definedOf(q) : null;
    const whyQ = opts.reasonBonus !== 0 && q.words.some((w) => WHY.has(w));
    const idfSum = q.terms.reduce((a, t, i) => a + index.idf(t) * q.weights[i]!, 0) || 1;
    for (const c of head) {
      const text = sentences[c.sentence]!.text;
      const terms = sentences[c.sentence]!.terms;
      const typed = intent !== null && intent.type !== 'yesno';
      c.typeMatch = typed && answerMatches(intent, text, q.words);
      const own = new Set<number>();
      for (let i = 0; i < terms.length; i++) own.add(terms[i]!);
      let covered = 0;
      for (let i = 0; i < q.terms.length; i++) if (own.has(q.terms[i]!)) covered += index.idf(q.terms[i]!) * q.weights[i]!;
      c.second = [
        c.typeMatch ? 1 : 0,
        typed && !c.typeMatch && intent !== null && answerPossible(intent, text, q.words) ? 1 : 0,
        adjacentPairs(terms, pairs),
        covered / idfSum,
        rarest >= 0 && own.has(q.terms[rarest]!) ? 1 : 0,
        n > 1 ? c.sentence / (n - 1) : 0,
        noveltyOf(terms, q.terms),
        densityOf(terms, q.terms),
        defined !== null && defines(terms, defined) ? 1 : 0,
        opts.answerNearBonus !== 0 && typed && c.typeMatch ? answerNear(text, terms, q, intent.type, opts.answerNearWords) : 0,
        whichNoun && answerMatches({ type: 'entity' }, text, q.words) ? 1 : 0,
        whyQ && REASON_CUES.test(text) ? 1 : 0,
      ];
    }
    const top = head[0]?.base ?? 0;
    for (const c of head) {
      c.score = c.base + top * dot(c.second, secondWeights);
      if (opts.typedPreviousWeight !== 0 && c.typeMatch && c.first[2]! > 0 && intent !== null
        && !answerMatches(intent, sentences[c.sentence - 1]!.text, q.words)) c.score += opts.typedPreviousWeight * c.first[2]!;
    }
    head.sort((a, b) => b.score - a.score || a.sentence - b.sentence);
    return head;
  };

  const rank = (question: string | AnalyzedQuery, k = 3): RankedSentence[] => {
    const q = typeof question === 'string' ? retriever.analyze(question) : question;
    return candidates(q, Math.max(k, opts.rerankDepth)).slice(0, k).map(({ sentence: s, score, typeMatch }) => {
      const passage = corpus.passages[sentences[s]!.passage]!;
      return { sentence: s, text: sentences[s]!.text, score, page: passage.page, url: passage.url, title: passage.title, typeMatch };
    });
  };

  return { retriever, roles, headingOf, intentOf: (q) => expectedAnswer(q.words), rank, sentenceScores, candidates };
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

const WHAT_WORDS = new Set('what which whats quel quelle quels quelles welche welcher welches welchen que cual cuales qual quais'.split(' '));

// Share of new content terms (not the question's), saturating at 4.
function noveltyOf(terms: Int32Array, qTerms: readonly number[]): number {
  const q = new Set(qTerms);
  const seen = new Set<number>();
  for (let i = 0; i < terms.length; i++) if (!q.has(terms[i]!)) seen.add(terms[i]!);
  return Math.min(1, seen.size / 4);
}

// Matched question terms over the span (in terms) that holds them: 1 when they sit together.
function densityOf(terms: Int32Array, qTerms: readonly number[]): number {
  const q = new Set(qTerms);
  let first = -1, last = -1;
  const found = new Set<number>();
  for (let i = 0; i < terms.length; i++) if (q.has(terms[i]!)) { if (first < 0) first = i; last = i; found.add(terms[i]!); }
  if (found.size < 2) return 0;
  return found.size / (last - first + 1);
}

const DEFINE_WH = new Set('what who whats qui que quest was wer que quien qual quem'.split(' '));
const DEFINE_COPULA = new Set('is are was were s est sont etait ist sind war waren es son era fue e sao foi'.split(' '));
const ARTICLES = new Set('the a an le la les l un une der die das ein eine el los las una o os as um uma'.split(' '));
const COPULAS = 'is are was were est sont etait ist sind war waren es son era fue e sao foi';

const GRADED = process.env.GRADED === '1';
const NUMBER_WORDS_NEAR = new Set('one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred thousand million billion'.split(' '));

// 1 when a word that can be the answer (a name for who/where/which, a number otherwise) not given by the question
// sits within `maxDist` words of a question word the sentence holds, else 0.
function answerNear(text: string, terms: Int32Array, q: AnalyzedQuery, type: string, maxDist: number): number {
  const words = tokenize(text);
  if (words.length !== terms.length) return 0;
  const qt = new Set(q.terms);
  const asked = new Set(q.words);
  const names = new Set<string>();
  if (type === 'person' || type === 'place' || type === 'entity') {
    for (const m of text.matchAll(/(?<=\s)\p{Lu}[\p{L}\p{N}'’-]*/gu)) names.add(foldAccents(m[0].toLowerCase()));
  }
  const isAnswer = (w: string): boolean => {
    if (asked.has(w)) return false;
    if (names.size > 0) return names.has(w);
    return /^\d/.test(w) || NUMBER_WORDS_NEAR.has(w);
  };
  let lastQ = -1e9, lastA = -1e9, best = 1e9;
  for (let i = 0; i < words.length; i++) {
    if (qt.has(terms[i]!)) { best = Math.min(best, i - lastA); lastQ = i; }
    else if (isAnswer(words[i]!)) { best = Math.min(best, i - lastQ); lastA = i; }
  }
  if (GRADED) return best > maxDist ? 0 : 1 - (best - 1) / maxDist;
  return best <= maxDist ? 1 : 0;
}

// "Which tool…", "what format…": which/what followed by a content word the question holds.
function whichNounQuestion(q: AnalyzedQuery): boolean {
  for (let i = 0; i + 1 < q.words.length; i++) {
    if (!WHAT_WORDS.has(q.words[i]!)) continue;
    return q.content.includes(i + 1);
  }
  return false;
}

const WHY = new Set('why pourquoi warum wieso weshalb porque perche'.split(' '));
const REASON_CUES = /\b(?:because|since|due to|caused?|causes|reasons?|so that|as a result|thanks to|in order to|parce qu|car|en raison|grâce|weil|denn|wegen|aufgrund|porque|debido|gracias a|causa|razão|devido|perché)\b/i;
