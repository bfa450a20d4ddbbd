import { tokenize } from '../text/tokenize.js';
import { foldAccents } from '../text/normalize.js';
import { createBm25Index } from './bm25-index.js';
import { answerMatches, answerPossible, expectedAnswer, type AnswerIntent } from './answer-type.js';
import type { Corpus } from '../text/corpus.js';
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
  readonly answerNearBonus?: number;
  readonly answerNearWords?: number;
  readonly definitionBonus?: number;
  /**
   * A host's extra evidence, 0–1, that sentence `sentence` answers the question (e.g. word-vector similarity of the
   * question's words the sentence lacks, on the server only); `idf` is the sentence index's. Default none: the
   * ranking is unchanged without it. Weighted by {@link relatednessBonus}, a share of the best first-stage score.
   */
  readonly relatedness?: (query: AnalyzedQuery, sentence: number, corpus: Corpus, idf: (term: number) => number) => number;
  readonly relatednessBonus?: number;
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
  /**
   * Share added to a sentence whose candidate answer of the kind asked for (a name the question does not give for
   * who/where/which-organisation, a number for amounts, prices, measures, durations, times) sits within
   * `answerNearWords` words of a question word: "Parata, 75," answers "How old is Hori Parata?", a 75 forty
   * words from the name does not say whose age it is.
   */
  answerNearBonus: 0.1,
  /** Distance, in words, of {@link answerNearBonus}. */
  answerNearWords: 3,
  /**
   * Share added to a sentence that defines what a "what is X?" question asks about: X (all of its words), near the
   * start of the sentence, followed by a copula ("AppleTalk was a proprietary suite…", "Telenet est…").
   */
  definitionBonus: 0.2,
  /** Share added to a sentence that holds a looser form of the kind asked for (any number for an amount). */
  possibleTypeBonus: 0,
  /** Share added times the share of the question's weight the sentence itself holds. */
  coverageBonus: 0,
  /** Share added when the sentence holds the question's rarest word. */
  rarestBonus: 0.05,
  /** Share added times the sentence's position in the pages (0 first, 1 last); negative favours early sentences. */
  positionBonus: 0,
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
  /**
   * Exact answer kind, a looser answer kind, adjacent question-word pairs, share of the question's weight, its
   * rarest word, position in the pages (0–1), the answer next to a question word, a definition of what is asked.
   */
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
  const firstWeights = [1, opts.passageWeight, opts.previousWeight, opts.headingWeight, opts.headingWeight, opts.nextWeight];
  const secondWeights = [opts.answerTypeBonus, opts.possibleTypeBonus, opts.proximityBonus, opts.coverageBonus, opts.rarestBonus, opts.positionBonus,
    opts.answerNearBonus, opts.definitionBonus, options.relatednessBonus ?? 0];
  const relatedness = options.relatedness && options.relatednessBonus ? options.relatedness : null;
  const idfOf = (t: number): number => index.idf(t);
  // By sentence, computed when first needed: per word, 1 for a number, 2 for a capitalised word after the first.
  const shapes: (Uint8Array | null)[] = new Array(n).fill(null);
  const shapeOf = (s: number): Uint8Array | null => {
    const cached = shapes[s];
    if (cached) return cached;
    const text = sentences[s]!.text;
    const words = tokenize(text);
    if (words.length !== sentences[s]!.terms.length) return null;
    const caps = new Set<string>();
    for (const m of text.matchAll(CAPITALISED)) caps.add(foldAccents(m[0].toLowerCase()));
    const out = new Uint8Array(words.length);
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (/^\d/.test(w) || NUMBER_WORDS.has(w)) out[i] = 1;
      else if (i > 0 && caps.has(w)) out[i] = 2;
    }
    shapes[s] = out;
    return out;
  };
  // 1 when a word of the answer's shape (2 a name, 1 a number) that the question does not hold sits within
  // `answerNearWords` words of a question term in sentence `s`.
  const answerNear = (s: number, shape: number, matched: ReadonlySet<number>, asked: ReadonlySet<number>): number => {
    const flags = shapeOf(s);
    if (!flags) return 0;
    const terms = sentences[s]!.terms;
    const d = opts.answerNearWords;
    let lastQ = -Infinity, lastA = -Infinity;
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i]!;
      if (matched.has(t)) {
        if (i - lastA <= d) return 1;
        lastQ = i;
      } else if (flags[i] === shape && !asked.has(t)) {
        if (i - lastQ <= d) return 1;
        lastA = i;
      }
    }
    return 0;
  };
  const copulas = new Set<number>();
  for (const t of corpus.analyze(COPULAS).terms) {
    const id = corpus.vocabulary.get(t);
    if (id !== undefined) copulas.add(id);
  }
  // The term ids of X in "what is X?" ("qu'est-ce que X", "was ist X", "qué es X", "o que é X"), when the pages
  // hold every word of it, or null.
  const definedOf = (q: AnalyzedQuery): number[] | null => {
    const w = q.words;
    let i = w[0] === 'o' && w[1] === 'que' ? 2 : DEFINE_WH.has(w[0] ?? '') ? 1 : -1;
    if (i < 0) return null;
    if (w[i] === 'ce' && w[i + 1] === 'que') i += 2;
    if (!DEFINE_COPULA.has(w[i] ?? '')) return null;
    i++;
    if (DEFINE_ARTICLES.has(w[i] ?? '')) i++;
    if (w.length - i < 1 || w.length - i > 5) return null;
    const out: number[] = [];
    for (let j = i; j < w.length; j++) {
      const id = corpus.vocabulary.get(q.stems[j]!);
      if (id === undefined) return null;
      out.push(id);
    }
    return out;
  };
  // "X is/was …" or "The X was …": X's last word, then a copula, within the sentence's first words, X's words before.
  const defines = (terms: Int32Array, x: readonly number[]): boolean => {
    const last = x[x.length - 1]!;
    for (let p = 0; p < Math.min(terms.length - 1, x.length + 3); p++) {
      if (terms[p] !== last || !copulas.has(terms[p + 1]!)) continue;
      let all = true;
      for (const t of x) {
        let found = false;
        for (let k = 0; k <= p && !found; k++) found = terms[k] === t;
        if (!found) { all = false; break; }
      }
      if (all) return true;
    }
    return false;
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
  const candidates = (q: AnalyzedQuery, limit: number): Candidate[] => {
    if (q.terms.length === 0 || n === 0) return [];
    const touched = index.accumulate(q.terms, sScores, q.weights);
    const pTouched = retriever.passageIndex.accumulate(q.terms, pScores, q.weights);
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
      const first = [sScores[s]!, pScores[pass]!, prev, heading, name, next];
      out.push({ sentence: s, first, second: [], base: dot(first, firstWeights), score: 0, typeMatch: false });
    }
    for (const s of touched) sScores[s] = 0;
    for (const p of pTouched) pScores[p] = 0;
    out.sort((a, b) => b.base - a.base || a.sentence - b.sentence);
    const head = out.slice(0, limit);
    const intent = expectedAnswer(q.words);
    const pairs = questionPairs(q.terms);
    let rarest = -1;
    for (let i = 0; i < q.terms.length; i++) if (rarest < 0 || index.idf(q.terms[i]!) * q.weights[i]! > index.idf(q.terms[rarest]!) * q.weights[rarest]!) rarest = i;
    const idfSum = q.terms.reduce((a, t, i) => a + index.idf(t) * q.weights[i]!, 0) || 1;
    const nearShape = intent === null || opts.answerNearBonus === 0 ? 0 : NAME_TYPES.has(intent.type) ? 2 : NUMBER_TYPES.has(intent.type) ? 1 : 0;
    const matched = new Set(q.terms);
    const asked = new Set<number>();
    if (nearShape !== 0) for (const st of q.stems) { const id = corpus.vocabulary.get(st); if (id !== undefined) asked.add(id); }
    const defined = opts.definitionBonus !== 0 ? definedOf(q) : null;
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
        nearShape !== 0 && c.typeMatch ? answerNear(c.sentence, nearShape, matched, asked) : 0,
        defined !== null && defines(terms, defined) ? 1 : 0,
        relatedness ? relatedness(q, c.sentence, corpus, idfOf) : 0,
      ];
    }
    const top = head[0]?.base ?? 0;
    for (const c of head) c.score = c.base + top * dot(c.second, secondWeights);
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

const CAPITALISED = /(?<=\s)\p{Lu}[\p{L}\p{N}'’-]*/gu;
const NUMBER_WORDS = new Set('one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred thousand million billion'.split(' '));
const NAME_TYPES: ReadonlySet<string> = new Set(['person', 'place', 'entity']);
const NUMBER_TYPES: ReadonlySet<string> = new Set(['number', 'money', 'quantity', 'duration', 'time']);
// "What is X?" in the five languages of the packs (normalised: accents folded, elisions dropped).
const DEFINE_WH = new Set('what whats who qui que quest was wer quien qual quem'.split(' '));
const DEFINE_COPULA = new Set('is are was were s est sont etait ist sind war waren es son era fue e sao foi'.split(' '));
const DEFINE_ARTICLES = new Set('the a an le la les un une der die das ein eine el los las una o os as um uma'.split(' '));
const COPULAS = 'is are was were est sont etait ist sind war waren es son era fue e sao foi';
