import type { Corpus } from '../text/corpus.js';
import { detectLanguage, type Language } from '../text/language.js';
import { isStopword } from '../text/stopwords.js';
import { tokenize } from '../text/tokenize.js';
import { determinerLexicon, elidedNouns, hasDeictic, hasSelfPhrasing, isPageQuestionWords, isSelfWord } from './page-question.js';
import { resourcesFor } from '../text/resources.js';
import { questionIntent, type IntentOptions, type QuestionIntent } from './intent.js';
import { questionLexicon, type Lexicon } from './lexicon.js';
import { GROUNDING_DEFAULTS } from './defaults.js';
import { rankOf, type ContentWord } from './evidence.js';

/** A question read against a corpus: its words, what it asks for, and the content words the gate weighs. */
export interface QuestionAnalysis {
  /** Normalised words (tokenize), in order. */
  readonly words: readonly string[];
  /** The question's detected language (the page's when undecided). */
  readonly language: Language;
  /** True for a question about the page itself ("summarise this page", "who wrote the article?"). */
  readonly pageQuestion: boolean;
  readonly intent: QuestionIntent;
  /** Words capitalised inside the question (normalised): names. */
  readonly names: ReadonlySet<string>;
  /** Its content words, each once by stem: no stopword, question word, single letter, small number or frame word. */
  readonly content: readonly ContentWord[];
  readonly lexicon: Lexicon;
  /** Names with a model or edition number ("quest 3") whose first word the pages hold but never the pair. */
  readonly missingModels: readonly string[];
}

// Lists of what visitors ask for (a price, opening hours, a way to reach someone, a ticket, a time, a number): a word
// of them beside "this" or "here" asks for that thing, not about the page ("what's the price here?").
const GATE_LISTS = ['money', 'hours', 'contact', 'contactMeans', 'contactDetail', 'asked', 'current', 'upcoming', 'numbers', 'currency', 'clock', 'dates'] as const;

/** Reads `question` against `corpus` as the gate does (`answerability` and `selfPhrasings` as in GroundingOptions). */
export function analyzeQuestion(corpus: Corpus, question: string, options: { readonly pageDeictic?: boolean; readonly answerability?: boolean; readonly selfPhrasings?: boolean; readonly modelNumbers?: boolean; readonly titleCase?: boolean } & IntentOptions = {}): QuestionAnalysis {
  const lang = corpus.language;
  const { words, terms } = corpus.analyze(question);
  const qLang = detectLanguage(words, lang);
  const lex = questionLexicon(corpus.resources);
  const isStop = (w: string): boolean => corpus.resources.isStopword(w) || (qLang !== lang && isStopword(w, qLang));
  const names = namesIn(question, (options.titleCase ?? GROUNDING_DEFAULTS.titleCase) ? isStop : null);
  const base = { words, language: qLang, names, lexicon: lex };
  if (isPageQuestionWords(words, corpus.resources, qLang, lex)) return { ...base, pageQuestion: true, intent: NO_INTENT, content: [], missingModels: [] };
  const intent: QuestionIntent = options.answerability === false ? NO_INTENT : questionIntent(words, lex, isStop, names, options);
  // "What is being advertised here?", "what product is this about?": a word pointing at the page and one other word —
  // common, no name, no word of what visitors ask for — ask about the page, when the question asks for no kind of
  // answer ("How much is it?" asks a price, "How do I post a job?" steps; session 9).
  if ((options.pageDeictic ?? GROUNDING_DEFAULTS.pageDeictic) && (options.selfPhrasings ?? true) && intent.types.size === 0 && hasDeictic(words, lex)) {
    const oneWord = (w: string): boolean => !names.has(w) && !GATE_LISTS.some((l) => lex.has(l, w)) && rankOf(corpus.resources.stem(w), w, corpus.resources) <= GROUNDING_DEFAULTS.selfCommonRank;
    if (isPageQuestionWords(words, corpus.resources, qLang, lex, oneWord)) return { ...base, pageQuestion: true, intent: NO_INTENT, content: [], missingModels: [] };
  }
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
  const pageQuestion = (options.selfPhrasings ?? true) && hasSelfPhrasing(words, lex, elidedNouns(question), determinerLexicon(corpus.resources, resourcesFor(qLang))) && isAboutThesePages(content, names, lex);
  if (!pageQuestion && (options.modelNumbers ?? GROUNDING_DEFAULTS.modelNumbers)) {
    const missing = missingModelNames(corpus, question, names, lex);
    if (missing.length > 0) return { ...base, pageQuestion, intent, content, missingModels: missing };
  }
  return { ...base, pageQuestion, intent, content, missingModels: [] };
}

/**
 * A small number written right after a name is part of the name — a model or an edition ("Quest 3", "PlayStation
 * 4", "Windows 10", "Super Bowl 50"): a page that names "Quest" but never "Quest 3" is about another model. Returns
 * such names ("quest 3") that the pages hold the first word of but never the pair: the gate refuses the question
 * (`not_answerable`), the pages being about another model. (Small numbers alone are no content words: they are on every page.)
 */
function missingModelNames(corpus: Corpus, question: string, names: ReadonlySet<string>, lex: Lexicon): string[] {
  const out: string[] = [];
  // A model code written as one word ("PS5", "A320", "iPhone8") that the pages never write: another model.
  for (const name of names) if (MODEL_CODE.test(name) && corpus.vocabulary.get(corpus.resources.stem(name)) === undefined) out.push(name);
  for (const m of question.matchAll(MODEL_NAME)) {
    const name = tokenize(m[2]!).at(-1);
    const n = Number(m[3]);
    // "June 5" is a date, which pages write in several orders ("5 June"): no model number.
    if (name === undefined || !names.has(name) || lex.has('dates', name)) continue;
    const res = corpus.resources;
    const a = corpus.vocabulary.get(res.stem(name));
    if (a === undefined) continue; // the name itself is missing: weighed as such already
    // "World War 2" is often written "World War II".
    const forms = [String(n), ROMAN[n]].filter((f): f is string => f !== undefined);
    if (!forms.some((f) => { const b = corpus.vocabulary.get(res.stem(f)); return b !== undefined && followedBy(corpus, a, b); })) out.push(`${name} ${n}`);
  }
  return out;
}
// Letters then digits, or digits then letters, in one word: "ps5", "a320", "xbox360", "4k" (not "1990s", "20th").
const MODEL_CODE = /^(?:\p{L}+\d+\p{L}*|\d+(?!s$|th$|st$|nd$|rd$)\p{L}+)$/u;
// A capitalised word, then a number of one or two digits standing alone ("Quest 3", not "$3", "3.5" or "3D").
const MODEL_NAME = /(^|[\s(])(\p{Lu}[\p{L}\p{M}\p{N}'’-]*)\s+(\d{1,2})(?=$|[\s?!,;:)]|\.(?!\d))/gu;
const ROMAN = ['', 'i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x', 'xi', 'xii', 'xiii', 'xiv', 'xv', 'xvi', 'xvii', 'xviii', 'xix', 'xx'];

/** True when term `b` follows term `a` somewhere in the pages. */
function followedBy(corpus: Corpus, a: number, b: number): boolean {
  for (const p of corpus.passagesWith(a)) {
    const t = corpus.passageTerms(p);
    for (let j = 0; j + 1 < t.length; j++) if (t[j] === a && t[j + 1] === b) return true;
  }
  return false;
}

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

/**
 * Words written with a capital inside the question ("Who founded Harvard?"): names, whose absence from the
 * pages says the question is about something else. The first word is capitalised anyway; a question in Title
 * Case or capitals carries no such signal.
 */
function namesIn(question: string, isStop: ((w: string) => boolean) | null): ReadonlySet<string> {
  const ws = question.trim().split(/\s+/);
  const caps: string[] = [];
  for (let i = 0; i < ws.length; i++) if (UPPER_START.test(ws[i]!)) caps.push(i === 0 ? '' : ws[i]!);
  const out = new Set<string>();
  // Title Case (or capitals) capitalises every major word: a question with a lower-case word that is no stopword is
  // not written so, however many of its words are names ("Who captured Fort Beausejour?": "Fort", "Beausejour").
  if (caps.length * 2 > ws.length && (isStop === null || !ws.some((w, i) => i > 0 && LOWER_START.test(w) && tokenize(w).some((t) => !isStop(t))))) return out;
  for (const w of caps) if (w !== '') for (const t of tokenize(w)) out.add(t);
  return out;
}
const UPPER_START = /^\p{Lu}/u;
const LOWER_START = /^\p{Ll}/u;

// Single letters and 1–2 digit numbers ("3", "25") appear on every page: they say nothing about its topic.
function isNoise(w: string): boolean {
  if (w.length === 1) return w.charCodeAt(0) < 0x2e80; // one CJK character can be a whole word
  return /^\d{1,2}$/.test(w);
}


const NO_INTENT: QuestionIntent = { types: new Set(), frame: new Set(), action: null };
