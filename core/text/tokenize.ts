import { foldAccents, normalizeText } from './normalize.js';

// One token: a number with inner separators ("1,000", "3.5"), or a run of letters, marks and digits with inner
// dots or apostrophes ("x.25", "u.s", "node.js", "l'homme", "don't"). The text is already NFKC + lower case.
const TOKEN = /\p{N}+(?:[.,]\p{N}+)+|[\p{L}\p{M}\p{N}]+(?:[.'’][\p{L}\p{M}\p{N}]+)*/gu;
const ACRONYM = /^(?:\p{L}\.)+\p{L}$/u;
// Scripts written without spaces between words: a run of them is split by Intl.Segmenter (or character bigrams).
const NO_SPACE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
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
  const norm = normalizeText(text);
  const ascii = !NON_ASCII.test(norm);
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(norm); m !== null; m = TOKEN.exec(norm)) {
    const raw = m[0];
    if (ascii || !NO_SPACE.test(raw)) {
      pushWord(out, raw, ascii);
      continue;
    }
    const seg = getSegmenter();
    if (seg) {
      for (const s of seg.segment(raw)) if (s.isWordLike !== false && s.segment.trim() !== '') pushWord(out, s.segment, false);
    } else {
      pushBigrams(out, raw);
    }
  }
  return out;
}

function pushWord(out: string[], raw: string, ascii: boolean): void {
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
  if (w !== '') out.push(w);
}

// Without Intl.Segmenter, overlapping character bigrams are the standard fallback for CJK search (as in Lucene's CJKAnalyzer).
function pushBigrams(out: string[], run: string): void {
  const chars = Array.from(run);
  let latin = '';
  const flush = (): void => { if (latin) { pushWord(out, latin, false); latin = ''; } };
  const cjk: string[] = [];
  const flushCjk = (): void => {
    if (cjk.length === 1) out.push(cjk[0]!);
    for (let i = 0; i + 1 < cjk.length; i++) out.push(cjk[i]! + cjk[i + 1]!);
    cjk.length = 0;
  };
  for (const ch of chars) {
    if (NO_SPACE.test(ch)) { flush(); cjk.push(ch); } else { flushCjk(); latin += ch; }
  }
  flush();
  flushCjk();
}
