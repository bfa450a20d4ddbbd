import { tokenize } from '../text/tokenize.js';
import type { Lexicon } from './lexicon.js';

/**
 * What a question asks for, read from its wording alone (no page): the kind of answer (an amount, a price, a
 * time, opening hours, steps to follow), the words that only frame the question ("how *much*"), and the action a
 * how-to question asks about ("how do I *cancel*…"). English grammar here; each language's words come with its
 * pack (core/text/packs, `grounding`): general vocabulary, never taken from evaluation questions.
 */
export type AnswerType = 'amount' | 'money' | 'time' | 'hours' | 'howto';

export interface QuestionIntent {
  /** Kinds of answer the question asks for; a page passage must hold one of each to answer it. */
  readonly types: ReadonlySet<AnswerType>;
  /** Words (normalised) that only frame the question: they carry no topic and are not required on the page. */
  readonly frame: ReadonlySet<string>;
  /** For a how-to question: the asked action (normalised verb, e.g. "cancel"), required on the answering passage. */
  readonly action: string | null;
}

function set(list: string): ReadonlySet<string> {
  return new Set(list.split(/\s+/).filter(Boolean).flatMap((w) => tokenize(w)));
}

// "how much", "how many", "how long"…: the second word asks for an amount; it is no topic word.
const HOW_AMOUNT = set('much many long often far old big large tall high heavy wide deep fast soon early late');
// "how do I …", "how can we …", "how to …", "where can I buy …".
const HOWTO_AUX = set('do can could should would to shall');
const HOWTO_SUBJ = set('i we you one my');
const BE_DO = set('is are was were does do did will would');
// Words a how-to action may hide behind ("how do I *get* …" asks about what follows).
const LIGHT_VERBS = set('get make go have be take do');

/** The intent of a question (words as `tokenize` gives them). Cheap: one pass over the words, set lookups. */
export function questionIntent(words: readonly string[], lex: Lexicon, isStopword: (w: string) => boolean): QuestionIntent {
  const types = new Set<AnswerType>();
  const frame = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === 'how' && i + 1 < words.length && HOW_AMOUNT.has(words[i + 1]!)) {
      frame.add(words[i + 1]!);
      // "how much is it", "how much are tickets", "how much does it cost": a price.
      types.add(words[i + 1] === 'much' && i + 2 < words.length && BE_DO.has(words[i + 2]!) ? 'money' : 'amount');
      i++;
      continue;
    }
    if (lex.has('amount', w)) { types.add('amount'); frame.add(w); }
    if (lex.has('money', w)) types.add('money');
    if (lex.has('hours', w)) types.add('hours');
    if (lex.has('when', w)) types.add('time');
  }
  const action = howToAction(words, lex, isStopword);
  if (action !== null) types.add('howto');
  if (types.has('money')) types.delete('amount'); // "how much does it cost" asks for a price, not any amount
  return { types, frame, action };
}

// The verb of "how do I VERB", "how can we VERB", "how to VERB", "where can I VERB", "comment VERB", "cómo VERB",
// "怎么 VERB": the first word after the interrogative (and its auxiliary, subject, modal) that is neither a
// stopword nor a light verb.
function howToAction(words: readonly string[], lex: Lexicon, isStopword: (w: string) => boolean): string | null {
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
    while (j < words.length && (LIGHT_VERBS.has(words[j]!) || isStopword(words[j]!))) j++;
    if (j < words.length) return words[j]!;
  }
  return null;
}
