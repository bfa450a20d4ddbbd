/**
 * Character-level normalisation shared by pages and questions, so that both sides of every comparison
 * (grounding vocabulary, retrieval terms) agree: NFKC (full-width forms, ligatures, compatibility digits),
 * lower case, and accent folding for alphabetic scripts.
 */

// Scripts whose words carry diacritics that users routinely omit when typing ("ou" for "où").
// Indic, Thai, Arabic… marks are vowels or part of the letter: stripping them would change the word.
const FOLDABLE = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{N}\p{M}'.]+$/u;
const MARKS = /\p{Mn}+/gu;
const NON_ASCII = /[^\x00-\x7f]/;

// Letters NFD does not decompose but that search engines conventionally fold (as Lucene's ASCIIFoldingFilter does).
const SPECIAL: Readonly<Record<string, string>> = Object.freeze({
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ſ: 's',
});
const SPECIAL_RE = /[ßæœøłđðþıſ]/g;

/** Unicode NFKC and lower case for a whole text; cheap for plain ASCII. */
export function normalizeText(text: string): string {
  return NON_ASCII.test(text) ? text.normalize('NFKC').toLowerCase() : text.toLowerCase();
}

/** Removes accents from a lower-case Latin, Greek or Cyrillic word ("éléphant" → "elephant"); other scripts pass unchanged. */
export function foldAccents(word: string): string {
  if (!NON_ASCII.test(word) || !FOLDABLE.test(word)) return word;
  return word.normalize('NFD').replace(MARKS, '').replace(SPECIAL_RE, (c) => SPECIAL[c]!).normalize('NFC');
}
