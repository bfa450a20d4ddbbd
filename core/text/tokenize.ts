import { foldAccents, normalizeText } from './normalize.js';

// One token is what /\p{N}+(?:[.,]\p{N}+)+|[\p{L}\p{M}\p{N}]+(?:[.'’][\p{L}\p{M}\p{N}]+)*/gu ("TOKEN") matches: a number
// with inner separators ("1,000", "3.5"), or a run of letters, marks and digits with inner dots or apostrophes
// ("x.25", "u.s", "node.js", "l'homme", "don't"). The text is already NFKC + lower case. scanAscii and scanMixed
// implement it by char codes (test/core/text/tokenize.test.ts checks them against the regex).
const ACRONYM = /^(?:\p{L}\.)+\p{L}$/u;
// Scripts written without spaces between words: a run of them is split by Intl.Segmenter (or character bigrams).
export const NO_SPACE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const NON_ASCII = /[^\x00-\x7f]/;
const THOUSANDS = /,(?=\d{3}(?!\d))/g;

type WordSegmenter = { segment(input: string): Iterable<{ segment: string; isWordLike?: boolean }> };
let segmenter: WordSegmenter | null | undefined;

function getSegmenter(): WordSegmenter | null {
  if (segmenter === undefined) {
    const Seg = (Intl as { Segmenter?: new (locale?: string, options?: { granularity: 'word' }) => WordSegmenter }).Segmenter;
    // ICU's dictionary-based word breaking covers Chinese, Japanese, Thai, Lao, Khmer and Burmese whatever the locale.
    segmenter = Seg ? new Seg(undefined, { granularity: 'word' }) : null;
  }
  return segmenter;
}

/**
 * Splits a text into normalised words: NFKC, lower case, accents folded, numbers kept ("1,000" → "1000"),
 * English possessives and French/Italian elisions removed ("l'homme" → "homme"), and languages written
 * without spaces segmented with Intl.Segmenter (character bigrams where it is missing). Never throws.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  forEachWord(text, (w) => { out.push(w); });
  return out;
}

/**
 * {@link tokenize} without the array: calls `emit` with each word in order. With `plain`, a word made only of
 * ASCII letters and digits (most words) is passed instead as a range of the lower-cased text, unallocated:
 * the corpus builder's hot path.
 */
export function forEachWord(text: string, emit: (word: string) => void, plain?: (s: string, start: number, end: number) => void): void {
  const norm = normalizeText(text);
  if (!NON_ASCII.test(norm)) scanAscii(norm, emit, plain);
  else scanMixed(norm, emit, plain);
}

function isAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

// TOKEN's grammar over lower-case ASCII, by char codes: no match objects, which is most of the garbage on
// English pages. Same alternation order as TOKEN: a number with separators first, else a word.
function scanAscii(s: string, emit: (word: string) => void, plain?: (s: string, start: number, end: number) => void): void {
  const n = s.length;
  let i = 0;
  while (i < n) {
    if (!isAlnum(s.charCodeAt(i))) { i++; continue; }
    const start = i;
    let j = isDigit(s.charCodeAt(i)) ? digitsFrom(s, i) : i;
    let simple = true;
    if (j > i && j + 1 < n && (s.charCodeAt(j) === 46 || s.charCodeAt(j) === 44) && isDigit(s.charCodeAt(j + 1))) {
      simple = false;
      while (j + 1 < n && (s.charCodeAt(j) === 46 || s.charCodeAt(j) === 44) && isDigit(s.charCodeAt(j + 1))) j = digitsFrom(s, j + 1);
    } else {
      j = alnumFrom(s, i);
      while (j + 1 < n && (s.charCodeAt(j) === 46 || s.charCodeAt(j) === 39) && isAlnum(s.charCodeAt(j + 1))) { simple = false; j = alnumFrom(s, j + 1); }
    }
    // A word of letters and digits alone is itself (pushWord would return it unchanged).
    if (simple && plain) plain(s, start, j);
    else if (simple) emit(s.slice(start, j));
    else pushWord(emit, s.slice(start, j), true);
    i = j;
  }
}

function digitsFrom(s: string, j: number): number {
  while (j < s.length && isDigit(s.charCodeAt(j))) j++;
  return j;
}
function alnumFrom(s: string, j: number): number {
  while (j < s.length && isAlnum(s.charCodeAt(j))) j++;
  return j;
}

// Sticky runs of TOKEN's classes from one position: [\p{L}\p{M}\p{N}]+ and \p{N}+ (lastIndex: the run's end).
const WORD_RUN = /[\p{L}\p{M}\p{N}]+/uy;
const NUMBER_RUN = /\p{N}+/uy;

/** End of the run of TOKEN's word characters at `j` (`j` itself when none starts there). */
function wordRunEnd(s: string, j: number): number {
  const n = s.length;
  while (j < n) {
    const c = s.charCodeAt(j);
    if (c < 128) {
      if (!isAlnum(c)) return j;
      j++;
    } else {
      WORD_RUN.lastIndex = j;
      return WORD_RUN.test(s) ? WORD_RUN.lastIndex : j;
    }
  }
  return j;
}

/** End of the run of numbers (\p{N}) at `j` (`j` itself when none starts there). */
function numberRunEnd(s: string, j: number): number {
  const n = s.length;
  while (j < n) {
    const c = s.charCodeAt(j);
    if (c < 128) {
      if (!isDigit(c)) return j;
      j++;
    } else {
      NUMBER_RUN.lastIndex = j;
      return NUMBER_RUN.test(s) ? NUMBER_RUN.lastIndex : j;
    }
  }
  return j;
}

// TOKEN's grammar over any normalised text, without match objects: ASCII by char codes, other characters through
// the sticky runs above. Tokens are exactly TOKEN's (a match starts at the first word character, as TOKEN's search
// does, stepping by code point); a token of ASCII letters and digits alone goes to `plain` unallocated, as in
// scanAscii; any other token takes forEachWord's former path (Intl.Segmenter for scripts without spaces).
function scanMixed(s: string, emit: (word: string) => void, plain?: (s: string, start: number, end: number) => void): void {
  const n = s.length;
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    const end = c < 128 ? (isAlnum(c) ? i + 1 : i) : wordRunEnd(s, i);
    if (end === i) {
      // Not a word character: one code point on.
      i += c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
      continue;
    }
    const start = i;
    let j = numberRunEnd(s, i);
    let simple = true;
    if (j > i && j + 1 < n && (s.charCodeAt(j) === 46 || s.charCodeAt(j) === 44) && numberRunEnd(s, j + 1) > j + 1) {
      simple = false;
      while (j + 1 < n && (s.charCodeAt(j) === 46 || s.charCodeAt(j) === 44)) {
        const k = numberRunEnd(s, j + 1);
        if (k === j + 1) break;
        j = k;
      }
    } else {
      j = wordRunEnd(s, i);
      for (;;) {
        const sep = j + 1 < n ? s.charCodeAt(j) : 0;
        if (sep !== 46 && sep !== 39 && sep !== 0x2019) break;
        const k = wordRunEnd(s, j + 1);
        if (k === j + 1) break;
        simple = false;
        j = k;
      }
    }
    let ascii = true;
    for (let k = start; k < j; k++) if (s.charCodeAt(k) >= 128) { ascii = false; break; }
    if (ascii) {
      if (simple && plain) plain(s, start, j);
      else if (simple) emit(s.slice(start, j));
      else pushWord(emit, s.slice(start, j), true);
    } else {
      const raw = s.slice(start, j);
      if (!NO_SPACE.test(raw)) pushWord(emit, raw, false);
      else for (const w of segmentRun(raw)) emit(w);
    }
    i = j;
  }
}

// Intl.Segmenter (ICU's dictionaries, a few hundred ns a character) is most of the cost of a page in Chinese or
// Japanese, and buildCorpus meets the start of a page twice: detectPagesLanguage's sample, then the page itself. The
// words of recent runs are kept, up to this many characters of runs; clearTextCaches empties them.
const MAX_SEGMENTED_CHARS = 50_000;
const segmented = new Map<string, readonly string[]>();
let segmentedChars = 0;

/** Forgets the segmented runs (clearTextCaches). */
export function clearSegmentedRuns(): void {
  segmented.clear();
  segmentedChars = 0;
}

/** The words of a run of a script written without spaces: Intl.Segmenter's (character bigrams where it is missing). */
function segmentRun(raw: string): readonly string[] {
  let words = segmented.get(raw);
  if (words !== undefined) return words;
  const out: string[] = [];
  const add = (w: string): void => { out.push(w); };
  const seg = getSegmenter();
  if (seg) {
    for (const x of seg.segment(raw)) if (x.isWordLike !== false && x.segment.trim() !== '') pushWord(add, x.segment, false);
  } else {
    pushBigrams(add, raw);
  }
  if (segmentedChars + raw.length > MAX_SEGMENTED_CHARS) clearSegmentedRuns();
  segmented.set(raw, out);
  segmentedChars += raw.length;
  return out;
}

function pushWord(emit: (word: string) => void, raw: string, ascii: boolean): void {
  let w = raw;
  const c0 = w.charCodeAt(0);
  if (c0 >= 48 && c0 <= 57 && w.includes(',')) w = w.replace(THOUSANDS, '');
  const straight = w.indexOf("'");
  const curly = w.indexOf('’');
  if (straight >= 0 || curly >= 0) {
    // One apostrophe (either kind) at `at`: "x's" → "x", "l'homme" → "homme"; else the word with straight ones.
    const at = straight < 0 ? curly : curly < 0 ? straight : Math.min(straight, curly);
    const one = w.indexOf("'", at + 1) < 0 && w.indexOf('’', at + 1) < 0;
    const rest = w.length - at - 1;
    if (one && rest === 1 && w.charCodeAt(at + 1) === 115) w = w.slice(0, at);
    else if (one && at <= 2 && rest >= 2) w = w.slice(at + 1);
    else if (curly >= 0) w = w.replace(/’/g, "'");
  } else if (w.includes('.') && ACRONYM.test(w)) {
    w = w.replace(/\./g, ''); // "u.s" → "us", as people also type it
  }
  if (!ascii) w = foldAccents(w);
  if (w !== '') emit(w);
}

// Without Intl.Segmenter, overlapping character bigrams are the standard fallback for CJK search (as in Lucene's CJKAnalyzer).
function pushBigrams(emit: (word: string) => void, run: string): void {
  const chars = Array.from(run);
  let latin = '';
  const flush = (): void => { if (latin) { pushWord(emit, latin, false); latin = ''; } };
  const cjk: string[] = [];
  const flushCjk = (): void => {
    if (cjk.length === 1) emit(cjk[0]!);
    for (let i = 0; i + 1 < cjk.length; i++) emit(cjk[i]! + cjk[i + 1]!);
    cjk.length = 0;
  };
  for (const ch of chars) {
    if (NO_SPACE.test(ch)) { flush(); cjk.push(ch); } else { flushCjk(); latin += ch; }
  }
  flush();
  flushCjk();
}
