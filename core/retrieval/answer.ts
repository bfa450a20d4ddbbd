import { ok, type Fail, type Ok } from '../errors/result.js';
import type { Citation } from '../sources.js';
import { CHECKABLE_TYPES, answerMatches, answerPossible, isAnswerCue, type AnswerIntent, type AnswerType } from './answer-type.js';
import type { AnalyzedQuery, RankedPassage, Retriever } from './retriever.js';
import { createSentenceRanker, type RankedSentence, type RankingOptions, type SentenceRanker } from './sentence-ranker.js';
import { leansBack } from './sentence-roles.js';
import type { Language } from '../text/language.js';

/** Tunables of the extractive answerer. */
export interface AnswerOptions {
  /** Ranked sentences returned beside the answer (the answer's own first). Default 3. */
  readonly candidates?: number;
  /**
   * Least confidence (0–1) to answer; below it the outcome is `not_found` with the closest passages. Default
   * {@link ANSWER_DEFAULTS}.minConfidence. 0 answers whenever any sentence matches.
   */
  readonly minConfidence?: number;
  /**
   * When the best sentence holds nothing of the kind of fact asked for (no number for "how much", no date for
   * "when", no email or phone for "how do I contact…"), answer with the best one that does. Default true.
   */
  readonly switchToAnswerType?: boolean;
  /**
   * When an answer sentence needs no particular context, quote with it the neighbour in its paragraph that shares
   * more of the question (when one shares any). Default true.
   */
  readonly neighbourContext?: boolean;
  /**
   * Least confidence to offer the best sentence as the closest the pages come, below `minConfidence`: the outcome
   * is `not_found` with `nearest` set — never stated as an answer. Default {@link ANSWER_DEFAULTS}.hedgeConfidence;
   * 1 never offers one.
   */
  readonly hedgeConfidence?: number;
  /**
   * When the answer needs no context and the runner-up sentence also holds the kind of fact asked for and the
   * question's key word ("$49 per year" in the Summit row, "the Summit plan for $25 per year" for students), quote
   * the runner-up after the answer: the pages give two values (a general and a conditional price, a summer and a
   * winter weight), and the visitor sees both instead of one stated as the only one. Default true, for
   * `runnerUpKinds`.
   */
  readonly runnerUpContext?: boolean;
  /**
   * The kinds of fact `runnerUpContext` applies to. Default the kinds written with symbols or units (money, quantity,
   * duration, contact): two sentences holding one of them and the key word are two values. A name (any capitalised
   * word) or a bare number is too weak a sign for that; every kind measured the same on the development halves at
   * the default threshold (docs/eval.md).
   */
  readonly runnerUpKinds?: readonly AnswerType[];
  /**
   * A question word that says what kind of answer is wanted ("much" in "how much", "price", "year", "author") and is
   * absent from the pages is no evidence against the answer: the confidence leaves it out of the question's words
   * the pages must hold (as the key word already does). Default false: measured, it let more wrong answers through
   * on the development pages (docs/eval.md).
   */
  readonly neutralCues?: boolean;
  /** Weights of the confidence over {@link ANSWER_SIGNALS} (bias last). */
  readonly confidenceWeights?: readonly number[];
  /**
   * Tells a question about the page as a whole ("what is this page about?", "summarise this page"): answered with
   * the page's lead (its first sentences). The grounding gate's `isPageQuestion` (core/grounding), passed in by the
   * host so that reading and ranking pages does not carry the gate's word lists. Default: none (no such answers).
   */
  readonly pageQuestion?: (question: string, language: Language) => boolean;
}

/**
 * What the confidence weighs, in order (each 0–1): the shown text holds the exact kind asked for; the question
 * asks for a checkable kind (amount, price, measure, time, contact) that the text cannot hold; the question has no
 * expected kind; it is a yes/no question; share of the question's IDF in the answer's passage and heading; share of
 * its weight in the answer's own sentences and heading; its most specific word is absent from the pages; that word
 * is in the answer; the answer's lead over the next sentence; share of its content words found in the pages; share
 * of them in the answer; the score's strength; the rank of the answer's passage among the three best passages for
 * the question (1 best, ½, ⅓, 0 beyond); the runner-up sentence is shown with the answer or sits in its paragraph;
 * the kind asked for is a measured one and shown; the runner-up, not shown, scores within {@link NEAR_TIE} of the answer.
 */
export const ANSWER_SIGNALS = Object.freeze(['exact_kind', 'impossible_kind', 'untyped', 'yesno', 'section_coverage', 'answer_coverage',
  'key_missing', 'key_in_answer', 'margin', 'page_coverage', 'words_in_answer', 'strength', 'passage_rank', 'runner_up_shown', 'exact_measure', 'near_tie'] as const);

/**
 * `near_tie`: the runner-up sentence scores within this share of the answer's and is not shown with it — two
 * sentences read the question equally well, and the one stated may be the wrong one (session 9, docs/eval.md).
 */
export const NEAR_TIE = 0.05;

/** An extractive answer: sentences quoted from the pages, with the pages they come from. */
export interface ExtractiveAnswer {
  /**
   * What the visitor reads: the answering sentence, with the sentence of context it needs, in page order — or
   * followed by the runner-up of the same kind (`runnerUpContext`).
   */
  readonly text: string;
  /** The sentence that holds the answer (`sentences[0]`). */
  readonly answer: RankedSentence;
  /** The sentence quoted with it for context (the one before or after it, or the runner-up), or null. */
  readonly context: string | null;
  /** The pages of the shown text: the answer's, then the context's when it is another (a runner-up from another page). */
  readonly citations: readonly Citation[];
  /** Their indexes in the corpus's pages, in the same order. */
  readonly pages: readonly number[];
  /** The best sentences, best first; `sentences[0]` is the answer. */
  readonly sentences: readonly RankedSentence[];
  /** How likely (0–1) the shown text answers the question, from {@link ANSWER_SIGNALS}. */
  readonly confidence: number;
  readonly signals: readonly number[];
}

/** The best sentence when it is not sure enough to be an answer: what the pages say closest to the question. */
export interface NearestSentence {
  /** The sentence with its context sentence, in page order (as an answer's `text`). */
  readonly text: string;
  readonly sentence: RankedSentence;
  /** As an answer's: the sentence's page, then its context's when it is another. */
  readonly citations: readonly Citation[];
  readonly pages: readonly number[];
}

/** Why no answer was given, with what came closest: the passages to show as sources, and the ranked sentences. */
export interface NotFound extends Fail<'not_found'> {
  readonly closest: readonly RankedPassage[];
  /**
   * Set when the confidence is between `hedgeConfidence` and `minConfidence` and the pages can hold the kind of
   * fact asked for: the best sentence, to be shown as the closest the pages come, not as an answer.
   */
  readonly nearest?: NearestSentence;
  readonly sentences: readonly RankedSentence[];
  /** The confidence the best sentence had, when there was one. */
  readonly confidence?: number;
  readonly signals?: readonly number[];
}

export type AnswerOutcome = Ok<ExtractiveAnswer> | NotFound;

/**
 * Defaults. The confidence's weights and thresholds are printed by `npx tsx scripts/eval/qa-fit.ts --cost 3`:
 * logistic regression on the development halves only (real pages' `dev`, SQuAD's `tune`); `minConfidence` is the
 * lowest threshold at which both development halves state wrong answers for ≤ 5 % of answerable questions under
 * weights fitted without the question's page (cross-validated by page, session 11: 0.72; the same rule in-sample,
 * session 9, chose 0.71, where real pages dev states 6.6 % wrong out-of-fold); `hedgeConfidence` maximises right
 * minus wrong (docs/eval.md, "qa"; docs/inference.md).
 */
export const ANSWER_DEFAULTS = Object.freeze({
  candidates: 3,
  minConfidence: 0.72,
  hedgeConfidence: 0.39,
  switchToAnswerType: true,
  neighbourContext: true,
  runnerUpContext: true,
  runnerUpKinds: Object.freeze(['money', 'quantity', 'duration', 'contact']) as readonly AnswerType[],
  neutralCues: false,
  confidenceWeights: Object.freeze([0.48, -0.2, -0.18, 0.1, 0.37, 0.35, 0, 0.34, 0.99, 0.01, 0.46, 0.18, 0.21, 0.38, 0.27, -0.49, -1.32]) as readonly number[],
});

function logistic(x: readonly number[], w: readonly number[]): number {
  let z = w[x.length] ?? 0;
  for (let i = 0; i < x.length; i++) z += x[i]! * (w[i] ?? 0);
  return 1 / (1 + Math.exp(-z));
}

/** Kit's built-in engine over one corpus: ranks its sentences and picks, composes or declines an answer. */
export interface Answerer {
  readonly ranker: SentenceRanker;
  answer(question: string): AnswerOutcome;
}

/** Builds the answerer of `retriever`'s corpus (the sentence index is built here, once). */
export function createAnswerer(retriever: Retriever, options: AnswerOptions & RankingOptions = {}): Answerer {
  const ranker = createSentenceRanker(retriever, options);
  const k = Math.max(1, options.candidates ?? ANSWER_DEFAULTS.candidates);
  const switchType = options.switchToAnswerType ?? ANSWER_DEFAULTS.switchToAnswerType;
  const minConfidence = options.minConfidence ?? ANSWER_DEFAULTS.minConfidence;
  const hedgeConfidence = Math.min(minConfidence, options.hedgeConfidence ?? ANSWER_DEFAULTS.hedgeConfidence);
  const weights = options.confidenceWeights ?? ANSWER_DEFAULTS.confidenceWeights;
  const neighbourContext = options.neighbourContext ?? ANSWER_DEFAULTS.neighbourContext;
  const runnerUpContext = options.runnerUpContext ?? ANSWER_DEFAULTS.runnerUpContext;
  const runnerUpKinds: ReadonlySet<AnswerType> = new Set(options.runnerUpKinds ?? ANSWER_DEFAULTS.runnerUpKinds);
  const neutralCues = options.neutralCues ?? ANSWER_DEFAULTS.neutralCues;
  const { corpus } = retriever;
  const sentences = corpus.sentences;
  const { roles, headingOf } = ranker;
  const missingIdf = Math.log(1 + corpus.passages.length + 0.5);
  const missingWeight = missingIdf * (1 + retriever.options.specificityWeight);

  const samePassage = (a: number, b: number): boolean => b >= 0 && b < sentences.length && sentences[a]!.passage === sentences[b]!.passage;

  // The sentence quoted with `s` so that it reads on its own, or -1.
  const contextOf = (s: number, scores?: Float64Array): number => {
    if (roles[s] === 'row') return -1;
    const prev = s - 1;
    if (samePassage(s, prev) && headingOf[prev] === headingOf[s]) {
      if (roles[prev] === 'fragment') return prev;
      if (roles[prev] === 'sentence' && leansBack(sentences[s]!.text)) return prev;
    }
    // The first sentence of a section, short: its next sentence finishes what it starts ("Rinse the fly…").
    const next = s + 1;
    if (headingOf[s]! >= 0 && headingOf[s] === s - 1 && sentences[s]!.terms.length < 16 && samePassage(s, next)
      && roles[next] === 'sentence' && sentences[next]!.paragraph === sentences[s]!.paragraph && headingOf[next] === headingOf[s]) return next;
    if (scores) {
      // The neighbour in the same paragraph that shares more of the question, when one shares any.
      const p = sentences[s]!.paragraph;
      const a = prev >= 0 && sentences[prev]!.paragraph === p && roles[prev] === 'sentence' ? scores[prev]! : 0;
      const b = next < sentences.length && sentences[next]!.paragraph === p && roles[next] === 'sentence' ? scores[next]! : 0;
      if (a > 0 || b > 0) return a >= b ? prev : next;
    }
    return -1;
  };

  // Share of the question's IDF mass found in the sentence's section: itself, its context, its heading, its passage.
  const coverage = (q: AnalyzedQuery, s: number, neutral: number): number => {
    // A neutral cue word is a missing word the question's IDF mass counts at the rarest possible IDF.
    const total = q.totalIdf - neutral * missingIdf;
    if (total <= 0) return 0;
    const wanted = new Set(q.terms);
    let found = 0;
    const take = (terms: ArrayLike<number>): void => {
      for (let i = 0; i < terms.length; i++) { const id = terms[i]!; if (wanted.delete(id)) found += retriever.idf(id); }
    };
    take(corpus.passageTerms(sentences[s]!.passage));
    if (headingOf[s]! >= 0) take(sentences[headingOf[s]!]!.terms);
    return Math.min(1, found / total);
  };

  const notFound = (q: AnalyzedQuery, reason: string, ranked: readonly RankedSentence[]): NotFound => ({
    ok: false, code: 'not_found', reason, closest: retriever.rankPassages(q, 3), sentences: ranked,
  });

  // The stem of the question's most specific word (rarest in general language), cue words of its answer type
  // aside: what the question is about. Null when the question has none.
  // "much" in "how much", "cost" in "how much does it cost": they say what kind of answer, not about what.
  const isCue = (q: AnalyzedQuery, i: number): boolean =>
    isAnswerCue(q.words[i]!) || isAnswerCue(q.stems[i]!) || (i > 0 && (q.words[i - 1] === 'how' || q.words[i - 1] === 'wie'));

  const keyOf = (q: AnalyzedQuery): string | null => {
    let key: string | null = null;
    let keyRank = 0;
    for (const i of q.content) {
      const w = q.words[i]!;
      if (isCue(q, i)) continue;
      const rank = /^\d/.test(w) ? 5_000 : Math.min(corpus.resources.commonRank(q.stems[i]!), 100_000);
      if (rank > keyRank) { key = q.stems[i]!; keyRank = rank; }
    }
    return key;
  };

  // What the answer rests on, each 0–1 (see ANSWER_SIGNALS): the evidence the confidence weighs.
  const signalsOf = (q: AnalyzedQuery, intent: AnswerIntent | null, chosen: RankedSentence, context: number, second: RankedSentence | undefined): number[] => {
    const s = chosen.sentence;
    const bestPassages = retriever.rankPassages(q, 3).map((p) => p.text);
    const passageRank = bestPassages.indexOf(corpus.passages[sentences[s]!.passage]!.text);
    const shown = context >= 0 ? `${sentences[context]!.text} ${chosen.text}` : chosen.text;
    const typed = intent !== null && CHECKABLE_TYPES.has(intent.type);
    const exact = intent !== null && intent.type !== 'yesno' && (chosen.typeMatch || answerMatches(intent, shown, q.words));
    const possible = intent !== null && answerPossible(intent, shown, q.words);
    const own = new Set<number>();
    const addTerms = (t: ArrayLike<number>): void => { for (let i = 0; i < t.length; i++) own.add(t[i]!); };
    addTerms(sentences[s]!.terms);
    if (context >= 0) addTerms(sentences[context]!.terms);
    if (headingOf[s]! >= 0) addTerms(sentences[headingOf[s]!]!.terms);
    // The page's title names what every sentence of it is about ("Tent care guide" above "Rinse the fly").
    addTerms(corpus.titleTerms[chosen.page] ?? []);
    // Weight of the question's words: found ones by IDF × specificity, missing ones as the rarest possible.
    let mass = 0;
    let held = 0;
    for (let i = 0; i < q.terms.length; i++) {
      const w = retriever.idf(q.terms[i]!) * q.weights[i]!;
      mass += w;
      if (own.has(q.terms[i]!)) held += w;
    }
    const key = keyOf(q);
    const keyId = key === null ? undefined : corpus.vocabulary.get(key);
    let onPage = 0;
    let inAnswer = 0;
    let neutral = 0;
    for (const i of q.content) {
      const id = corpus.vocabulary.get(q.stems[i]!);
      if (id !== undefined) { onPage++; if (own.has(id)) inAnswer++; } else if (neutralCues && isCue(q, i)) neutral++;
    }
    mass += (q.content.length - q.terms.length - neutral) * missingWeight;
    const words = q.content.length - neutral;
    return [
      exact ? 1 : 0,
      typed && !possible ? 1 : 0,
      intent === null ? 1 : 0,
      intent?.type === 'yesno' ? 1 : 0,
      coverage(q, s, neutral),
      mass > 0 ? held / mass : 0,
      key !== null && keyId === undefined ? 1 : 0,
      keyId !== undefined && own.has(keyId) ? 1 : 0,
      second && chosen.score > 0 ? Math.max(0, (chosen.score - second.score) / chosen.score) : 1,
      words > 0 ? onPage / words : 0,
      words > 0 ? inAnswer / words : 0,
      mass > 0 ? Math.min(1, chosen.score / (mass * 2)) : 0,
      // The passage ranking agrees: the answer sits in the best passage for the question.
      passageRank < 0 ? 0 : 1 / (1 + passageRank),
      // The runner-up sentence is shown too (it is the context) or sits in the answer's paragraph: the two best
      // readings of the question point at one place.
      second && (second.sentence === context || sentences[second.sentence]!.paragraph === sentences[s]!.paragraph) ? 1 : 0,
      // The kind asked for is one written with symbols or units (a price, a measure, a duration, a contact) and the
      // shown text holds it: rarely there by chance, unlike a capitalised word for "who" or any number for "how many".
      exact && MEASURED_TYPES.has(intent!.type) ? 1 : 0,
      // Two readings of the question equally good, and the visitor sees only one of them.
      second && second.sentence !== context && chosen.score > 0 && (chosen.score - second.score) / chosen.score < NEAR_TIE ? 1 : 0,
    ];
  };

  // Sentence `s` as a candidate the ranking did not score (a form answer, the lead).
  const unranked = (s: number, typeMatch: boolean): RankedSentence => {
    const passage = corpus.passages[sentences[s]!.passage]!;
    return { sentence: s, text: sentences[s]!.text, score: 0, page: passage.page, url: passage.url, title: passage.title, typeMatch };
  };

  // "What is your phone number?", "Where are you located?", "What are your opening hours?": a question that names
  // nothing but one form of fact about the site itself (every word of it a cue of that form) is answered by the
  // sentence written in that form — the best ranked one, else the first of the pages —, whatever words it shares
  // with the question: often none ("Call us on 01632 960 418"). Null when the question is no such question or no
  // sentence holds the form.
  const formAnswer = (q: AnalyzedQuery, intent: AnswerIntent | null, ranked: readonly RankedSentence[]): RankedSentence | null => {
    if (intent?.detail === undefined || !q.content.every((i) => isCue(q, i))) return null;
    const typed = ranked.find((r) => r.typeMatch);
    if (typed) return typed;
    for (let s = 0; s < sentences.length; s++) {
      if ((roles[s] === 'sentence' || roles[s] === 'row') && answerMatches(intent, sentences[s]!.text, q.words)) return unranked(s, true);
    }
    return null;
  };

  // "What is this page about?", "summarise this page", "tl;dr": the page's lead — its first sentences, as a news
  // story or a product page opens with what it is about (the lead is the classic extractive summary) — from the
  // first source, the page the question was asked on. Headings, questions and fragments are skipped; at most
  // LEAD_SENTENCES sentences and LEAD_CHARS characters.
  const lead = (): AnswerOutcome | null => {
    const first = corpus.passages.findIndex((p) => p.page === 0);
    if (first < 0) return null;
    const picked: number[] = [];
    let chars = 0;
    for (let p = first; p < corpus.passages.length && corpus.passages[p]!.page === 0 && picked.length < LEAD_SENTENCES; p++) {
      const passage = corpus.passages[p]!;
      for (let s = passage.firstSentence; s < passage.firstSentence + passage.sentenceCount && picked.length < LEAD_SENTENCES; s++) {
        if (roles[s] !== 'sentence') continue;
        if (picked.length > 0 && chars + sentences[s]!.text.length > LEAD_CHARS) break;
        picked.push(s);
        chars += sentences[s]!.text.length;
      }
    }
    if (picked.length === 0) return null;
    const chosen = unranked(picked[0]!, false);
    const rest = picked.slice(1).map((s) => sentences[s]!.text).join(' ');
    return ok({
      text: [chosen.text, rest].filter(Boolean).join(' '), answer: chosen, context: rest || null, citations: [corpus.pages[0]!],
      pages: [0], sentences: [chosen], confidence: 1, signals: [],
    });
  };

  const answer = (question: string): AnswerOutcome => {
    const q = retriever.analyze(question);
    if (options.pageQuestion?.(question, corpus.language)) {
      const summary = lead();
      if (summary) return summary;
    }
    const ranked = ranker.rank(q, Math.max(k, 10));
    const intent: AnswerIntent | null = ranker.intentOf(q);
    const form = formAnswer(q, intent, ranked);
    const best = form ?? ranked[0];
    if (!best) return notFound(q, 'no word of the question occurs in the pages', []);
    let chosen = best;
    const scores = neighbourContext ? ranker.sentenceScores(q) : undefined;
    let context = contextOf(best.sentence, scores);
    if (switchType && intent !== null && CHECKABLE_TYPES.has(intent.type) && !best.typeMatch
      && !answerPossible(intent, best.text, q.words) && !(context >= 0 && answerPossible(intent, sentences[context]!.text, q.words))) {
      // The best sentence (with its context) holds nothing of the kind asked for, however phrased: a lower one
      // that holds it exactly takes its place.
      const typed = ranked.find((r) => r.typeMatch);
      if (typed) { chosen = typed; context = contextOf(typed.sentence, scores); }
    }
    // The same sentence twice (one page under two addresses, text repeated across pages) is one candidate: a copy
    // is no rival, so it neither takes a candidate's place nor cancels the answer's lead.
    const seen = new Set<string>([chosen.text]);
    const order = [chosen, ...ranked.filter((r) => r !== chosen && !seen.has(r.text) && (seen.add(r.text), true))].slice(0, k);
    if (intent?.type === 'yesno') {
      // A quoted sentence can confirm or deny only what the pages name: "does it come with a scale?" on a page
      // that never says "scale" has no answer here, whatever sentence shares its other words. Very common words
      // ("come", "use") are left out of the check: pages say them in other words.
      // Without a common-word list for the pages' language, common and rare words cannot be told apart: no check.
      const absent = corpus.resources.hasCommonWords ? q.content.find((i) => !corpus.vocabulary.has(q.stems[i]!) && !isAnswerCue(q.words[i]!)
        && Math.min(corpus.resources.commonRank(q.stems[i]!), 100_000) > YESNO_COMMON_RANK) : undefined;
      if (absent !== undefined) return notFound(q, `the pages never mention "${q.words[absent]}"`, order);
    }
    // Two sentences hold the kind of fact asked for and the question's key word ("Plan: Summit; Price: $49 per year"
    // and "Students … get the Summit plan for $25 per year"): the pages give two answers, a general one and one
    // under a condition, or an old and a new one. The best is stated and the runner-up quoted after it, so that
    // neither is shown as the only one; an answer that needs its own context sentence keeps it instead.
    let runnerUp = false;
    const second = order[1];
    if (runnerUpContext && context < 0 && intent !== null && runnerUpKinds.has(intent.type) && chosen.typeMatch && second?.typeMatch) {
      // About the same thing: the runner-up holds the question's key word and every word of the question the answer
      // holds ("Aurora" alone is another product than "Aurora Pro": its row is a sibling, not a second value).
      const key = keyOf(q);
      const keyId = key === null ? undefined : corpus.vocabulary.get(key);
      const mine = sentences[chosen.sentence]!.terms;
      const its = sentences[second.sentence]!.terms;
      if (keyId !== undefined && its.includes(keyId) && q.terms.every((t) => !mine.includes(t) || its.includes(t))) {
        context = second.sentence;
        runnerUp = true;
      }
    }
    // Opening hours over two lines ("Open Tuesday to Saturday, 7:30 am – 4 pm. Sunday 8 am – 1 pm."): the next
    // sentence of the paragraph in the same form goes with a form answer.
    const after = chosen.sentence + 1;
    if (form !== null && context < 0 && after < sentences.length && sentences[after]!.paragraph === sentences[chosen.sentence]!.paragraph
      && answerMatches(intent!, sentences[after]!.text, q.words)) context = after;
    const signals = signalsOf(q, intent, chosen, context, second);
    const confidence = logistic(signals, weights);
    const ctx = context >= 0 ? sentences[context]!.text : null;
    const text = ctx === null ? chosen.text : runnerUp ? `${closed(chosen.text)} ${ctx}` : context < chosen.sentence ? `${ctx} ${chosen.text}` : `${chosen.text} ${ctx}`;
    // Every page the shown text quotes is cited: a runner-up may come from another page (walk-through, session 15).
    const contextPage = context >= 0 ? corpus.passages[sentences[context]!.passage]!.page : chosen.page;
    const shownPages = contextPage === chosen.page ? [chosen.page] : [chosen.page, contextPage];
    const cited = shownPages.map((p) => corpus.pages[p]!);
    if (confidence < minConfidence && form === null) {
      const why = signals[1] === 1 ? `no passage holds a ${intent!.type} for the question`
        : signals[6] === 1 ? `the pages never mention "${keyOf(q)}"` : 'no passage matches enough of the question';
      // Not sure enough to state it, but the pages may say it here: offered as the closest they come — unless no
      // passage can hold the kind of fact asked for, or the question's key word is nowhere in the pages.
      const hedge = confidence >= hedgeConfidence && signals[1] === 0 && signals[6] === 0;
      return {
        ...notFound(q, why, order), confidence, signals,
        ...(hedge ? { nearest: { text, sentence: chosen, citations: cited, pages: shownPages } } : {}),
      };
    }
    return ok({ text, answer: chosen, context: ctx, citations: cited, pages: shownPages, sentences: order, confidence, signals });
  };

  return { ranker, answer };
}

// A table row ("Plan: Summit; Price: $49 per year") ends without punctuation: closed before a sentence follows it.
function closed(text: string): string {
  return /[.!?。！？…;:]["'”’»)\]]*$/u.test(text) ? text : `${text}.`;
}

/** A page question's answer: the first sentences of the page, at most this many, and this many characters (past the first). */
export const LEAD_SENTENCES = 3;
export const LEAD_CHARS = 500;

const MEASURED_TYPES: ReadonlySet<AnswerIntent['type']> = new Set(['money', 'quantity', 'duration', 'contact']);

/** A yes/no question's words outside this many most common words of the language must be in the pages. */
const YESNO_COMMON_RANK = 1_000;

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
