import { ibanMod97Valid } from './checksums.js';
import type { Detection } from './types.js';

/**
 * IBAN length per country (SWIFT IBAN registry, release 2024). A candidate must have exactly its country's
 * length and pass mod-97, which together leave about one random string in 10,000 of the right shape.
 */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28, CH: 21, CR: 22,
  CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FK: 18, FO: 18, FR: 27, GB: 22,
  GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30,
  KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27,
  MT: 31, MU: 30, NI: 28, NL: 18, NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, RU: 33,
  SA: 24, SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29,
  VA: 22, VG: 24, XK: 20, YE: 30,
};

/** Country code and check digits, then up to 34 alphanumerics in optional groups separated by single spaces. */
const IBAN_START = /(?<![A-Za-z0-9])([A-Za-z]{2})(\d{2})(?=[ ]?[A-Za-z0-9])/g;

export function findIbans(text: string, out: Detection[]): void {
  IBAN_START.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = IBAN_START.exec(text)) !== null) {
    const country = m[1]!.toUpperCase();
    const expected = IBAN_LENGTHS[country];
    if (expected === undefined) continue;
    // Mixed case inside one IBAN ("De89…") is a word, not an account number.
    if (m[1] !== country && m[1] !== m[1]!.toLowerCase()) continue;
    const end = takeAlnums(text, m.index, expected);
    if (end < 0) continue;
    const compact = text.slice(m.index, end).replace(/ /g, '').toUpperCase();
    if (!ibanMod97Valid(compact)) continue;
    out.push({ start: m.index, end, kind: 'iban' });
    IBAN_START.lastIndex = end;
  }
}

/**
 * End index after exactly `count` alphanumerics from `start`, allowing single spaces between groups of four
 * (the paper format) or none at all; -1 when the text does not hold an IBAN of that length there.
 */
function takeAlnums(text: string, start: number, count: number): number {
  let i = start;
  let taken = 0;
  let spaced = false;
  while (taken < count) {
    if (i >= text.length) return -1;
    const c = text.charCodeAt(i);
    if (c === 32) {
      // A space is only a group separator after a full group of four and before another alphanumeric.
      if (taken % 4 !== 0 || (taken > 4 && !spaced) || i + 1 >= text.length || !isAlnum(text.charCodeAt(i + 1))) return -1;
      spaced = true;
      i++;
      continue;
    }
    if (!isAlnum(c)) return -1;
    if (spaced && taken % 4 === 0 && text.charCodeAt(i - 1) !== 32) return -1;
    taken++;
    i++;
  }
  return i < text.length && isAlnum(text.charCodeAt(i)) ? -1 : i;
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
