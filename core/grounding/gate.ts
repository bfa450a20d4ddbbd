import { DEFAULT_REFUSAL_MESSAGE } from '../config/defaults.js';
import type { Corpus } from '../text/corpus.js';
import type { LanguageResources } from '../text/resources.js';
import { commonRank } from '../text/common-words.js';
import { detectLanguage } from '../text/language.js';
import { isStopword } from '../text/stopwords.js';
import { tokenize } from '../text/tokenize.js';
import { hasSelfPhrasing, isPageQuestionWords, isSelfWord } from './page-question.js';
import { questionIntent, type QuestionIntent } from './intent.js';
import { passageFacts, MONEY, HOURS, TIME, AMOUNT } from './answer-types.js';
import { lexiconOf, questionLexicon, type Lexicon } from './lexicon.js';
import { resourcesFor } from '../text/resources.js';

/**
 * Tunables of the gate, with their defaults. The evidence model is documented in docs/grounding.md; the
 * defaults were chosen on half of the SQuAD articles and checked on the other half.
 */
export interface GroundingOptions {
  /** `groundingMinMatches`: how many content words of the question must be found in the pages. Default 1. */
  readonly minMatches?: number;
  /** Least total evidence (in nats) for a question to pass, on top of `minMatches`. Default 6. */
  readonly minEvidence?: number;
  /** Least share of the question's weight that one passage must hold (answerability). 0 turns the check off. */
  readonly minCoverage?: number;
  /** How much a word's weight falls with its centrality to the page (share of the page's passages holding it). */
  readonly centralityPower?: number;
  /** Check the question's kind of answer (a price, a time, opening hours, an amount, a how-to's action). Default true. */
  readonly answerability?: boolean;
  /** Pass questions about the page in a visitor's words ("who wrote the article?"). Default true. */
  readonly selfPhrasings?: boolean;
  /** Passages (1 or 2) that answerability may combine: a passage and the next one of its page. Default 2. */
  readonly window?: number;
  /** Passages added to a page's count when judging centrality, so a one-passage page's words keep some weight. */
  readonly centralitySmoothing?: number;
}

export const GROUNDING_DEFAULTS = Object.freeze({
  minMatches: 1,
  minEvidence: 6,
  /** Expected extra occurrences of a question word in a page the question is about. */
  onTopicRate: 2,
  /** Occurrences beyond this count no more (words are bursty: the 40th "engine" says little more than the 3rd). */
  countCap: 3,
  /** Rank given to words outside the common-word list: rarer than any word in it. */
  unknownRank: 100_000,
  /** Weight of the best passage's co-occurrence evidence beside the page-wide word evidence. */
  passageWeight: 1,
  /** Extra evidence against a question naming something (a capitalised word mid-question) the pages never mention. */
  missingNamePenalty: 8,
  minCoverage: 0.35,
  centralityPower: 1,
  /** In a page-self question, a word the pages lack may still be this common (rank) and not a name. */
  selfCommonRank: 1000,
  window: 2,
  centralitySmoothing: 1,
});

export type GroundingReason = 'page_question' | 'matched' | 'too_few_matches' | 'weak_evidence' | 'no_content_words' | 'not_answerable';

/** The gate's decision: `matched` lists the question's words found in the pages (never page text). */
export interface GroundingResult {
  readonly grounded: boolean;
  readonly matched: readonly string[];
  readonly reason: GroundingReason;
}

/** The refusal shown for an ungrounded question: the configured `refusalMessage`, or Kit's default. */
export function refusalMessage(custom?: string | null): string {
  return custom && custom.trim() !== '' ? custom : DEFAULT_REFUSAL_MESSAGE;
}

interface ContentWord { readonly word: string; readonly id: number | undefined; readonly rank: number }

/**
 * The grounding gate (spec `grounding`, `groundingMinMatches`): passes a question when at least `minMatches`
 * of its content words (not stopwords, not question words) occur in the pages more often than their
 * general-language frequency predicts, and the evidence for the pages' topic outweighs the question's specific
 * words the pages lack. Questions about the page itself ("summarise this page") always pass. Pure; microseconds.
 */
export function checkGrounding(corpus: Corpus, question: string, options: GroundingOptions = {}): GroundingResult {
  const minMatches = Math.max(1, Math.floor(options.minMatches ?? GROUNDING_DEFAULTS.minMatches));
  const minEvidence = options.minEvidence ?? GROUNDING_DEFAULTS.minEvidence;
  const lang = corpus.language;
  const { words, terms } = corpus.analyze(question);
  const qLang = detectLanguage(words, lang);
  const lex = questionLexicon(corpus.resources);
  if (isPageQuestionWords(words, corpus.resources, qLang, lex)) return { grounded: true, matched: [], reason: 'page_question' };
  const isStop = (w: string): boolean => corpus.resources.isStopword(w) || (qLang !== lang && isStopword(w, qLang));
  const intent: QuestionIntent = options.answerability === false ? NO_INTENT : questionIntent(words, lex, isStop);
  const names = namesIn(question);

  const content: ContentWord[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const t = terms[i]!;
    // The page language's stopwords are the corpus's own; the question's language's, those loaded now.
    if (seen.has(t) || isStop(w) || isNoise(w) || intent.frame.has(w)) continue;
    seen.add(t);
    content.push({ word: w, id: corpus.vocabulary.get(t), rank: rankOf(t, w, corpus.resources) });
  }
  if ((options.selfPhrasings ?? true) && hasSelfPhrasing(words, lex) && isAboutThesePages(content, names, lex)) {
    return { grounded: true, matched: [], reason: 'page_question' };
  }
  if (content.length === 0) return { grounded: false, matched: [], reason: 'no_content_words' };

  // Site corpora: the question needs to be about one page, so each page the question's words reach is weighed on
  // its own, and the best one decides (for a one-page corpus, that page).
  const settings: VerdictSettings = {
    minCoverage: options.minCoverage ?? GROUNDING_DEFAULTS.minCoverage,
    power: options.centralityPower ?? GROUNDING_DEFAULTS.centralityPower,
    intent,
    window: options.window ?? GROUNDING_DEFAULTS.window,
    smoothing: options.centralitySmoothing ?? GROUNDING_DEFAULTS.centralitySmoothing,
    actionId: intent.action === null ? undefined : corpus.vocabulary.get(corpus.resources.stem(intent.action)),
  };
  let best: PageVerdict | null = null;
  let mostMatched: readonly string[] = [];
  const candidates: PageVerdict[] = [];
  const verdicts = pageVerdicts(corpus, content, names);
  for (const v of verdicts) {
    if (v.matched.length > mostMatched.length) mostMatched = v.matched;
    if (v.matched.length < minMatches) continue;
    if (best === null || v.evidence > best.evidence) best = v;
    if (v.evidence >= minEvidence) candidates.push(v);
  }
  if (best === null) return { grounded: false, matched: mostMatched, reason: 'too_few_matches' };
  if (candidates.length === 0) return { grounded: false, matched: best.matched, reason: 'weak_evidence' };
  // Answerability, for the pages that pass on evidence only, best first: most questions stop at the first.
  candidates.sort((x, y) => y.evidence - x.evidence);
  const check = settings.minCoverage > 0 || intent.types.size > 0;
  for (const v of candidates) {
    if (!check || isAnswerable(corpus, content, v, settings)) return { grounded: true, matched: v.matched, reason: 'matched' };
  }
  return { grounded: false, matched: candidates[0]!.matched, reason: 'not_answerable' };
}

const NO_INTENT: QuestionIntent = { types: new Set(), frame: new Set(), action: null };

/**
 * A page-self question ("who wrote the piece about being tracked?") is about these pages when its other words
 * are: every remaining word is on the pages, or a common word that is not a name ("what's the *health* story
 * about?"). "Who wrote *Hamlet*?" is not.
 */
function isAboutThesePages(content: readonly ContentWord[], names: ReadonlySet<string>, lex: Lexicon): boolean {
  for (const c of content) {
    if (isSelfWord(c.word, lex) || c.id !== undefined) continue;
    if (names.has(c.word) || c.rank > GROUNDING_DEFAULTS.selfCommonRank) return false;
  }
  return true;
}

interface VerdictSettings {
  readonly minCoverage: number;
  readonly power: number;
  readonly intent: QuestionIntent;
  readonly actionId: number | undefined;
  readonly window: number;
  readonly smoothing: number;
}

interface PageVerdict {
  readonly page: number;
  readonly evidence: number;
  readonly matched: readonly string[];
  /** By content word: how many of the page's passages hold it. */
  readonly df: Int32Array;
}

/** The evidence that the question is about each page holding at least one of its content words. */
function pageVerdicts(corpus: Corpus, content: readonly ContentWord[], names: ReadonlySet<string>): PageVerdict[] {
  const { onTopicRate, countCap, passageWeight, missingNamePenalty } = GROUNDING_DEFAULTS;
  const n = corpus.passages.length;
  if (n === 0) return [];
  let score = scratch.get(corpus);
  if (!score) { score = new Float64Array(n); scratch.set(corpus, score); }
  const m = content.length;
  const pages = corpus.pages.length;
  const counts = new Int32Array(pages * m); // [page * m + k]: occurrences of content word k in page
  const pageDf = new Int32Array(pages * m); // [page * m + k]: passages of the page holding content word k
  const bestPassage = new Float64Array(pages); // best passage co-occurrence by page
  const pagesHit: number[] = [];
  const touched: number[] = [];
  content.forEach((c, k) => {
    if (c.id === undefined) return;
    const list = corpus.passagesWith(c.id);
    const occ = corpus.passageCounts(c.id);
    // Questions are about one place of a page: the best passage's summed IDF of the question's words it holds.
    const idf = Math.log(1 + n / list.length);
    for (let i = 0; i < list.length; i++) {
      const p = list[i]!;
      if (score[p] === 0) touched.push(p);
      const at = corpus.passages[p]!.page * m;
      counts[at + k]! += occ[i]!;
      pageDf[at + k]!++;
      score[p]! += idf;
    }
  });
  for (const p of touched) {
    const page = corpus.passages[p]!.page;
    if (bestPassage[page] === 0) pagesHit.push(page);
    if (score[p]! > bestPassage[page]!) bestPassage[page] = score[p]!;
    score[p] = 0;
  }
  // A word absent from a page costs the same on every page; only present words need the logarithm.
  let absent = 0;
  for (const c of content) absent -= onTopicRate + (names.has(c.word) ? missingNamePenalty : 0);
  const out: PageVerdict[] = [];
  for (const page of pagesHit) {
    const length = Math.max(corpus.pageTokenCount[page]!, 1);
    const matched: string[] = [];
    let evidence = absent + passageWeight * bestPassage[page]!;
    for (let k = 0; k < m; k++) {
      const count = Math.min(counts[page * m + k]!, countCap);
      if (count === 0) continue;
      const c = content[k]!;
      // Poisson log-likelihood ratio of the word's count in the page: "the question is about this page"
      // (rate λ + onTopicRate) against "it is not" (rate λ, the word's general frequency over the page's length).
      const lambda = (length * 0.1) / c.rank; // Zipf: p(rank r) ≈ 0.1 / r
      const llr = count * Math.log((lambda + onTopicRate) / lambda) - onTopicRate;
      evidence += llr + onTopicRate + (names.has(c.word) ? missingNamePenalty : 0); // undo the "absent" share
      if (llr > 0) matched.push(c.word);
    }
    out.push({ page, evidence, matched, df: pageDf.subarray(page * m, page * m + m) });
  }
  return out;
}

/**
 * Answerability: the pages with one passage that holds the question's key terms and the kind of answer it asks
 * for. A word weighs its general-language rarity, less the more of its page's passages hold it (the page's own
 * topic words say little about whether this question is answered here: every question on the page names them);
 * the passage must hold `minCoverage` of the question's weight, an answer of each asked type (a price, a time,
 * opening hours, an amount) and, for a how-to question, the asked action.
 */
function isAnswerable(corpus: Corpus, content: readonly ContentWord[], v: PageVerdict, settings: VerdictSettings): boolean {
  const m = content.length;
  const page = v.page;
  const perPage = passagesPerPage(corpus)[page]!;
  const first = firstPassageOf(corpus)[page]!;
  const weights = new Float64Array(m);
  let total = 0;
  for (let k = 0; k < m; k++) {
    weights[k] = Math.log(content[k]!.rank + 1) * Math.pow(1 - v.df[k]! / (perPage + settings.smoothing), settings.power);
    total += weights[k]!;
  }
  // Coverage by window start (a passage and the next one of the page: an answer often spans a passage boundary).
  const cov = new Float64Array(perPage);
  for (let k = 0; k < m; k++) {
    const id = content[k]!.id;
    if (id === undefined || v.df[k] === 0) continue;
    const list = corpus.passagesWith(id);
    let last = -1;
    for (let i = lowerBound(list, first); i < list.length && list[i]! < first + perPage; i++) {
      const local = list[i]! - first;
      for (let q = settings.window > 1 ? local - 1 : local; q <= local; q++) {
        if (q < 0 || q <= last) continue;
        cov[q]! += weights[k]!;
        last = q;
      }
    }
  }
  for (let q = 0; q < perPage; q++) {
    if (cov[q] === 0 || (total > 0 && cov[q]! < settings.minCoverage * total)) continue;
    const next = settings.window > 1 && q + 1 < perPage ? first + q + 1 : -1;
    if (holdsAnswerTypes(corpus, first + q, next, settings)) return true;
  }
  return false;
}

function lowerBound(list: Int32Array, x: number): number {
  let lo = 0, hi = list.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (list[mid]! < x) lo = mid + 1; else hi = mid; }
  return lo;
}

function holdsAnswerTypes(corpus: Corpus, p: number, next: number, settings: VerdictSettings): boolean {
  const { types } = settings.intent;
  if (types.size === 0) return true;
  if (types.has('howto')) {
    const a = settings.actionId;
    if (a === undefined || !(corpus.passageTerms(p).includes(a) || (next >= 0 && corpus.passageTerms(next).includes(a)))) return false;
  }
  const lex = passageLexicon(corpus);
  const f = passageFacts(corpus, p, lex) | (next >= 0 ? passageFacts(corpus, next, lex) : 0);
  if (types.has('money') && !(f & MONEY)) return false;
  if (types.has('hours') && !(f & HOURS)) return false;
  if (types.has('time') && !(f & TIME)) return false;
  if (types.has('amount') && !(f & AMOUNT)) return false;
  return true;
}

/**
 * Words written with a capital inside the question ("Who founded Harvard?"): names, whose absence from the
 * pages says the question is about something else. The first word is capitalised anyway; a question in Title
 * Case or capitals carries no such signal.
 */
function namesIn(question: string): ReadonlySet<string> {
  const ws = question.trim().split(/\s+/);
  const caps: string[] = [];
  for (let i = 0; i < ws.length; i++) if (UPPER_START.test(ws[i]!)) caps.push(i === 0 ? '' : ws[i]!);
  const out = new Set<string>();
  if (caps.length * 2 > ws.length) return out;
  for (const w of caps) if (w !== '') for (const t of tokenize(w)) out.add(t);
  return out;
}
const UPPER_START = /^\p{Lu}/u;

// Single letters and 1–2 digit numbers ("3", "25") appear on every page: they say nothing about its topic.
function isNoise(w: string): boolean {
  if (w.length === 1) return w.charCodeAt(0) < 0x2e80; // one CJK character can be a whole word
  return /^\d{1,2}$/.test(w);
}

function rankOf(term: string, word: string, res: LanguageResources): number {
  if (/^\d/.test(word)) return 5_000; // a year or an amount: fairly specific, not a topic on its own
  // English words are common on every web page, so the English list backs the page language's — but only for a
  // stemmed corpus: the fallback's unstemmed words would meet Porter stems by accident.
  const r = Math.min(res.commonRank(term), res.language === 'en' || !res.loaded ? Infinity : commonRank(term, 'en'));
  return Number.isFinite(r) ? r : GROUNDING_DEFAULTS.unknownRank;
}

const lexCache = new WeakMap<Corpus, Lexicon>();
/** Passages are read with their corpus's language and English (web pages mix in English words and currencies). */
function passageLexicon(corpus: Corpus): Lexicon {
  let l = lexCache.get(corpus);
  if (!l) { l = lexiconOf([corpus.resources, resourcesFor('en')]); lexCache.set(corpus, l); }
  return l;
}

const firstCache = new WeakMap<Corpus, Int32Array>();
/** By page: the index of its first passage (a page's passages are consecutive). */
function firstPassageOf(corpus: Corpus): Int32Array {
  let a = firstCache.get(corpus);
  if (!a) {
    a = new Int32Array(corpus.pages.length).fill(-1);
    corpus.passages.forEach((p, i) => { if (a![p.page] === -1) a![p.page] = i; });
    firstCache.set(corpus, a);
  }
  return a;
}

const perPageCache = new WeakMap<Corpus, Int32Array>();
function passagesPerPage(corpus: Corpus): Int32Array {
  let a = perPageCache.get(corpus);
  if (!a) {
    a = new Int32Array(corpus.pages.length);
    for (const p of corpus.passages) a[p.page]!++;
    perPageCache.set(corpus, a);
  }
  return a;
}

// One score array per corpus, reused by every decision (the gate is synchronous, so never shared mid-use).
const scratch = new WeakMap<Corpus, Float64Array>();
