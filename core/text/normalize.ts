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
  if (!NON_ASCII.test(word)) return word;
  return foldLatin(word) ?? (FOLDABLE.test(word) ? foldWord(word) : word);
}

function foldWord(word: string): string {
  return word.normalize('NFD').replace(MARKS, '').replace(SPECIAL_RE, (c) => SPECIAL[c]!).normalize('NFC');
}

// By character, for the letters of Latin-1 and Latin Extended-A/B (most accented words of the Latin languages): the
// fold of each letter alone, kept when it is plain ASCII. A word of ASCII letters, digits, ' and . and such letters
// folds to the concatenation (each letter's decomposition starts with its base letter, so nothing reorders or
// recomposes across letters); any other word takes foldWord.
const LATIN_FROM = 0xc0;
const LATIN_TO = 0x24f;
let latinFolds: (string | null)[] | undefined;

function foldLatin(word: string): string | null {
  let out = '';
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 128) {
      if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 39 || c === 46)) return null;
      out += word[i];
    } else if (c >= LATIN_FROM && c <= LATIN_TO) {
      latinFolds ??= new Array<string | null>(LATIN_TO - LATIN_FROM + 1);
      let f = latinFolds[c - LATIN_FROM];
      if (f === undefined) {
        const ch = String.fromCharCode(c);
        const folded = FOLDABLE.test(ch) ? foldWord(ch) : '';
        f = folded !== '' && !NON_ASCII.test(folded) ? folded : null;
        latinFolds[c - LATIN_FROM] = f;
      }
      if (f === null) return null;
      out += f;
    } else {
      return null;
    }
  }
  return out;
}
