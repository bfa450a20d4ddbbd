import { DEFAULT_REFUSAL_MESSAGE } from '../config/defaults.js';
import type { Corpus } from '../text/corpus.js';
import type { LanguageResources } from '../text/resources.js';
import { commonRank } from '../text/common-words.js';
import { detectLanguage } from '../text/language.js';
import { isStopword } from '../text/stopwords.js';
import { tokenize } from '../text/tokenize.js';
import { isPageQuestionWords } from './page-question.js';

/**
 * Tunables of the gate, with their defaults. The evidence model is documented in docs/grounding.md; the
 * defaults were chosen on half of the SQuAD articles and checked on the other half.
 */
export interface GroundingOptions {
  /** `groundingMinMatches`: how many content words of the question must be found in the pages. Default 1. */
  readonly minMatches?: number;
  /** Least total evidence (in nats) for a question to pass, on top of `minMatches`. Default 6. */
  readonly minEvidence?: number;
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
});

export type GroundingReason = 'page_question' | 'matched' | 'too_few_matches' | 'weak_evidence' | 'no_content_words';

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
  if (isPageQuestionWords(words, corpus.resources, qLang)) return { grounded: true, matched: [], reason: 'page_question' };

  const content: ContentWord[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const t = terms[i]!;
    // The page language's stopwords are the corpus's own; the question's language's, those loaded now.
    if (seen.has(t) || corpus.resources.isStopword(w) || (qLang !== lang && isStopword(w, qLang)) || isNoise(w)) continue;
    seen.add(t);
    content.push({ word: w, id: corpus.vocabulary.get(t), rank: rankOf(t, w, corpus.resources) });
  }
  if (content.length === 0) return { grounded: false, matched: [], reason: 'no_content_words' };

  // Site corpora: the question needs to be about one page, so each page the question's words reach is weighed on
  // its own, and the best one decides (for a one-page corpus, that page).
  const names = namesIn(question);
  let best: PageVerdict | null = null;
  let mostMatched: readonly string[] = [];
  for (const v of pageVerdicts(corpus, content, names)) {
    if (v.matched.length > mostMatched.length) mostMatched = v.matched;
    if (v.matched.length >= minMatches && (best === null || v.evidence > best.evidence)) best = v;
  }
  if (best === null) return { grounded: false, matched: mostMatched, reason: 'too_few_matches' };
  if (best.evidence < minEvidence) return { grounded: false, matched: best.matched, reason: 'weak_evidence' };
  return { grounded: true, matched: best.matched, reason: 'matched' };
}

interface PageVerdict { readonly evidence: number; readonly matched: readonly string[] }

/** The evidence that the question is about each page holding at least one of its content words. */
function pageVerdicts(corpus: Corpus, content: readonly ContentWord[], names: ReadonlySet<string>): PageVerdict[] {
  const { onTopicRate, countCap, passageWeight, missingNamePenalty } = GROUNDING_DEFAULTS;
  const n = corpus.passages.length;
  if (n === 0) return [];
  let score = scratch.get(corpus);
  if (!score) { score = new Float64Array(n); scratch.set(corpus, score); }
  const m = content.length;
  const counts = new Int32Array(corpus.pages.length * m); // [page * m + k]: occurrences of content word k in page
  const bestPassage = new Float64Array(corpus.pages.length); // best passage co-occurrence by page
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
    out.push({ evidence, matched });
  }
  return out;
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

// One score array per corpus, reused by every decision (the gate is synchronous, so never shared mid-use).
const scratch = new WeakMap<Corpus, Float64Array>();
