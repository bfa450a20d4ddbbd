import { foldAccents, normalizeText } from './normalize.js';

// One token is what /\p{N}+(?:[.,]\p{N}+)+|[\p{L}\p{M}\p{N}]+(?:[.'’][\p{L}\p{M}\p{N}]+)*/gu ("TOKEN") matches: a number
// with inner separators ("1,000", "3.5"), or a run of letters, marks and digits with inner dots or apostrophes
// ("x.25", "u.s", "node.js", "l'homme", "don't"). The text is already NFKC + lower case. forEachWord implements
// it by char codes (test/core/text/tokenize.test.ts checks them against the regex).
const ACRONYM = /^(?:\p{L}\.)+\p{L}$/u;
// Scripts written without spaces between words: a run of them is split by Intl.Segmenter (or character bigrams).
export const NO_SPACE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
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
  const s = normalizeText(text);
  const n = s.length;
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    unicode = false;
    if (c < 128 ? !((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) : runEnd(s, i, WORD_RUN) === i) {
      // Not a word character. (Stepping into a surrogate pair TOKEN's search steps over finds no word either.)
      i++;
      continue;
    }
    const start = i;
    // TOKEN's alternation in order: a number with separators, else a word with inner dots or apostrophes.
    let j = runEnd(s, i, NUMBER_RUN);
    let simple = true;
    if (j > i && isSeparator(s, j, false) && runEnd(s, j + 1, NUMBER_RUN) > j + 1) {
      for (let k; isSeparator(s, j, false) && (k = runEnd(s, j + 1, NUMBER_RUN)) > j + 1;) j = k;
      simple = false;
    } else {
      j = runEnd(s, i, WORD_RUN);
      for (let k; isSeparator(s, j, true) && (k = runEnd(s, j + 1, WORD_RUN)) > j + 1;) { j = k; simple = false; }
    }
    i = j;
    // Without a run of non-ASCII characters the word is ASCII but for a ’, which pushWord drops or straightens: so
    // folding accents cannot change it.
    if (!unicode) {
      // A word of ASCII letters and digits alone is itself (pushWord would return it unchanged).
      if (simple && plain) plain(s, start, j);
      else if (simple) emit(s.slice(start, j));
      else pushWord(emit, s.slice(start, j), true);
    } else {
      const raw = s.slice(start, j);
      if (!NO_SPACE.test(raw)) pushWord(emit, raw, false);
      else for (const w of segmentRun(raw)) emit(w);
    }
  }
}

// TOKEN's grammar by char codes, without match objects (most of the garbage on a page): ASCII by its codes, other
// characters through sticky runs of TOKEN's classes ([\p{L}\p{M}\p{N}]+, \p{N}+; lastIndex: the run's end).
const WORD_RUN = /[\p{L}\p{M}\p{N}]+/uy;
const NUMBER_RUN = /\p{N}+/uy;

/** End of the run of `run`'s characters at `j` (`j` itself when none starts there). */
function runEnd(s: string, j: number, run: RegExp): number {
  for (let c = s.charCodeAt(j); c < 128; c = s.charCodeAt(++j)) {
    // (NaN past the end fails both tests.)
    if (!((c >= 48 && c <= 57) || (run === WORD_RUN && c >= 97 && c <= 122))) return j;
  }
  if (j >= s.length) return j;
  run.lastIndex = j;
  return run.test(s) ? ((unicode = true), run.lastIndex) : j;
}
// Set by runEnd when a run of non-ASCII characters joined the current word.
let unicode = false;

/** A separator inside a token at `j`, followed by a character: . or , in a number; . ' or ’ in a word. */
function isSeparator(s: string, j: number, word: boolean): boolean {
  const c = s.charCodeAt(j);
  return j + 1 < s.length && (c === 46 || (word ? c === 39 || c === 0x2019 : c === 44));
}

// Intl.Segmenter (ICU's dictionaries, a few hundred ns a character) is most of the cost of a page in Chinese or
// Japanese, and buildCorpus meets the start of a page twice: detectPagesLanguage's sample, then the page itself. The
// words of the last thousand runs are kept; clearTextCaches empties them.
const segmented = new Map<string, readonly string[]>();

/** Forgets the segmented runs (clearTextCaches). */
export function clearSegmentedRuns(): void {
  segmented.clear();
}

/** The words of a run of a script written without spaces: Intl.Segmenter's (character bigrams where it is missing). */
function segmentRun(raw: string): readonly string[] {
  let words = segmented.get(raw);
  if (!words) {
    const out: string[] = [];
    const add = (w: string): void => { out.push(w); };
    const seg = getSegmenter();
    if (seg) {
      for (const x of seg.segment(raw)) if (x.isWordLike !== false && x.segment.trim() !== '') pushWord(add, x.segment, false);
    } else {
      pushBigrams(add, raw);
    }
    if (segmented.size >= 1_000) segmented.clear();
    segmented.set(raw, (words = out));
  }
  return words;
}

function pushWord(emit: (word: string) => void, raw: string, ascii: boolean): void {
  let w = raw;
  const c0 = w.charCodeAt(0);
  if (c0 >= 48 && c0 <= 57 && w.includes(',')) w = w.replace(THOUSANDS, '');
  if (w.includes("'") || w.includes('’')) {
    const parts = w.replace(/’/g, "'").split("'");
    if (parts.length === 2 && parts[1] === 's') w = parts[0]!;
    else if (parts.length === 2 && parts[0]!.length <= 2 && parts[1]!.length >= 2) w = parts[1]!;
    else w = parts.join("'");
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
