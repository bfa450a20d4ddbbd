import { DEFAULT_REFUSAL_MESSAGE } from '../config/defaults.js';
import type { Corpus } from '../text/corpus.js';
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
  if (isPageQuestionWords(words, lang, qLang)) return { grounded: true, matched: [], reason: 'page_question' };

  const content: ContentWord[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const t = terms[i]!;
    if (seen.has(t) || isStopword(w, lang) || (qLang !== lang && isStopword(w, qLang)) || isNoise(w)) continue;
    seen.add(t);
    content.push({ word: w, id: corpus.vocabulary.get(t), rank: rankOf(t, w, lang) });
  }
  if (content.length === 0) return { grounded: false, matched: [], reason: 'no_content_words' };

  const { onTopicRate, countCap, passageWeight, missingNamePenalty } = GROUNDING_DEFAULTS;
  const length = Math.max(corpus.tokenCount, 1);
  const names = namesIn(question);
  const matched: string[] = [];
  let evidence = 0;
  for (const c of content) {
    // Poisson log-likelihood ratio of the word's count in the pages: "the question is about these pages"
    // (rate λ + onTopicRate) against "it is not" (rate λ, the word's general frequency over the pages' length).
    const lambda = (length * 0.1) / c.rank; // Zipf: p(rank r) ≈ 0.1 / r
    const count = c.id === undefined ? 0 : Math.min(corpus.termFrequency[c.id]! || 1, countCap);
    const llr = count * Math.log((lambda + onTopicRate) / lambda) - onTopicRate;
    evidence += llr;
    if (count === 0 && names.has(c.word)) evidence -= missingNamePenalty;
    if (count > 0 && llr > 0) matched.push(c.word);
  }
  evidence += passageWeight * bestPassageEvidence(corpus, content);
  if (matched.length < minMatches) return { grounded: false, matched, reason: 'too_few_matches' };
  if (evidence < minEvidence) return { grounded: false, matched, reason: 'weak_evidence' };
  return { grounded: true, matched, reason: 'matched' };
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

function rankOf(term: string, word: string, lang: Corpus['language']): number {
  if (/^\d/.test(word)) return 5_000; // a year or an amount: fairly specific, not a topic on its own
  const r = Math.min(commonRank(term, lang), lang === 'en' ? Infinity : commonRank(term, 'en'));
  return Number.isFinite(r) ? r : GROUNDING_DEFAULTS.unknownRank;
}

/**
 * Questions are about one place of a page: the best passage's summed IDF of the question's words it holds.
 * Off-topic questions match, if at all, a word here and a word there.
 */
function bestPassageEvidence(corpus: Corpus, content: readonly ContentWord[]): number {
  const n = corpus.passages.length;
  if (n === 0) return 0;
  let score = scratch.get(corpus);
  if (!score) { score = new Float64Array(n); scratch.set(corpus, score); }
  const touched: number[] = [];
  let best = 0;
  for (const c of content) {
    if (c.id === undefined) continue;
    const list = corpus.passagesWith(c.id);
    const idf = Math.log(1 + n / list.length);
    for (let i = 0; i < list.length; i++) {
      const p = list[i]!;
      if (score[p] === 0) touched.push(p);
      const s = (score[p]! += idf);
      if (s > best) best = s;
    }
  }
  for (const p of touched) score[p] = 0;
  return best;
}
// One score array per corpus, reused by every decision (the gate is synchronous, so never shared mid-use).
const scratch = new WeakMap<Corpus, Float64Array>();
