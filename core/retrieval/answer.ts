import { ok, type Fail, type Ok } from '../errors/result.js';
import type { Citation } from '../sources.js';
import { CHECKABLE_TYPES, answerMatches, isAnswerCue, type AnswerIntent } from './answer-type.js';
import type { AnalyzedQuery, RankedPassage, Retriever } from './retriever.js';
import { createSentenceRanker, type RankedSentence, type RankingOptions, type SentenceRanker } from './sentence-ranker.js';

/** Tunables of the extractive answerer. */
export interface AnswerOptions {
  /** Ranked sentences returned beside the answer (the answer's own first). Default 3. */
  readonly candidates?: number;
  /**
   * Least share of the question's IDF mass that the answer's section (its sentence, the sentence before, its
   * heading, its passage) must hold, else the outcome is `not_found`. Default {@link ANSWER_DEFAULTS}.minCoverage.
   */
  readonly minCoverage?: number;
  /**
   * When the question asks for a kind of fact that is written with digits, units or symbols (a price, a measure,
   * a date, a contact), answer only with a sentence (or its context) that holds one; else `not_found`. Default true.
   */
  readonly requireAnswerType?: boolean;
  /**
   * Decline when the question's most specific word (rarest in general language, answer-type cues such as "cost"
   * aside) occurs nowhere in the pages: "does it come with a scale?" on a page that never says "scale". Default true.
   */
  readonly requireKeyTerm?: boolean;
}

/** An extractive answer: sentences quoted from the pages, with the pages they come from. */
export interface ExtractiveAnswer {
  /** What the visitor reads: the answering sentence, with the sentence of context it needs, in page order. */
  readonly text: string;
  /** The sentence that holds the answer (`sentences[0]`). */
  readonly answer: RankedSentence;
  /** The sentence quoted with it for context (the one before or after it), or null. */
  readonly context: string | null;
  readonly citations: readonly Citation[];
  /** The best sentences, best first; `sentences[0]` is the answer. */
  readonly sentences: readonly RankedSentence[];
}

/** Why no answer was given, with what came closest: the passages to show as sources, and the ranked sentences. */
export interface NotFound extends Fail<'not_found'> {
  readonly closest: readonly RankedPassage[];
  readonly sentences: readonly RankedSentence[];
}

export type AnswerOutcome = Ok<ExtractiveAnswer> | NotFound;

export const ANSWER_DEFAULTS = Object.freeze({ candidates: 3, minCoverage: 0.15, requireAnswerType: true, requireKeyTerm: true });

/** Kit's built-in engine over one corpus: ranks its sentences and picks, composes or declines an answer. */
export interface Answerer {
  readonly ranker: SentenceRanker;
  answer(question: string): AnswerOutcome;
}

// Words that open a sentence leaning on the one before ("It weighs…", "However…", "Yes.").
const LEANS_BACK = new Set(('it its this that these those they them their theirs he she his her him there such both however but also so then '
  + 'therefore thus instead otherwise here yes no additionally moreover furthermore meanwhile still likewise similarly '
  + 'il elle ils elles cela ceci ces mais donc cependant ainsi er sie es dies diese dieser dieses aber deshalb jedoch trotzdem '
  + 'el ella ellos ellas esto estos estas pero sin ele ela eles elas isso mas porem lui loro questo questa ma dit deze maar').split(' '));

/** Builds the answerer of `retriever`'s corpus (the sentence index is built here, once). */
export function createAnswerer(retriever: Retriever, options: AnswerOptions & RankingOptions = {}): Answerer {
  const ranker = createSentenceRanker(retriever, options);
  const k = Math.max(1, options.candidates ?? ANSWER_DEFAULTS.candidates);
  const minCoverage = options.minCoverage ?? ANSWER_DEFAULTS.minCoverage;
  const requireType = options.requireAnswerType ?? ANSWER_DEFAULTS.requireAnswerType;
  const requireKey = options.requireKeyTerm ?? ANSWER_DEFAULTS.requireKeyTerm;
  const { corpus } = retriever;
  const sentences = corpus.sentences;
  const { roles, headingOf } = ranker;

  const samePassage = (a: number, b: number): boolean => b >= 0 && b < sentences.length && sentences[a]!.passage === sentences[b]!.passage;

  // The sentence quoted with `s` so that it reads on its own, or -1.
  const contextOf = (s: number): number => {
    if (roles[s] === 'row') return -1;
    const prev = s - 1;
    if (samePassage(s, prev) && headingOf[prev] === headingOf[s]) {
      if (roles[prev] === 'fragment') return prev;
      const first = firstWord(sentences[s]!.text);
      if (roles[prev] === 'sentence' && LEANS_BACK.has(first)) return prev;
    }
    // The first sentence of a section, short: its next sentence finishes what it starts ("Rinse the fly…").
    const next = s + 1;
    if (headingOf[s]! >= 0 && headingOf[s] === s - 1 && sentences[s]!.terms.length < 16 && samePassage(s, next)
      && roles[next] === 'sentence' && sentences[next]!.paragraph === sentences[s]!.paragraph && headingOf[next] === headingOf[s]) return next;
    return -1;
  };

  // Share of the question's IDF mass found in the sentence's section: itself, its context, its heading, its passage.
  const coverage = (q: AnalyzedQuery, s: number): number => {
    if (q.totalIdf <= 0) return 0;
    const wanted = new Set(q.terms);
    let found = 0;
    const take = (terms: ArrayLike<number>): void => {
      for (let i = 0; i < terms.length; i++) { const id = terms[i]!; if (wanted.delete(id)) found += retriever.idf(id); }
    };
    take(corpus.passageTerms(sentences[s]!.passage));
    if (headingOf[s]! >= 0) take(sentences[headingOf[s]!]!.terms);
    return Math.min(1, found / q.totalIdf);
  };

  const notFound = (q: AnalyzedQuery, reason: string, ranked: readonly RankedSentence[]): NotFound => ({
    ok: false, code: 'not_found', reason, closest: retriever.rankPassages(q, 3), sentences: ranked,
  });

  // The question's most specific word (rarest in general language), cue words of its answer type aside: what the
  // question is about. Null when the pages hold it (or the question has none).
  const missingKey = (q: AnalyzedQuery): string | null => {
    let key: string | null = null;
    let keyRank = 0;
    let keyStem = '';
    for (const i of q.content) {
      const w = q.words[i]!;
      // "much" in "how much", "cost" in "how much does it cost": they say what kind of answer, not about what.
      if (isAnswerCue(w) || isAnswerCue(q.stems[i]!) || (i > 0 && (q.words[i - 1] === 'how' || q.words[i - 1] === 'wie'))) continue;
      const rank = /^\d/.test(w) ? 5_000 : Math.min(corpus.resources.commonRank(q.stems[i]!), 100_000);
      if (rank > keyRank) { key = w; keyRank = rank; keyStem = q.stems[i]!; }
    }
    return key !== null && !corpus.vocabulary.has(keyStem) ? key : null;
  };

  const answer = (question: string): AnswerOutcome => {
    const q = retriever.analyze(question);
    const ranked = ranker.rank(q, Math.max(k, 10));
    const best = ranked[0];
    if (!best) return notFound(q, 'no word of the question occurs in the pages', []);
    if (requireKey) {
      const key = missingKey(q);
      if (key !== null) return notFound(q, `the pages never mention "${key}"`, ranked.slice(0, k));
    }
    const intent: AnswerIntent | null = ranker.intentOf(q);
    let chosen = best;
    let context = contextOf(best.sentence);
    if (requireType && intent !== null && CHECKABLE_TYPES.has(intent.type) && !best.typeMatch) {
      // The best sentence lacks the kind of fact asked for: its context may hold it; else a lower one that does.
      if (!(context >= 0 && answerMatches(intent, sentences[context]!.text, q.words))) {
        const typed = (options as { switchType?: boolean }).switchType === false ? undefined : ranked.find((r) => r.typeMatch);
        if (!typed) return notFound(q, `no passage holds a ${intent.type} for the question`, ranked.slice(0, k));
        chosen = typed;
        context = contextOf(typed.sentence);
      }
    }
    if (coverage(q, chosen.sentence) < minCoverage) return notFound(q, 'no passage matches enough of the question', ranked.slice(0, k));
    const order = [chosen, ...ranked.filter((r) => r !== chosen)].slice(0, k);
    const ctx = context >= 0 ? sentences[context]!.text : null;
    const text = ctx === null ? chosen.text : context < chosen.sentence ? `${ctx} ${chosen.text}` : `${chosen.text} ${ctx}`;
    return ok({ text, answer: chosen, context: ctx, citations: [{ url: chosen.url, title: chosen.title }], sentences: order });
  };

  return { ranker, answer };
}

const answerers = new WeakMap<Retriever, Answerer>();

/**
 * Kit's built-in engine: picks the sentence of the pages that holds the kind of fact the question asks for (BM25
 * over sentences, passages and the headings above them, re-ranked by answer type and word proximity), quotes it
 * with the sentence of context it needs, and cites its page. Never a heading, a question or a fragment.
 * `not_found`, with the closest passages, when no sentence holds an answer of the right kind or the pages share
 * too little of the question: an expected outcome, not an error. The sentence index is built on first use and
 * kept with the retriever (default options only).
 */
export function answerQuestion(retriever: Retriever, question: string, options?: AnswerOptions & RankingOptions): AnswerOutcome {
  if (options) return createAnswerer(retriever, options).answer(question);
  let a = answerers.get(retriever);
  if (!a) { a = createAnswerer(retriever); answerers.set(retriever, a); }
  return a.answer(question);
}

function firstWord(text: string): string {
  const m = /^[\s"'“‘«(¿¡]*([\p{L}']+)/u.exec(text);
  return m ? m[1]!.toLowerCase().normalize('NFD').replace(/\p{Mn}/gu, '') : '';
}
