import { stopwords as en } from '@orama/stopwords/english';
import { stopwords as fr } from '@orama/stopwords/french';
import { stopwords as de } from '@orama/stopwords/german';
import { stopwords as es } from '@orama/stopwords/spanish';
import { stopwords as pt } from '@orama/stopwords/portuguese';
import { stopwords as it } from '@orama/stopwords/italian';
import { stopwords as nl } from '@orama/stopwords/dutch';
import { stopwords as zh } from '@orama/stopwords/mandarin';
import { stopwords as ja } from '@orama/stopwords/japanese';
import type { Language } from './language.js';
import { tokenize } from './tokenize.js';

// Interrogatives of the five required languages and of Chinese/Japanese, whatever the page's language: a
// question word says what kind of answer is wanted, never what it is about. (Italian and Dutch interrogatives are
// in their stopword lists; they are not added everywhere because "dove", "come", "wat" are English-looking words.)
const QUESTION = [
  'what', 'which', 'who', 'whom', 'whose', 'when', 'where', 'why', 'how', 'whats', "what's", "who's", "where's", "how's",
  'que', 'quoi', 'qui', 'quel', 'quelle', 'quels', 'quelles', 'lequel', 'laquelle', 'quand', 'ou', 'pourquoi', 'comment', 'combien', "qu'est",
  'was', 'wer', 'wen', 'wem', 'wessen', 'wann', 'wo', 'woher', 'wohin', 'warum', 'weshalb', 'wieso', 'wie', 'welche', 'welcher', 'welches', 'welchen', 'wieviel', 'wieviele',
  'quien', 'quienes', 'cuando', 'donde', 'adonde', 'cual', 'cuales', 'como', 'cuanto', 'cuanta', 'cuantos', 'cuantas', 'porque',
  'quem', 'quando', 'onde', 'qual', 'quais', 'quanto', 'quanta', 'quantos', 'quantas', 'porque',
  '什么', '谁', '哪', '哪里', '哪儿', '哪个', '为什么', '怎么', '怎样', '多少', '几', '何', '誰', 'どこ', 'いつ', 'なぜ', 'どう', 'どの', 'どれ', 'いくつ', 'いくら', 'なに', '何故',
];

const LISTS: Readonly<Record<Language, readonly string[]>> = { en, fr, de, es, pt, it, nl, zh, ja };
const cache = new Map<Language, ReadonlySet<string>>();

/** The words of `lang` that carry no topic (articles, pronouns, auxiliaries…), normalised like page words. */
export function stopwordsOf(lang: Language): ReadonlySet<string> {
  let set = cache.get(lang);
  if (!set) {
    const s = new Set<string>();
    // Lists are normalised through the same tokenizer as pages, so "été" matches the folded "ete".
    for (const w of LISTS[lang]) for (const t of tokenize(w)) s.add(t);
    set = s;
    cache.set(lang, set);
  }
  return set;
}

/** Interrogatives in every supported language, normalised. */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(QUESTION.flatMap((w) => tokenize(w)));

/** True for a stopword of `lang` or a question word. */
export function isStopword(word: string, lang: Language): boolean {
  return QUESTION_WORDS.has(word) || stopwordsOf(lang).has(word);
}
