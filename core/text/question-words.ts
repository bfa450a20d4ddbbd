import { tokenize } from './tokenize.js';

// Interrogatives of the five required languages and of Chinese/Japanese, whatever the page's language: a
// question word says what kind of answer is wanted, never what it is about. (Italian and Dutch interrogatives are
// in their stopword lists; they are not added everywhere because "dove", "come", "wat" are English-looking words.)
// They ship with core, not with the language packs: a question may come in a language whose pack is not loaded.
const QUESTION = [
  'what', 'which', 'who', 'whom', 'whose', 'when', 'where', 'why', 'how', 'whats', "what's", "who's", "where's", "how's",
  'que', 'quoi', 'qui', 'quel', 'quelle', 'quels', 'quelles', 'lequel', 'laquelle', 'quand', 'ou', 'pourquoi', 'comment', 'combien', "qu'est",
  'was', 'wer', 'wen', 'wem', 'wessen', 'wann', 'wo', 'woher', 'wohin', 'warum', 'weshalb', 'wieso', 'wie', 'welche', 'welcher', 'welches', 'welchen', 'wieviel', 'wieviele',
  'quien', 'quienes', 'cuando', 'donde', 'adonde', 'cual', 'cuales', 'como', 'cuanto', 'cuanta', 'cuantos', 'cuantas', 'porque',
  'quem', 'quando', 'onde', 'qual', 'quais', 'quanto', 'quanta', 'quantos', 'quantas', 'porque',
  '什么', '谁', '哪', '哪里', '哪儿', '哪个', '为什么', '怎么', '怎样', '多少', '几',
  '什麼', '誰', '哪裡', '哪兒', '哪個', '為什麼', '怎麼', '怎樣', '幾', '何', '誰', 'どこ', 'いつ', 'なぜ', 'どう', 'どの', 'どれ', 'いくつ', 'いくら', 'なに', '何故',
];

/** Interrogatives in every supported language, normalised. */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(QUESTION.flatMap((w) => tokenize(w)));
