import { luhnValid } from './checksums.js';
import type { Detection } from './types.js';

/**
 * Payment cards: 12–19 digits, optionally grouped by single spaces or dashes, Luhn-valid, with an issuer prefix
 * that exists for that length (ISO/IEC 7812 ranges as listed for Visa, Mastercard, Amex, Discover, JCB, Diners,
 * UnionPay, Maestro, Mir, RuPay, UATP). Each digit of the run is matched once, so the scan cannot backtrack.
 */
const DIGIT_RUN = /\d(?:[ -]?\d)+/g;
/** 12- and 13-digit numbers (Maestro, old Visa) collide with barcodes and order ids: they need a card word nearby, */
/** as do numbers written as a parameter value (`?id=…`), which are nearly always ids. */
const SHORT_CARD_CONTEXT = /(?:card|cc|credit|debit|visa|master|maestro|amex|payment|kort|karte|carte|tarjeta|cart[aã]o)/i;
/** How many characters before such a number are searched for SHORT_CARD_CONTEXT (default 48). */
export const SHORT_CARD_CONTEXT_CHARS = 48;

export function findCards(text: string, out: Detection[]): void {
  DIGIT_RUN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DIGIT_RUN.exec(text)) !== null) {
    const run = m[0];
    if (run.length < 12) continue;
    const start = m.index;
    const len = cardPrefixLength(run);
    if (len === 0 || !isolated(text, start, start + len)) continue;
    // Short numbers and numbers that are a URL or form parameter (`?id=6871…`) need a card word nearby.
    const parameter = start > 0 && '=?&#/'.includes(text[start - 1]!);
    if ((parameter || len - countSeparators(run, len) <= 13) && !SHORT_CARD_CONTEXT.test(text.slice(Math.max(0, start - SHORT_CARD_CONTEXT_CHARS), start))) continue;
    out.push({ start, end: start + len, kind: 'card' });
  }
}

/**
 * Length of the longest prefix of a digit run, ending at a group boundary, that is a valid card; 0 if none.
 * Prefixes matter because a card is often followed by its expiry or CVV ("4111 1111 1111 1111 12/27").
 */
function cardPrefixLength(run: string): number {
  // Only the first 19 digits can belong to a card: start from the group boundary after them (bounded work on
  // a megabyte-long digit run).
  let end = run.length;
  for (let i = 0, digits = 0; i < run.length; i++) {
    if (run[i] !== ' ' && run[i] !== '-' && ++digits > 19) {
      end = lastSeparatorBefore(run, i);
      break;
    }
  }
  for (; end >= 12; end = lastSeparatorBefore(run, end)) {
    const part = run.slice(0, end);
    const digits = part.replace(/[ -]/g, '');
    if (digits.length >= 12 && digits.length <= 19 && groupingLooksLikeCard(part, digits.length) && issuerFits(digits) && luhnValid(digits)) return end;
    if (digits.length < 12) break;
  }
  return 0;
}

function lastSeparatorBefore(run: string, end: number): number {
  for (let i = end - 1; i > 0; i--) if (run[i] === ' ' || run[i] === '-') return i;
  return 0;
}

function countSeparators(run: string, end: number): number {
  let n = 0;
  for (let i = 0; i < end; i++) if (run[i] === ' ' || run[i] === '-') n++;
  return n;
}

/** Not glued to letters, decimals or identifiers (e.g. `v1.4111…`, `ID-4111…`, `…1111/x`); a prefix of a run is followed by its separator. */
function isolated(text: string, start: number, end: number): boolean {
  const before = start > 0 ? text.charCodeAt(start - 1) : 32;
  const after = end < text.length ? text.charCodeAt(end) : 32;
  if (isWordish(before) || before === 46 /* . */ || before === 44 /* , */ || before === 45 /* - */ || before === 47 /* / */) return false;
  if (isWordish(after) || after === 47) return false;
  if (after === 45 && end + 1 < text.length && !isDigit(text.charCodeAt(end + 1))) return false; // "…1111-abc"

  // A decimal or thousands continuation after the run ("…1111.50", "…1111,5") is a number, not a card.
  if ((after === 46 || after === 44) && end + 1 < text.length && isDigit(text.charCodeAt(end + 1))) return false;
  return true;
}

/** Unseparated, all groups of four (last shorter allowed), or the Amex/Diners 4-6-5 / 4-6-4 layout; one separator kind. */
function groupingLooksLikeCard(run: string, nDigits: number): boolean {
  if (run.length === nDigits) return true;
  if (run.includes(' ') && run.includes('-')) return false;
  const groups = run.split(/[ -]/);
  const lens = groups.map((g) => g.length);
  if (lens.length === 3 && lens[0] === 4 && lens[1] === 6 && (lens[2] === 5 || lens[2] === 4)) return true;
  for (let i = 0; i < lens.length - 1; i++) if (lens[i] !== 4) return false;
  const last = lens[lens.length - 1]!;
  return last >= 1 && last <= 4;
}

function issuerFits(d: string): boolean {
  const n = d.length;
  const p2 = +d.slice(0, 2);
  const p4 = +d.slice(0, 4);
  const maestro = p2 === 50 || (p2 >= 56 && p2 <= 69);
  switch (d[0]) {
    case '4': return n >= 13; // Visa 13, 16, 19
    case '5': return (p2 >= 51 && p2 <= 55 && n === 16) || maestro;
    case '6': return maestro || n >= 16; // Discover, UnionPay, RuPay, Maestro
    case '3': return (p2 === 34 || p2 === 37) ? n === 15 : (p2 === 30 || p2 === 36 || p2 === 38 || p2 === 39) ? n >= 14 : p2 === 35 && n >= 16;
    case '2': return (p4 >= 2221 && p4 <= 2720 && n === 16) || (p4 >= 2200 && p4 <= 2204 && n >= 16) || (p4 === 2131 && n === 15);
    case '1': return n === 15; // UATP, JCB 1800
    default: return false;
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isWordish(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
