/**
 * Phone-number candidates: runs of digits with the separators phones are written with, cheap to find, then
 * filtered by shape before libphonenumber-js sees them. Kept apart from phone.ts so the shape rules are plain
 * functions testable without the metadata.
 */

export interface PhoneCandidate {
  readonly start: number;
  readonly end: number;
  /** The text given to libphonenumber-js: IDD prefixes (00, 011) turned into '+', the "(0)" trunk hint removed. */
  readonly normalized: string;
  /** Written with a country code (+, 00 or 011). */
  readonly international: boolean;
  /** Laid out the way phones are (3+ groups, or a parenthesised area code) and not like a grouped quantity. */
  readonly formatted: boolean;
  /** A phone word (phone, tel, fax, mobile, call, …) is within CONTEXT_BEFORE/CONTEXT_AFTER characters (computed on first use). */
  readonly context: boolean;
  /** The digit groups as written, without an extension ("030 901820" → ["030", "901820"]). */
  readonly groups: readonly string[];
  /** Preceded by an "ISBN" label. */
  readonly isbnLabel: boolean;
  readonly raw: string;
}

const CANDIDATE = /(?<![\w+.\-/()])(?:\+|\(\+?)?\d[\d ().\-\u00a0]{4,24}\d(?:[ \u00a0]?(?:x|ext\.?|#)[ \u00a0]?\d{1,6})?(?![\w/%]|[-.,:]?[\dXx]|[ \u00a0]\d)/g;
/** Characters searched for a phone word before and after a candidate (defaults 40 and 16). */
export const CONTEXT_BEFORE = 40;
export const CONTEXT_AFTER = 16;
const PHONE_WORD = /(?:^|[^a-zà-ÿ])(?:phone|ph|tel|telephone|mobile|mob|cell|cellphone|fax|call|calls|contact|sms|text|messages?|whatsapp|dial|hotline|helpline|t[ée]l[ée]phone|t[ée]l|telefon|tel[ée]fono|handy|m[óo]vil|portable|fixe)(?![a-zà-ÿ])|電話|电话|手機|手机|携帯|傳真|传真/i;
const EXTENSION = /[ \u00a0]?(?:x|ext\.?|#)[ \u00a0]?\d{1,6}$/;

/** Sticky copy of CANDIDATE, to re-read the part of a match before a column gap. */
const CANDIDATE_AT = new RegExp(CANDIDATE.source, 'y');
/** A run of separators that no phone has inside it (table columns, "606  0049 …"); " - " is a phone separator. */
const GAP = /[ \u00a0.\-]{2,}/g;

/** Yields every candidate in `text`, left to right. */
export function* phoneCandidates(text: string): Generator<PhoneCandidate> {
  CANDIDATE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CANDIDATE.exec(text)) !== null) {
    let raw = m[0];
    const start = m.index;
    // A digit run with a column gap in it is several numbers side by side, not one: the part before the gap is a
    // candidate of its own and the scan resumes after the gap, so a rejected run never hides the phone next to it.
    const gap = columnGap(raw);
    if (gap !== null) {
      CANDIDATE.lastIndex = start + gap[1];
      CANDIDATE_AT.lastIndex = start;
      const head = CANDIDATE_AT.exec(text.slice(0, start + gap[0]));
      if (head === null) continue;
      raw = head[0];
    }
    const end = start + raw.length;
    // "2,111.72": the tail of a number with a thousands separator.
    if (start > 1 && text[start - 1] === ',' && /\d/.test(text[start - 2]!)) continue;
    const international = /^\(?\+/.test(raw) || /^(?:00|011)[1-9]/.test(raw);
    const body = raw.replace(EXTENSION, '');
    const groups = body.split(/[ .\-()\u00a0]+/).filter((g) => g.length > 0);
    const thousands = /^\d{1,3}(?:[ .\u00a0]\d{3})+$/.test(body);
    const formatted = !thousands && (groups.length >= 3 || /^\(\d{1,5}\)/.test(body));
    let normalized = raw;
    if (international) normalized = raw.replace(/^\((\+?)/, '$1').replace(/^(?:00|011)/, '+').replace(/\(0\)/, '');
    const isbnLabel = /ISBN(?:-1[03])?[\s:\u00a0]*$/i.test(text.slice(Math.max(0, start - 16), start));
    let context: boolean | undefined;
    yield {
      start, end, raw, normalized, international, formatted, isbnLabel, groups,
      get context() {
        // Lazy: most candidates are decided by their layout alone, and this search is the costliest check.
        context ??= PHONE_WORD.test(text.slice(Math.max(0, start - CONTEXT_BEFORE), start) + ' ' + text.slice(end, end + CONTEXT_AFTER));
        return context;
      },
    };
    if (end > CANDIDATE.lastIndex) CANDIDATE.lastIndex = end;
  }
}

/** [start, end) of the first column gap in a candidate (outside a trailing extension), or null. */
function columnGap(raw: string): [number, number] | null {
  const body = raw.replace(EXTENSION, '');
  GAP.lastIndex = 0;
  let g: RegExpExecArray | null;
  while ((g = GAP.exec(body)) !== null) if (g[0] !== ' - ') return [g.index, g.index + g[0].length];
  return null;
}

/** Rejects digit runs that are something else: dates, year ranges, decimals, IP addresses, ISBNs, formulas. */
export function isPhoneShaped(c: PhoneCandidate): boolean {
  const raw = c.raw;
  const body = raw.replace(EXTENSION, '');
  const digits = body.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return false;
  if (/^\(?(?:1[5-9]|20)\d\d ?[-./] ?(?:(?:1[5-9]|20)?\d\d)\)?$/.test(body)) return false; // 1985-1995
  if (/^\(?(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{4})(?!\d)/.test(body)) return false; // dates
  if (/^\d+\.\d+$/.test(body)) return false;
  if (/(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?!\d)/.test(body)) return false; // an ISO date inside ("1.0.0 - 2016-01-07")
  if (/^\d{1,3}\.\d{1,3}\.\d{1,3}[ \u00a0]/.test(body)) return false; // a version, then more ("0.95.15 - 22 December")
  if (!c.international && /^\d{13,}$/.test(body)) return false; // 13+ digits in one run: ids and millisecond timestamps
  if ((body.match(/(?:^|\D)\d(?=\D|$)/g)?.length ?? 0) >= 3) return false; // three one-digit groups: sequences ("1 2 3 4 5 6 7")
  if (/^\d{3,4}-\d{2}-\d{4}$/.test(body)) return false; // US SSN / licence layout, never a phone's
  // Phones use one separator between groups; runs of spaces or dots are table columns, times and lists.
  const seps = body.match(/[ \u00a0.\-]{2,}/g);
  if (seps !== null && seps.some((sep) => sep !== ' - ')) return false;
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(body)) return false; // IPv4
  if (!parenthesesFit(body, c.international)) return false;
  if (c.isbnLabel || isbnLike(body)) return false;
  return true;
}

/**
 * '(' only opens an area code — at the start, or right after the country code of an international number
 * ("+1 (415) …", "+41 (0)38 …") — and every one is closed.
 */
function parenthesesFit(body: string, international: boolean): boolean {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '(') {
      const afterCountryCode = international && /^\+?\d{1,3}[ \u00a0-]?$/.test(body.slice(0, i));
      if (depth > 0 || (i > 0 && !afterCountryCode && !(i === 1 && body[0] === '+'))) return false;
      depth++;
    } else if (ch === ')') {
      if (depth === 0) return false;
      depth--;
    }
  }
  return depth === 0;
}

/** Hyphenated ISBN-10/13 — four or five groups, the last one the check digit — with a valid check digit. */
function isbnLike(body: string): boolean {
  const groups = body.split('-');
  if (groups.length < 4 || groups.length > 5 || groups[groups.length - 1]!.length !== 1) return false;
  const d = groups.join('');
  if (d.length === 10) {
    let sum = 0;
    for (let i = 0; i < 10; i++) sum += (10 - i) * (d[i] === 'X' ? 10 : +d[i]!);
    return sum % 11 === 0;
  }
  if (d.length === 13 && /^97[89]/.test(d)) {
    let sum = 0;
    for (let i = 0; i < 13; i++) sum += (i % 2 ? 3 : 1) * +d[i]!;
    return sum % 10 === 0;
  }
  return false;
}
