import { lazyWordSet, QUESTION_WORDS } from '../text/question-words.js';
import type { Lexicon } from './lexicon.js';

/**
 * What a question asks for, read from its wording alone (no page): the kind of answer (an amount, a price, a
 * time, opening hours, steps to follow), the words that only frame the question ("how *much*"), and the action a
 * how-to question asks about ("how do I *cancel*…"). English grammar here; each language's words come with its
 * pack (core/text/packs, `grounding`): general vocabulary, never taken from evaluation questions.
 */
export type AnswerType = 'amount' | 'money' | 'time' | 'hours' | 'howto' | 'contact';

export interface QuestionIntent {
  /** Kinds of answer the question asks for; a page passage must hold one of each to answer it. */
  readonly types: ReadonlySet<AnswerType>;
  /** Words (normalised) that only frame the question: they carry no topic and are not required on the page. */
  readonly frame: ReadonlySet<string>;
  /** For a how-to question: the asked action (normalised verb, e.g. "cancel"), required on the answering passage. */
  readonly action: string | null;
  /** Other verbs that name the same action ("turn off" = "disable"): any of them answers the how-to. */
  readonly alternatives?: readonly string[];
}

// Lazy for Chinese/Japanese words: no Intl.Segmenter at load (issue 12; lazyWordSet).
function set(list: string): ReadonlySet<string> {
  return lazyWordSet(list.split(/\s+/).filter(Boolean));
}

// "how much", "how many", "how long"…: the second word asks for an amount; it is no topic word.
const HOW_AMOUNT = set('much many long often far old big large tall high heavy wide deep fast soon early late');
// "how do I …", "how can we …", "how to …", "where can I buy …".
const HOWTO_AUX = set('do can could should would to shall');
const HOWTO_SUBJ = set('i we you one my');
// "how much is it", "how much are tickets": a price; "how much does it weigh" asks a price only with a money word.
const BE = set('is are was were');
// Words a how-to action may hide behind ("how do I *get* …" asks about what follows).
const LIGHT_VERBS = set('get make go have be take do');
// Questions asking for a reason or a person ask for no amount, price or opening hours, whatever words they hold
// ("Why is the oil sold at a higher *price*?", "Who was in *charge* of the army?"). Interrogatives of the
// languages with packs ("por qué" is two words: "por" before a question word).
const WHY = set('why pourquoi warum weshalb wieso porque porquê 为什么 為什麼 なぜ 何故');
/** True when the question asks for a reason ("why…", "pourquoi…", "por qué…"). */
export function asksWhy(words: readonly string[]): boolean {
  return words.some((w, i) => WHY.has(w) || (w === 'por' && QUESTION_WORDS.has(words[i + 1] ?? '')));
}
const WHO = set('who whom whose qui wer wen wem wessen quien quienes quem 谁 誰');
// An English idiom where a money word names no price ("in charge of").
const NOT_MONEY_AFTER = set('in');
// "5 times", "many times more": a multiplier, not a timetable.
const MULTIPLIER_BEFORE = set('many more several few');
const PAST = set('did was were');
const YESNO_AUX = set('can could do does may is are will');
const PAY = set('pay paying');
const LOCATED = set('located based situated');
const METHOD_BEFORE = set('what by');
// English phrasal verbs and the single verbs pages write for the same action, both ways ("how do I turn off X" is
// answered by "disable X", "how do I disable X" by "turn off X"). Each group: its "verb particle" forms, then verbs.
const PHRASAL: readonly (readonly string[])[] = [
  ['turn off', 'switch off', 'shut off', 'disable', 'deactivate'],
  ['turn on', 'switch on', 'enable', 'activate'],
  ['set up', 'setup', 'configure', 'install'],
  ['sign up', 'register', 'signup', 'enroll', 'enrol'],
  ['sign in', 'log in', 'login', 'signin'],
  ['sign out', 'log out', 'logout'],
  ['opt out', 'unsubscribe'],
  ['back up', 'backup'],
  ['rid', 'remove', 'delete'],
];
/** The verbs of a how-to's action's group ("turn" + "off" → turn, switch, shut, disable, deactivate), or none. */
function phrasalAlternatives(verb: string, particle: string | undefined): readonly string[] {
  const form = particle === undefined ? verb : `${verb} ${particle}`;
  for (const g of PHRASAL) if (g.includes(form) || g.includes(verb)) return [...new Set(g.map((f) => f.split(' ')[0]!))].filter((v) => v !== verb);
  return [];
}
const NONE: ReadonlySet<string> = new Set();
const CJK = /[\u3040-\u30ff\u3400-\u9fff]/;
const KANA = /[\u3040-\u30ff]/;
const KANJI = /[\u3400-\u9fff]/;

/** The intent of a question (words as `tokenize` gives them). Cheap: one pass over the words, set lookups. */
export interface IntentOptions {
  /** "turn off" = "disable" (PHRASAL). Default true. */
  readonly phrasalVerbs?: boolean;
  /** "What does the word X mean?": the meaning words only frame. Default true. */
  readonly definitions?: boolean;
  /** "How do I *get* my bookmarks?": the light verb before a how-to's action only frames it. Default true. */
  readonly lightVerbs?: boolean;
  /** "How do people *pay*?" asks for a way of paying, not a price ("how much do they pay?" does). Default true. */
  readonly mannerNotPrice?: boolean;
}

export function questionIntent(words: readonly string[], lex: Lexicon, isStopword: (w: string) => boolean, names: ReadonlySet<string> = NONE, options: IntentOptions = {}): QuestionIntent {
  const types = new Set<AnswerType>();
  const frame = new Set<string>();
  // In languages that put the question word first, a word before it belongs to a statement the question builds
  // on ("…policies are *expensive* quick fixes that ignore which facts?"), not to what is asked.
  if (words.some((w) => CJK.test(w))) return cjkIntent(words, lex, isStopword);
  // "What does the Māori word taonga mean?": the meaning asked for and the noun naming the thing only frame it.
  // ("By what means…", "by means of": a way, not a meaning.)
  if (options.definitions !== false && words.some((w, i) => lex.has('define', w) && !METHOD_BEFORE.has(words[i - 1] ?? ''))) for (const w of words) if (lex.has('define', w) || lex.has('defined', w)) frame.add(w);
  let wh = words.findIndex((w) => QUESTION_WORDS.has(w) || lex.has('amount', w) || lex.has('when', w));
  if (wh < 0) wh = 0;
  const asksWhoOrWhy = words.some((w, i) => WHO.has(w) || WHY.has(w) || (w === 'por' && QUESTION_WORDS.has(words[i + 1] ?? '')));
  let howMuch = false; // "how much", "combien", "cuánto", "多少": an amount that a money word makes a price
  let priceByBe = false;
  let howMany = false; // "how many times more did they pay": a count, whatever else it names
  let money = false;
  let contact = false; // "how do I contact you", "what is your email address": an address or a number
  let hours = false;
  let opening = false;
  let clock = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === 'how' && i + 1 < words.length && HOW_AMOUNT.has(words[i + 1]!)) {
      frame.add(words[i + 1]!);
      types.add('amount');
      if (words[i + 1] === 'much') { howMuch = true; if (BE.has(words[i + 2] ?? '')) priceByBe = true; } else if (words[i + 1] === 'many') howMany = true;
      i++;
      continue;
    }
    // One-word interrogatives of an amount or a time ("combien", "cuánto", "多少钱", "什么时候", "いくら") only frame.
    if (lex.has('amount', w)) { types.add('amount'); frame.add(w); howMuch = true; }
    if (lex.has('when', w)) { types.add('time'); frame.add(w); }
    // Before the question word, or part of a name ("the Seattle *Times*", "Open Society"): no asked-for kind.
    if (i < wh || names.has(w)) continue;
    if (lex.has('money', w) && !NOT_MONEY_AFTER.has(words[i - 1] ?? '')) money = true;
    if (lex.has('hours', w) && !(w === 'times' && (MULTIPLIER_BEFORE.has(words[i - 1] ?? '') || /^\d|^how$/.test(words[i - 1] ?? '')))) hours = true;
    if (lex.has('opening', w)) opening = true;
    if (lex.has('clockAsk', w)) clock = true;
    // "Phone number", "contact details": the way to reach someone only frames the question; who or what is to be
    // reached stays a content word. ("The first contact with…" asks for no address.)
    if ((lex.has('contact', w) || lex.has('contactMeans', w)) && lex.has('contactDetail', words[i + 1] ?? '')) { contact = true; frame.add(w); frame.add(words[i + 1]!); i++; }
    // "What is your email?", "what's your phone?": a means of contact asked of the site, with nothing after it.
    else if (lex.has('contactMeans', w) && lex.has('yours', words[i - 1] ?? '') && (i + 1 >= words.length || isStopword(words[i + 1]!))) { contact = true; frame.add(w); }
    // "What is your address?", "what's the address?", "quelle est votre adresse ?": a postal address (session 15).
    // ("When was the address delivered?", "What was the address about?": a speech; a site's address is asked in the present.)
    else if (lex.has('postal', w) && (lex.has('yours', words[i - 1] ?? '') || lex.has('determiners', words[i - 1] ?? '')) && !types.has('time') && !words.includes('how') && !words.some((x) => PAST.has(x))) { contact = true; frame.add(w); }
  }
  // "Where are you?", "where are you located?": the site's own address (English; session 15). Not "where is your
  // shop?": a page may say where without an address ("in the old mill by the river"), and the shop is evidence.
  if (words[wh] === 'where' && BE.has(words[wh + 1] ?? '') && words[wh + 2] === 'you' && words.slice(wh + 3).every((w) => LOCATED.has(w) || isStopword(w))) {
    contact = true;
    for (const w of words) if (LOCATED.has(w)) frame.add(w);
  }
  if (!asksWhoOrWhy) {
    // A price: "how much does it cost", "combien coûte", "多少钱", "what is the fee", "how much are tickets".
    // "How do people pay?", "how can I afford it?": a manner, not a price (`mannerNotPrice`, session 10; English).
    // So do "Can I pay with PayPal?", "Can I pay in instalments?": paying asked about in a yes/no question (session 15).
    const manner = options.mannerNotPrice !== false && ((words[0] === 'how' && HOWTO_AUX.has(words[1] ?? '') && !howMuch && !howMany)
      || (YESNO_AUX.has(words[0] ?? '') && words.some((w) => PAY.has(w))));
    if (((money && !howMany) || (priceByBe && howMuch)) && !manner) { types.add('money'); types.delete('amount'); }
    // Opening hours: "opening hours", "horaires", or "what time / when does it open".
    // ("When did the plant open?" asks for a date.)
    if (hours || (opening && (clock || types.has('time')) && !words.some((w) => PAST.has(w)))) types.add('hours');
  } else {
    types.delete('amount');
  }
  // "How do I contact you?" asks for an address or a number, not for steps.
  const at = howToAction(words, lex, isStopword);
  let action = at < 0 ? null : words[at]!;
  // "How do I *get* my bookmarks?": the light verb the action hides behind is no word of the thing asked about (it
  // was weighed as one, and had to share a sentence with the action).
  // A name is no action: in "How do I *get* to Facebook?" the light verb is the action (getting somewhere), and stays.
  if (options.lightVerbs !== false && at > 0) {
    const light: string[] = [];
    for (let k = at - 1; k >= 0 && (LIGHT_VERBS.has(words[k]!) || isStopword(words[k]!) || isLetter(words[k]!)); k--) if (LIGHT_VERBS.has(words[k]!)) light.push(words[k]!);
    if (!names.has(action!)) for (const w of light) frame.add(w);
    else if (light.length > 0) action = light[0]!;
  }
  if (action !== null && lex.has('contact', action)) { contact = true; frame.add(action); action = null; }
  // "Who should I contact about refunds?" asks for a person.
  if (contact && !asksWhoOrWhy) types.add('contact');
  if (action !== null) types.add('howto');
  const alternatives = action === null || options.phrasalVerbs === false ? [] : phrasalAlternatives(action, words[at + 1]);
  return alternatives.length > 0 ? { types, frame, action, alternatives } : { types, frame, action };
}

// Where the verb is (its index, or -1) of "how do I VERB", "how can we VERB", "how to VERB", "where can I VERB", "comment VERB", "cómo VERB",
// "怎么 VERB": the first word after the interrogative (and its auxiliary, subject, modal) that is neither a
// stopword, a single letter nor a light verb.
function howToAction(words: readonly string[], lex: Lexicon, isStopword: (w: string) => boolean): number {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    let j: number;
    if ((w === 'how' || w === 'where') && i + 1 < words.length && HOWTO_AUX.has(words[i + 1]!)) {
      j = i + 2;
      if (words[i + 1] !== 'to') {
        if (j >= words.length || !HOWTO_SUBJ.has(words[j]!)) continue;
        j++;
      }
    } else if (lex.has('howto', w)) {
      j = i + 1;
      while (j < words.length && lex.has('modals', words[j]!)) j++;
    } else continue;
    while (j < words.length && (LIGHT_VERBS.has(words[j]!) || isStopword(words[j]!) || isLetter(words[j]!))) j++;
    if (j < words.length) return j;
  }
  return -1;
}

// "a", "x": no verb. (One CJK character can be one: 买, 做.)
function isLetter(w: string): boolean {
  return w.length === 1 && !CJK.test(w);
}

/**
 * Chinese and Japanese: no spaces and no fixed word order, so the language words are looked for in the joined
 * question ("多少钱", "什么时候", "どうやって", "営業時間"), and the words they cover only frame it.
 */
function cjkIntent(words: readonly string[], lex: Lexicon, isStopword: (w: string) => boolean): QuestionIntent {
  const types = new Set<AnswerType>();
  const frame = new Set<string>();
  const text = words.join('');
  const starts: number[] = [];
  let at = 0;
  for (const w of words) { starts.push(at); at += w.length; }
  const covered = (spans: readonly number[]): number[] => {
    const ks: number[] = [];
    words.forEach((w, k) => { for (let s = 0; s < spans.length; s += 2) if (starts[k]! < spans[s + 1]! && starts[k]! + w.length > spans[s]!) { ks.push(k); break; } });
    return ks;
  };
  const amount = lex.spans('amount', text);
  const when = lex.spans('when', text);
  for (const k of covered(amount)) frame.add(words[k]!);
  for (const k of covered(when)) frame.add(words[k]!);
  if (when.length > 0) types.add('time');
  if (!words.some((w) => WHO.has(w) || WHY.has(w))) {
    if (lex.spans('money', text).length > 0) types.add('money');
    else if (amount.length > 0) types.add('amount');
    if (lex.spans('hours', text).length > 0) types.add('hours');
  }
  let action: string | null = null;
  const howto = lex.spans('howto', text);
  if (howto.length > 0) {
    const skip = (w: string): boolean => isStopword(w) || lex.has('modals', w) || !KANJI.test(w) && KANA.test(w);
    let k = words.findIndex((w, i) => starts[i]! >= howto[1]!);
    if (k >= 0 && KANA.test(text)) {
      // Japanese puts the verb last ("どうやって肉を*取り*ますか"): the last word that is not a particle or an ending.
      for (k = words.length - 1; k >= 0 && starts[k]! >= howto[1]! && skip(words[k]!); k--);
      if (k >= 0 && starts[k]! < howto[1]!) k = -1;
    } else {
      while (k >= 0 && k < words.length && skip(words[k]!)) k++;
    }
    if (k >= 0 && k < words.length) { action = words[k]!; types.add('howto'); }
  }
  return { types, frame, action };
}
