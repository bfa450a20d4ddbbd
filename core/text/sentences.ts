/**
 * Sentence splitting for extracted page text. Rule-based, like Lucene's and Punkt's simpler cousins: a
 * terminator (. ! ? … or the CJK 。！？) followed by space ends a sentence unless it closes a known abbreviation
 * or an initial, or the next word starts in lower case. Line breaks always end a sentence (headings, list items).
 */

// Lower-case, without the final dot. "no" and "st" are common enough in prose ("No. 5", "St. Peter") to keep.
const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'mt', 'ft', 'vs', 'etc', 'e.g', 'i.e', 'eg', 'ie', 'cf', 'ca', 'approx',
  'no', 'nos', 'nr', 'fig', 'figs', 'vol', 'vols', 'pp', 'p', 'ed', 'eds', 'al', 'inc', 'ltd', 'co', 'corp', 'gen', 'gov',
  'col', 'lt', 'sgt', 'capt', 'cmdr', 'adm', 'rev', 'hon', 'pres', 'sen', 'rep', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul',
  'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'u.s', 'u.k', 'u.n', 'a.m', 'p.m', 'est', 'dept', 'univ', 'assn', 'bros',
  'mme', 'mlle', 'm', 'bzw', 'z.b', 'usw', 'ggf', 'sra', 'sr', 'dra', 'av', 'art', 'op', 'ch', 'sec', 'min', 'max',
]);

const TERMINATOR = /([.!?…]+|[。！？]+)(["'”’»)\]]*)(\s+|$)|([。！？]+[」』”’)]*)/g;
const LOWER_START = /^\p{Ll}/u;
const WORD_BEFORE = /([\p{L}.]+)$/u;

/** Splits one text into trimmed, non-empty sentences, in order. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    const l = line.trim();
    if (l !== '') splitLine(l, out);
  }
  return out;
}

function splitLine(line: string, out: string[]): void {
  let start = 0;
  TERMINATOR.lastIndex = 0;
  for (let m = TERMINATOR.exec(line); m !== null; m = TERMINATOR.exec(line)) {
    const end = m.index + m[0].length;
    if (end >= line.length) break;
    if (m[1] === '.' && !m[2] && !isBoundaryAfterDot(line, m.index, end)) continue;
    if (m[1] !== undefined && m[1] !== '.' && !m[1].includes('.') && LOWER_START.test(line.slice(end, end + 1)) && !/[。！？]/.test(m[1])) {
      // "?" or "!" followed by lower case is mid-sentence ("Yahoo! is…", "What? he asked").
      continue;
    }
    const s = line.slice(start, end).trim();
    if (s !== '') out.push(s);
    start = end;
  }
  const rest = line.slice(start).trim();
  if (rest !== '') out.push(rest);
}

function isBoundaryAfterDot(line: string, dot: number, next: number): boolean {
  const n = line.charCodeAt(next);
  if (n >= 97 && n <= 122) return false; // lower-case ASCII: a continuation
  if (n > 127 && LOWER_START.test(line.slice(next, next + 1))) return false;
  // The word before the dot, by char codes for ASCII letters (the common case), else by regex.
  let i = dot;
  while (i > 0 && dot - i < 20) {
    const c = line.charCodeAt(i - 1);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 46) i--;
    else break;
  }
  let raw = line.slice(i, dot);
  if (i > 0 && line.charCodeAt(i - 1) > 127) {
    const before = WORD_BEFORE.exec(line.slice(Math.max(0, dot - 20), dot));
    raw = before ? before[1]! : '';
  }
  if (raw === '') return true;
  if (ABBREVIATIONS.has(raw.toLowerCase())) return false;
  // A single capital letter before the dot is an initial ("J. R. R. Tolkien"), not a sentence end.
  if (raw.length === 1 && /\p{Lu}/u.test(raw)) return false;
  return true;
}
