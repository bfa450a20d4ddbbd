import { DEFAULT_REFUSAL_MESSAGE } from '../config/defaults.js';
import type { Corpus } from '../text/corpus.js';
import { GROUNDING_DEFAULTS } from './defaults.js';
import { pageVerdicts, type PageVerdict } from './evidence.js';
import { analyzeQuestion, type QuestionAnalysis } from './question.js';
import { asksWhy } from './intent.js';
import { holdsKind, isAnswerable, timeTerms, type VerdictSettings } from './answerability.js';
import { lexiconOf, type Lexicon } from './lexicon.js';
import { resourcesFor, type LanguageResources } from '../text/resources.js';
import { currencySign } from './answer-types.js';

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
  /** How-to questions: the asked action must share a sentence (or the next) with another word of the question. Default true. */
  readonly actionInSentence?: boolean;
  /** A small number after a name is part of it ("Quest 3"): the pages must hold the pair, or the question is refused. Default true. */
  readonly modelNumbers?: boolean;
  /**
   * Things asked for (a recipe, tickets, a visa: each pack's `asked` list): the answering passages must write the
   * thing itself, and a question naming one the pages never write is refused. Default true.
   */
  readonly askedThings?: boolean;
  /**
   * Questions about the present or the next occurrence ("right now", "the current rate", "the next game"; each pack's
   * `current` list): the answering passages must speak of it too (hold one such word). Default true.
   */
  readonly currentTime?: boolean;
  /** How-tos asked with a phrasal verb meet the single verb ("turn off" = "disable"), both ways. Default true. */
  readonly phrasalVerbs?: boolean;
  /** "What does the word X mean?": the meaning words ("mean", "word") only frame the question. Default true. */
  readonly definitions?: boolean;
  /**
   * A visitor's how-to on an English page ("how do I…", "how can we…", "how to…"): the answering passages must read
   * as instructions (address the reader, or number steps). Default true.
   */
  readonly instructions?: boolean;
  /**
   * Names in a question with more capitalised words than not ("Who captured Fort Beausejour?"): only a question with
   * no lower-case word but stopwords is read as Title Case (no names). Default true.
   */
  readonly titleCase?: boolean;
  /**
   * A question whose evidence is weak still passes when one window of a page holds every one of its content words
   * (and the kind of answer it asks for). Default true; before session 8, contact questions only.
   */
  readonly wholeQuestion?: boolean;
  /**
   * A word pointing at the page ("here", "this", "it") with one other word, a common one that is no name and no
   * gate word ("what is being *advertised* here?", "what *product* is this about?"): a question about the page.
   * Default true (session 9).
   */
  readonly pageDeictic?: boolean;
  /** "How do I *get* my bookmarks?": the light verb a how-to's action hides behind only frames it. Default true (session 9). */
  readonly lightVerbs?: boolean;
  /**
   * A price or opening hours asked for must be written in a sentence of the answering window that holds one of the
   * question's words: "How much is a room at the hotel?" is not answered by "It's valued at $150,000" (a dress).
   * Default true (session 9).
   */
  readonly kindInSentence?: boolean;
  /** Passages added to a page's count when judging centrality, so a one-passage page's words keep some weight. */
  readonly centralitySmoothing?: number;
  /**
   * A short question — one or two content words, no name — needs two words' worth of evidence, 2 × `onTopicRate`
   * (4 nats), not `minEvidence` (6): each present word must earn back what an absent one costs. "How do people pay?",
   * "What was it carrying?": a visitor's short question leans on the page it is asked on, and one or two common words
   * cannot reach 6 nats however often the page writes them. Not for a question naming something (a capitalised word):
   * "How old is Facebook?" is the everyday near-miss, and a name on the page is strong evidence already. Default true
   * (session 10).
   */
  readonly shortQuestions?: boolean;
  /**
   * A visitor's how-to (`instructions`): the sentence holding the asked action, or its neighbour, must itself read as
   * instructions or give a method ("…by unchecking the box"), not just some sentence of the window. Default true
   * (session 10).
   */
  readonly instructionSentence?: boolean;
  /** "How do people *pay*?" asks for a way of paying, not a price (English; "how much do they pay?" does). Default true (session 10). */
  readonly mannerNotPrice?: boolean;
  /**
   * A question's word that the page's title holds counts at least two words' worth of evidence (2 × `onTopicRate`, 4
   * nats): the title is the page's own word for its subject, however common the word or long the page ("What's the
   * oldest film on the list?" on a "List of films featuring time loops"). Default true (session 11).
   */
  readonly titleTopic?: boolean;
}

export { GROUNDING_DEFAULTS };

// Every content word's weight (less rounding in the sum).
const ALL_WORDS = 1 - 1e-9;


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

/**
 * The grounding gate (spec `grounding`, `groundingMinMatches`): passes a question when at least `minMatches`
 * of its content words (not stopwords, not question words) occur in the pages more often than their
 * general-language frequency predicts, and the evidence for the pages' topic outweighs the question's specific
 * words the pages lack. Questions about the page itself ("summarise this page") always pass. Pure; microseconds.
 */
export function checkGrounding(corpus: Corpus, question: string, options: GroundingOptions = {}): GroundingResult {
  const minMatches = Math.max(1, Math.floor(options.minMatches ?? GROUNDING_DEFAULTS.minMatches));
  const minEvidence = options.minEvidence ?? GROUNDING_DEFAULTS.minEvidence;
  const q = analyzeQuestion(corpus, question, options);
  if (q.pageQuestion) return { grounded: true, matched: [], reason: 'page_question' };
  const { content, names, intent } = q;
  // "How do I contact you?", "How much is it in euros?": nothing but the asked-for kind, about the pages' own subject.
  const kindOnly = askedKindOnly(q);
  if (kindOnly) return holdsKind(corpus, kindOnly.kind, kindOnly.signs) ? { grounded: true, matched: [], reason: 'matched' } : { grounded: false, matched: [], reason: 'not_answerable' };
  if (content.length === 0) return { grounded: false, matched: [], reason: 'no_content_words' };
  // "How much is the Quest 3?" on a page that names the Quest Pro: the pages hold another model.
  if (q.missingModels.length > 0) return { grounded: false, matched: [], reason: 'not_answerable' };
  // "What's a good recipe for peanut butter cookies?" on a page about peanut allergies: the pages never write the
  // thing asked for.
  const asked: (readonly number[])[] = [];
  if (options.askedThings ?? GROUNDING_DEFAULTS.askedThings) {
    for (const c of content) {
      if (!q.lexicon.has('asked', c.word)) continue;
      // The thing itself, or a word naming the same thing ("shipping" / "delivery").
      const ids: number[] = c.id === undefined ? [] : [c.id];
      for (const w of sameThing(c.word)) { const id = corpus.vocabulary.get(corpus.resources.stem(w)); if (id !== undefined && !ids.includes(id)) ids.push(id); }
      if (ids.length === 0) return { grounded: false, matched: [], reason: 'not_answerable' };
      asked.push(ids);
    }
  }

  // Site corpora: the question needs to be about one page, so each page the question's words reach is weighed on
  // its own, and the best one decides (for a one-page corpus, that page).
  const settings: VerdictSettings = {
    minCoverage: options.minCoverage ?? GROUNDING_DEFAULTS.minCoverage,
    power: options.centralityPower ?? GROUNDING_DEFAULTS.centralityPower,
    intent,
    window: options.window ?? GROUNDING_DEFAULTS.window,
    smoothing: options.centralitySmoothing ?? GROUNDING_DEFAULTS.centralitySmoothing,
    actionInSentence: options.actionInSentence ?? GROUNDING_DEFAULTS.actionInSentence,
    actionIds: actionTerms(corpus, intent.action, intent.alternatives),
    instructions: (options.instructions ?? GROUNDING_DEFAULTS.instructions) && corpus.language === 'en' && intent.types.has('howto') && VISITOR_HOWTO.test(q.words.join(' ')),
    asked,
    kindInSentence: options.kindInSentence ?? GROUNDING_DEFAULTS.kindInSentence,
    instructionSentence: options.instructionSentence ?? GROUNDING_DEFAULTS.instructionSentence,
    kindIds: intent.types.has('money') || intent.types.has('hours') ? content.filter((c) => c.id !== undefined && KIND_LISTS.some((l) => q.lexicon.has(l, c.word))).map((c) => c.id!) : [],
    now: (options.currentTime ?? GROUNDING_DEFAULTS.currentTime) ? timesAsked(corpus, q) : [],
  };
  let best: PageVerdict | null = null;
  let mostMatched: readonly string[] = [];
  const candidates: PageVerdict[] = [];
  const verdicts = pageVerdicts(corpus, content, names, options.titleTopic ?? GROUNDING_DEFAULTS.titleTopic);
  // A short question (one or two content words, no name) needs 2 nats a word, and two words' worth at least.
  const short = (options.shortQuestions ?? GROUNDING_DEFAULTS.shortQuestions) && content.length <= 2 && !content.some((c) => names.has(c.word));
  const floor = short ? Math.min(minEvidence, 2 * GROUNDING_DEFAULTS.onTopicRate) : minEvidence;
  for (const v of verdicts) {
    if (v.matched.length > mostMatched.length) mostMatched = v.matched;
    if (v.matched.length < minMatches) continue;
    if (best === null || v.evidence > best.evidence) best = v;
    if (v.evidence >= floor) candidates.push(v);
  }
  if (best === null) return { grounded: false, matched: mostMatched, reason: 'too_few_matches' };
  if (candidates.length === 0) {
    // Weak evidence, yet one window holds every word of the question (and the kind of answer it asks for): the
    // words meeting there are evidence of their own. "How can I contact support?": the site's own words ("support",
    // "sales") are common and weigh little, but a passage that holds every one of them beside an email address or a
    // phone number answers the question; so do two or more common words meeting in one window ("What was the goal of
    // the system?": one word alone meets nothing). Before session 8, contact questions only (`wholeQuestion`).
    if (intent.types.has('contact') || ((options.wholeQuestion ?? GROUNDING_DEFAULTS.wholeQuestion) && content.length > 1)) {
      const all = { ...settings, minCoverage: ALL_WORDS };
      for (const v of verdicts) if (v.matched.length === content.length && isAnswerable(corpus, content, v, all)) return { grounded: true, matched: v.matched, reason: 'matched' };
    }
    return { grounded: false, matched: best.matched, reason: 'weak_evidence' };
  }
  // Answerability, for the pages that pass on evidence only, best first: most questions stop at the first.
  candidates.sort((x, y) => y.evidence - x.evidence);
  const check = settings.minCoverage > 0 || intent.types.size > 0 || asked.length > 0 || settings.now.length > 0;
  for (const v of candidates) {
    if (!check || isAnswerable(corpus, content, v, settings)) return { grounded: true, matched: v.matched, reason: 'matched' };
  }
  return { grounded: false, matched: candidates[0]!.matched, reason: 'not_answerable' };
}

// Words naming the kind of answer asked for (a price, opening hours): they frame it, they name no thing of their own.
const KIND_LISTS = ['money', 'currency', 'hours', 'opening', 'clockAsk'] as const;

// A how-to asked for oneself ("how do I", "how can we", "where can I", "how to"), not "how would one…" nor "who
// instructs members how to vote".
const VISITOR_HOWTO = /^(?:(?:how|where) (?:do|can|could|should) (?:i|we)|how to) /;

/**
 * The times a question asks about — the present ("right now", "the current rate") or the next occurrence ("the next
 * game") — read in the question's and the page's languages (not every loaded pack: Spanish "actual" is English
 * "current", English "actual" is not), as the corpus's term ids of each time's words.
 */
/** Term ids of a how-to's action and its alternatives ("turn off" → turn, switch, shut, disable, deactivate) on the pages. */
function actionTerms(corpus: Corpus, action: string | null, alternatives: readonly string[] = []): number[] {
  const out: number[] = [];
  if (action === null) return out;
  for (const w of [action, ...alternatives]) {
    const id = corpus.vocabulary.get(corpus.resources.stem(w));
    if (id !== undefined && !out.includes(id)) out.push(id);
  }
  return out;
}

// English words that name the same thing a visitor asks for: a page writing one answers a question asking the other.
const SAME_THING: readonly (readonly string[])[] = [
  ['shipping', 'delivery', 'postage'], ['ticket', 'tickets', 'admission'], ['booking', 'bookings', 'reservation', 'reservations'],
  ['discount', 'coupon', 'coupons', 'voucher', 'promo'], ['refund', 'refunds'], ['recipe', 'recipes', 'ingredients'],
];
function sameThing(word: string): readonly string[] {
  for (const g of SAME_THING) if (g.includes(word)) return g;
  return [];
}

const timeLexicons = new WeakMap<LanguageResources, Map<LanguageResources, Lexicon>>();
function timesAsked(corpus: Corpus, q: QuestionAnalysis): (readonly number[])[] {
  const page = corpus.resources, asked = resourcesFor(q.language);
  let byQuestion = timeLexicons.get(page);
  if (!byQuestion) timeLexicons.set(page, byQuestion = new Map());
  let lex = byQuestion.get(asked);
  if (!lex) byQuestion.set(asked, lex = lexiconOf([page, asked]));
  const out: (readonly number[])[] = [];
  // A site's prices, opening hours and contacts are written as today's: "what is the current price?" needs no "now".
  const present = !(q.intent.types.has('money') || q.intent.types.has('hours') || q.intent.types.has('contact'));
  // "Why not release now…?" asks for a reason, not for the state of things at a time (session 9).
  if (asksWhy(q.words)) return out;
  for (const list of ['current', 'upcoming'] as const) {
    if ((list === 'upcoming' || present) && q.words.some((w) => lex.has(list, w))) out.push(timeTerms(corpus, list));
  }
  return out;
}

/**
 * A question made of nothing but the kind of answer it asks for: a contact question with no other word ("how do I
 * contact you?"), or a price question whose every word is a price or currency word ("how much is it?", "what
 * does it cost in euros?", "what are the fees?"). Such a question is about the pages' own subject. A currency word the
 * pages never write out must be found as its sign.
 */
function askedKindOnly(q: QuestionAnalysis): { kind: 'contact' | 'money' | 'hours'; signs: string[] } | null {
  const { content, intent, lexicon } = q;
  if (intent.types.has('contact')) return content.length === 0 ? { kind: 'contact', signs: [] } : null;
  // "What are your opening hours?", "When are you open?": the site's own hours (session 9).
  if (intent.types.has('hours') && !intent.types.has('money')) return content.every((c) => lexicon.has('hours', c.word) || lexicon.has('opening', c.word)) ? { kind: 'hours', signs: [] } : null;
  if (!intent.types.has('money') || intent.types.size > 1) return null;
  const signs: string[] = [];
  for (const c of content) {
    if (lexicon.has('money', c.word)) continue;
    if (!lexicon.has('currency', c.word)) return null;
    const sign = currencySign(c.word);
    if (c.id === undefined && sign !== undefined) signs.push(sign);
  }
  return { kind: 'money', signs };
}
