// A page repeats its words, and the Snowball stemmers cost a few µs a call: stems are cached, up to this many words.
const MAX_CACHE = 200_000;

/** One language's stemmer, cached and uncached, over normalised words. */
export interface Stemmer {
  /** The stem of `word` (cached). */
  readonly stem: (word: string) => string;
  /** The same without the cache, for callers that see each word once (the lexicon). */
  readonly stemOnce: (word: string) => string;
  /** Empties the cache. */
  clear(): void;
}

/**
 * Wraps a raw stemmer (Porter2, Snowball…): words of three letters or fewer and words that are not alphabetic
 * Latin (numbers, CJK, Cyrillic…) pass through unchanged, and so does every word without a raw stemmer.
 */
export function createStemmer(raw: ((word: string) => string) | undefined): Stemmer {
  if (!raw) { const same = (w: string): string => w; return { stem: same, stemOnce: same, clear() {} }; }
  // Short words and non-Latin words are left alone: stemmers only know their own alphabet.
  // (A word starting with a-z, by char code: a regex test per new word cost more than the test is worth.)
  const stemOnce = (word: string): string => {
    const c = word.charCodeAt(0);
    return word.length > 3 && c >= 97 && c <= 122 ? safeStem(raw, word) : word;
  };
  const cache = new Map<string, string>();
  return {
    stem(word) {
      let s = cache.get(word);
      if (s !== undefined) return s;
      s = stemOnce(word);
      if (cache.size >= MAX_CACHE) cache.clear();
      cache.set(word, s);
      return s;
    },
    stemOnce,
    clear: () => cache.clear(),
  };
}

function safeStem(stem: (w: string) => string, word: string): string {
  try {
    const s = stem(word);
    return s.length > 0 ? s : word;
  } catch {
    return word; // a stemmer bug must never take a page down
  }
}
