import type { Corpus } from '../text/corpus.js';

/**
 * What a line of a page is, for answering: only `sentence` and `row` are ever quoted as an answer. A heading, a
 * question (an FAQ's own question) or a fragment ("Yes.", "Step 2") says what its section is about, so its
 * words count for the sentences under it instead.
 */
export type SentenceRole = 'sentence' | 'row' | 'heading' | 'question' | 'fragment';

/** Tunables of {@link sentenceRoles}. */
export const ROLE_LIMITS = Object.freeze({
  /** A paragraph of its own without closing punctuation and at most this many words is a heading. */
  headingWords: 14,
  /** Fewer words than this, and not a table row, is a fragment. */
  minWords: 3,
});

// Closing punctuation of a sentence, before any closing quotes or brackets.
const CLOSED = /[.!。！…]["'”’»)\]]*$/u;
const QUESTION = /[?？]["'”’»)\]]*$/u;
// "Plan: Summit; Price: $49 per year" (a table row as extraction renders it) or "Weight: 1.8 kg" (a key and value).
const PAIR = /^[^:;.?!]{1,60}:\s+\S/u;

/** The role of each sentence of `corpus`, by index. */
export function sentenceRoles(corpus: Corpus): SentenceRole[] {
  const { sentences } = corpus;
  const roles: SentenceRole[] = new Array(sentences.length);
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i]!;
    const alone = (i === 0 || sentences[i - 1]!.paragraph !== s.paragraph) && (i + 1 === sentences.length || sentences[i + 1]!.paragraph !== s.paragraph);
    roles[i] = roleOf(s.text, s.terms.length, alone);
  }
  return roles;
}

/** The role of one line: `alone` when it is a paragraph by itself (how extraction writes headings). */
export function roleOf(text: string, words: number, alone: boolean): SentenceRole {
  const t = text.trim();
  if (QUESTION.test(t)) return 'question';
  if (PAIR.test(t) && !CLOSED.test(t) && words >= 2) return 'row';
  if (!CLOSED.test(t) && alone && words <= ROLE_LIMITS.headingWords) return 'heading';
  if (t.endsWith(':') && words <= ROLE_LIMITS.headingWords) return 'heading';
  if (words < ROLE_LIMITS.minWords) return 'fragment';
  return 'sentence';
}

/** True for roles that may be quoted as an answer. */
export function isAnswerRole(role: SentenceRole): boolean {
  return role === 'sentence' || role === 'row';
}

// Words that open a sentence leaning on the one before ("It weighs…", "However…", "Yes.").
const LEANS_BACK = new Set(('it its this that these those they them their theirs he she his her him there such both however but also so then '
  + 'therefore thus instead otherwise here yes no additionally moreover furthermore meanwhile still likewise similarly '
  + 'il elle ils elles cela ceci ces mais donc cependant ainsi er sie es dies diese dieser dieses aber deshalb jedoch trotzdem '
  + 'el ella ellos ellas esto estos estas pero sin ele ela eles elas isso mas porem lui loro questo questa ma dit deze maar').split(' '));

/** True when the sentence opens with a word that leans on the sentence before ("It weighs…", "However…", "His father…"). */
export function leansBack(text: string): boolean {
  const m = /^[\s"'“‘«(¿¡]*([\p{L}']+)/u.exec(text);
  return m !== null && LEANS_BACK.has(m[1]!.toLowerCase().normalize('NFD').replace(/\p{Mn}/gu, ''));
}
