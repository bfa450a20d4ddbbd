import { stem as en } from 'porter2';
import { stemmer as fr } from '@orama/stemmers/french';
import { stemmer as de } from '@orama/stemmers/german';
import { stemmer as es } from '@orama/stemmers/spanish';
import { stemmer as pt } from '@orama/stemmers/portuguese';
import { stemmer as it } from '@orama/stemmers/italian';
import { stemmer as nl } from '@orama/stemmers/dutch';
import type { Language } from './language.js';

const STEMMERS: Readonly<Partial<Record<Language, (w: string) => string>>> = { en, fr, de, es, pt, it, nl };
const LETTER_START = /^[a-z]/;
// Stems are cached per language: a page repeats its words, and the Snowball stemmers cost a few µs a call.
const caches = new Map<Language, Map<string, string>>();
const MAX_CACHE = 200_000;

/** The stemmer of `lang` without the cache (for callers that see each word once, like the lexicon). */
export function uncachedStemmerFor(lang: Language): (word: string) => string {
  const stem = STEMMERS[lang];
  if (!stem) return (w) => w;
  return (word) => (word.length > 3 && LETTER_START.test(word) ? safeStem(stem, word) : word);
}

/**
 * A stemmer for `lang` over normalised words (English: Porter2 via `porter2`, twice as fast as a regex Porter;
 * the others: Snowball via @orama/stemmers); words that are not
 * alphabetic Latin (numbers, CJK, Cyrillic…) and languages without a stemmer pass through unchanged.
 */
export function stemmerFor(lang: Language): (word: string) => string {
  const stem = STEMMERS[lang];
  if (!stem) return (w) => w;
  let cache = caches.get(lang);
  if (!cache) { cache = new Map(); caches.set(lang, cache); }
  const c = cache;
  return (word) => {
    let s = c.get(word);
    if (s !== undefined) return s;
    // Short words and non-Latin words are left alone: stemmers only know their own alphabet.
    s = word.length > 3 && LETTER_START.test(word) ? safeStem(stem, word) : word;
    if (c.size >= MAX_CACHE) c.clear();
    c.set(word, s);
    return s;
  };
}

/** Empties the stem caches. */
export function clearStemCaches(): void {
  caches.clear();
}

function safeStem(stem: (w: string) => string, word: string): string {
  try {
    const s = stem(word);
    return s.length > 0 ? s : word;
  } catch {
    return word; // a stemmer bug must never take a page down
  }
}
