import type { Corpus } from '../text/corpus.js';
import { resourcesFor } from '../text/resources.js';
import type { QuestionIntent } from './intent.js';
import { passageFacts, sentenceFacts, MONEY, HOURS, TIME, AMOUNT, CONTACT } from './answer-types.js';
import { lexiconOf, type Lexicon } from './lexicon.js';
import type { ContentWord, PageVerdict } from './evidence.js';
import { lowerBound } from './postings.js';

/** How the answerability check reads a question (settings resolved from the options and the intent). */
export interface VerdictSettings {
  readonly minCoverage: number;
  readonly power: number;
  readonly intent: QuestionIntent;
  /** Term ids of the how-to's action and the verbs naming the same action ("turn" and "disable"); empty when none is on the pages. */
  readonly actionIds: readonly number[];
  readonly window: number;
  readonly smoothing: number;
  /** How-to questions: the action must share a sentence (or its neighbour) with another of the question's words. */
  readonly actionInSentence: boolean;
  /**
   * A visitor's own how-to ("how do I…", "how to…", on an English page): the window must read as instructions — it
   * addresses the reader, numbers steps or is written in the imperative. A news story or a review that names the
   * action says that it happens, not how to do it.
   */
  readonly instructions: boolean;
  /** By thing the question asks for (a recipe, tickets): its term ids and those of words naming the same thing; the window must hold one of each. */
  readonly asked: readonly (readonly number[])[];
  /**
   * For a question about the present or the next occurrence: the corpus's term ids of each time asked about
   * ("now", "current" / "next", "upcoming"); the window must hold one of each.
   */
  readonly now: readonly (readonly number[])[];
  /** A price or opening hours asked for must be written in a sentence that holds one of the question's words (session 9). */
  readonly kindInSentence: boolean;
  /** The sentence holding a how-to's action, or its neighbour, reads as instructions (`instructionSentence`). */
  readonly instructionSentence: boolean;
  /** Term ids of the question's words that name the kind asked for ("cost", "price", "opening", "hours"): no thing of their own. */
  readonly kindIds: readonly number[];
}

/**
 * Answerability: the pages with one passage that holds the question's key terms and the kind of answer it asks
 * for. A word weighs its general-language rarity, less the more of its page's passages hold it (the page's own
 * topic words say little about whether this question is answered here: every question on the page names them);
 * the passage must hold `minCoverage` of the question's weight, an answer of each asked type (a price, a time,
 * opening hours, an amount) and, for a how-to question, the asked action.
 */
export function isAnswerable(corpus: Corpus, content: readonly ContentWord[], v: PageVerdict, settings: VerdictSettings): boolean {
  const m = content.length;
  const page = v.page;
  const perPage = passagesPerPage(corpus)[page]!;
  const first = firstPassageOf(corpus)[page]!;
  const weights = new Float64Array(m);
  let total = 0;
  for (let k = 0; k < m; k++) {
    // A how-to's action keeps its full weight: "How do I return an item?" on a page about returns is about returning.
    const id = content[k]!.id;
    const action = id !== undefined && settings.actionIds.includes(id);
    // Centrality compares a page's passages: a page of one passage (each source the SDK posts to POST /v1/chat is
    // one) holds every present word in all of them, so the discount would only halve present words against absent
    // ones — it says nothing about which words are the page's topic.
    weights[k] = Math.log(content[k]!.rank + 1) * (action || perPage < 2 ? 1 : Math.pow(1 - v.df[k]! / (perPage + settings.smoothing), settings.power));
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
    if (holdsAnswerTypes(corpus, first + q, next, settings, content)) return true;
  }
  return false;
}

// Instructions address the reader ("you", "your"), go by steps ("step 2", a numbered list) or are written in the
// imperative: a sentence, a line or a clause after a colon opening with a verb and its object ("Rinse the fly",
// "connect the box", "Store it"). English pages.
const INSTRUCTION = /\byou(?:r|'ll|'re)?\b|\bsteps?\b|^\s*\d+[.)]\s|(?:^|[.!?:]\s+)\p{L}\p{Ll}+ (?:the|a|an|your|it|them|its|this|these|each|all|any) /imu;

// A how-to asked as a line of its own, as FAQs write their questions: "How do I clean the burrs?", "How can I…?".
const FAQ_HOWTO = /^\s*(?:how|where) (?:do|can|should|could) (?:i|we|you)\b[^?]*\?\s*$/iu;
const FAQ_HOWTO_IN = /(?:^|[.!?]\s+)(?:how|where) (?:do|can|should|could) (?:i|we|you)\b[^?\n]*\?/imu;

// A method: "it's possible to disable tab-to-search by unchecking a search engine".
const BY_METHOD = /\bby \p{L}+ing\b/iu;

/** True when passage `p` reads as instructions (INSTRUCTION), its first word no stopword ("Then the…" is no verb). */
function instructs(corpus: Corpus, p: number): boolean {
  const text = corpus.passages[p]!.text;
  return readsAsInstructions(corpus, text) || FAQ_HOWTO_IN.test(text);
}

function readsAsInstructions(corpus: Corpus, text: string): boolean {
  const re = new RegExp(INSTRUCTION.source, 'gimu');
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const verb = /\p{L}\p{Ll}+(?= \S+ $)/u.exec(m[0]);
    if (verb === null || !corpus.resources.isStopword(verb[0].toLowerCase())) return true;
  }
  return false;
}

function holdsAnswerTypes(corpus: Corpus, p: number, next: number, settings: VerdictSettings, content: readonly ContentWord[]): boolean {
  for (const ids of settings.asked) {
    if (!ids.some((id) => corpus.passageTerms(p).includes(id) || (next >= 0 && corpus.passageTerms(next).includes(id)))) return false;
  }
  for (const ids of settings.now) {
    if (!ids.some((id) => corpus.passageTerms(p).includes(id) || (next >= 0 && corpus.passageTerms(next).includes(id)))) return false;
  }
  const { types } = settings.intent;
  if (types.size === 0) return true;
  if (types.has('howto')) {
    const held = settings.actionIds.filter((a) => corpus.passageTerms(p).includes(a) || (next >= 0 && corpus.passageTerms(next).includes(a)));
    if (held.length === 0) return false;
    if (settings.actionInSentence && !held.some((a) => actionMeetsObject(corpus, p, next, a, content, settings.actionIds))) return false;
    if (settings.instructions && !instructs(corpus, p) && (next < 0 || !instructs(corpus, next))) return false;
    if (settings.instructions && settings.instructionSentence && !held.some((a) => actionMeetsObject(corpus, p, next, a, settings.actionInSentence ? content : [], settings.actionIds, true))) return false;
  }
  const lex = passageLexicon(corpus);
  const f = passageFacts(corpus, p, lex) | (next >= 0 ? passageFacts(corpus, next, lex) : 0);
  if (types.has('money') && !(f & MONEY)) return false;
  if (settings.kindInSentence && types.has('money') && !kindMeetsObject(corpus, p, next, MONEY, content, settings.kindIds)) return false;
  if (settings.kindInSentence && types.has('hours') && !kindMeetsObject(corpus, p, next, HOURS, content, settings.kindIds)) return false;
  if (types.has('hours') && !(f & HOURS)) return false;
  if (types.has('time') && !(f & TIME)) return false;
  if (types.has('amount') && !(f & AMOUNT)) return false;
  if (types.has('contact') && !(f & CONTACT)) return false;
  return true;
}

/**
 * A how-to's action is about the question's thing when one sentence holding the action, or the sentence next to
 * it, also holds another of the question's words: "connect" in a sentence about a TV and "Kinect" three sentences
 * later do not say how to connect a Kinect. Words of the page's title are what every sentence of the page is about
 * ("Cleaning — Rinse the fly…" on a page titled "Tent care guide" says how to clean a tent), so they need no
 * sentence of their own. (A question with no other word left passes.) With `instructed` (`instructionSentence`,
 * session 10) that sentence, or its neighbour, must also read as instructions or give a method ("…by unchecking the
 * box"): "Worse than installing CS 3 or Acrobat 7 ever did" names the action and the thing but says no step.
 */
function actionMeetsObject(corpus: Corpus, p: number, next: number, action: number, content: readonly ContentWord[], actions: readonly number[], instructed = false): boolean {
  const title = corpus.titleTerms[corpus.passages[p]!.page]!;
  const others: number[] = [];
  for (const c of content) if (c.id !== undefined && !actions.includes(c.id) && !title.includes(c.id)) others.push(c.id);
  if (others.length === 0 && !instructed) return true;
  const from = corpus.passages[p]!.firstSentence;
  const last = next >= 0 ? corpus.passages[next]! : corpus.passages[p]!;
  const to = last.firstSentence + last.sentenceCount; // exclusive
  const hasOther = (s: number): boolean => {
    if (s < from || s >= to) return false;
    const t = corpus.sentences[s]!.terms;
    for (const id of others) if (t.includes(id)) return true;
    return false;
  };
  // An FAQ that asks the visitor's how-to itself ("How do I clean the burrs?" above its answer) answers it there
  // (session 15): the sentence holding the action is that question line, and the answer follows it.
  const reads = (s: number): boolean => s >= from && s < to && (BY_METHOD.test(corpus.sentences[s]!.text) || readsAsInstructions(corpus, corpus.sentences[s]!.text) || FAQ_HOWTO.test(corpus.sentences[s]!.text));
  for (let s = from; s < to; s++) {
    if (!corpus.sentences[s]!.terms.includes(action)) continue;
    if ((others.length === 0 || hasOther(s) || hasOther(s - 1) || hasOther(s + 1)) && (!instructed || reads(s) || reads(s - 1) || reads(s + 1))) return true;
  }
  return false;
}

/**
 * One sentence of the window holds an answer of `kind` (a price, opening hours) and one of the question's content
 * words other than the words naming the kind (`kindIds`: "cost", "hours"): the kind asked for is written of the
 * thing asked about. "How much is a room at The London West Hollywood?" on a story whose
 * only price is the stolen dress's ("It's valued at $150,000.") is refused; "How much will the game cost?" meets "$10
 * … compared to the $0 people pay for most mobile games". Words of the page's title get no exemption here: a
 * page's own subject is not what every price on it is the price of.
 */
function kindMeetsObject(corpus: Corpus, p: number, next: number, kind: number, content: readonly ContentWord[], kindIds: readonly number[]): boolean {
  const others: number[] = [];
  for (const c of content) if (c.id !== undefined && !kindIds.includes(c.id)) others.push(c.id);
  if (others.length === 0) return false;
  const lex = passageLexicon(corpus);
  const from = corpus.passages[p]!.firstSentence;
  const last = next >= 0 ? corpus.passages[next]! : corpus.passages[p]!;
  const to = last.firstSentence + last.sentenceCount;
  for (let s = from; s < to; s++) {
    if (!(sentenceFacts(corpus, s, lex) & kind)) continue;
    const t = corpus.sentences[s]!.terms;
    for (const id of others) if (t.includes(id)) return true;
  }
  return false;
}

/**
 * For a question that asks only for a kind of answer about the pages' own subject — how to reach the site ("how do
 * I contact you?", "what is your phone number?"), what it costs ("how much is it in euros?") — the pages answer it
 * when one of their passages holds that kind (an email address or a phone number; a price, in the sign of a
 * currency the question names when it names one the pages never write out).
 */
export function holdsKind(corpus: Corpus, kind: 'contact' | 'money' | 'hours', signs: readonly string[] = []): boolean {
  const lex = passageLexicon(corpus);
  const flag = kind === 'contact' ? CONTACT : kind === 'hours' ? HOURS : MONEY;
  for (let p = 0; p < corpus.passages.length; p++) {
    if (!(passageFacts(corpus, p, lex) & flag)) continue;
    const text = corpus.passages[p]!.text;
    if (signs.every((s) => text.includes(s))) return true;
  }
  return false;
}

const nowCache = new WeakMap<Corpus, Map<string, readonly number[]>>();
/**
 * Term ids of the corpus's words of one time (`current`: "now", "current"; `upcoming`: "next"), in the corpus's
 * language and English.
 */
export function timeTerms(corpus: Corpus, list: 'current' | 'upcoming'): readonly number[] {
  let m = nowCache.get(corpus);
  if (!m) nowCache.set(corpus, m = new Map());
  let ids = m.get(list);
  if (!ids) {
    const out = new Set<number>();
    const lex = passageLexicon(corpus);
    for (const w of list === 'current' ? [...lex.all(list), ...lex.all('currentText')] : lex.all(list)) {
      const id = corpus.vocabulary.get(corpus.resources.stem(w));
      if (id !== undefined) out.add(id);
    }
    m.set(list, ids = [...out]);
  }
  return ids;
}

const lexCache = new WeakMap<Corpus, Lexicon>();
/** Passages are read with their corpus's language and English (web pages mix in English words and currencies). */
export function passageLexicon(corpus: Corpus): Lexicon {
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

