import { NO_SPACE, tokenize } from './tokenize.js';

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

/**
 * A set of normalised words, the words of scripts written without spaces tokenized on the first lookup of such a
 * word: tokenizing them needs Intl.Segmenter, whose creation costs ~150 ms of main thread in Chromium (issue 12), and
 * a page or question without those scripts never needs it. Any token of theirs contains such a character, so a lookup
 * of any other word cannot miss one: the same set as tokenizing every word at once.
 */
export function lazyWordSet(words: readonly string[]): ReadonlySet<string> {
  return new LazyWordSet(words);
}

class LazyWordSet implements ReadonlySet<string> {
  readonly #spaced: Set<string>;
  readonly #unspacedWords: readonly string[];
  #unspaced: Set<string> | null = null;
  constructor(words: readonly string[]) {
    this.#spaced = new Set(words.filter((w) => !NO_SPACE.test(w)).flatMap((w) => tokenize(w)));
    this.#unspacedWords = words.filter((w) => NO_SPACE.test(w));
  }
  #more(): Set<string> {
    return (this.#unspaced ??= new Set(this.#unspacedWords.flatMap((w) => tokenize(w))));
  }
  #all(): Set<string> {
    return new Set([...this.#spaced, ...this.#more()]);
  }
  has(word: string): boolean {
    if (this.#spaced.has(word)) return true;
    return NO_SPACE.test(word) && this.#more().has(word);
  }
  get size(): number { return this.#all().size; }
  forEach(fn: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void { for (const w of this.#all()) fn.call(thisArg, w, w, this); }
  entries(): SetIterator<[string, string]> { return this.#all().entries(); }
  keys(): SetIterator<string> { return this.#all().keys(); }
  values(): SetIterator<string> { return this.#all().values(); }
  [Symbol.iterator](): SetIterator<string> { return this.#all().values(); }
}

/** Interrogatives in every supported language, normalised. */
export const QUESTION_WORDS: ReadonlySet<string> = lazyWordSet(QUESTION);
