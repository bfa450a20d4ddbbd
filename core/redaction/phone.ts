import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { CONTEXT_AFTER, CONTEXT_BEFORE, isPhoneShaped, phoneCandidates, type PhoneCandidate } from './phone-candidates.js';
import type { Detection, Finder } from './types.js';

/**
 * Phone numbers, validated with libphonenumber-js and its smallest ("min") metadata, which holds every region's
 * number lengths and leading-digit patterns (docs/redaction.md compares min, mobile and max: min finds as many
 * numbers at about half the size of max). Loaded lazily (loadRedactor) so the SDK's main bundle stays small.
 *
 * A national number (no country code) is masked when it is valid in one of the regions and something says it is a
 * phone: its layout (phone-candidates.ts), a phone word nearby, its national trunk prefix, or a phone next to it.
 */

/** Regions tried for numbers written without a country code, in order (default: large markets on several continents). */
export const DEFAULT_PHONE_REGIONS: readonly CountryCode[] = [
  'US', 'GB', 'DE', 'FR', 'IT', 'ES', 'NL', 'BE', 'CH', 'AT', 'SE', 'DK', 'NO', 'FI', 'PL', 'PT', 'IE', 'CZ', 'HU',
  'AU', 'NZ', 'CA', 'MX', 'BR', 'AR', 'IN', 'JP', 'CN', 'TW', 'KR', 'ZA', 'RU', 'TR',
];

/**
 * Most libphonenumber-js parses per `redact` call (default 20,000, about 0.1 s). Only adversarial text has more
 * phone-shaped numbers than that; past the budget, shapes that are phone-like by layout and context are masked
 * without validation (over-masking rather than leaking).
 */
export const MAX_PHONE_PARSES = 20_000;

/** libphonenumber-js's parse function; any metadata flavour (min, mobile, max) has this shape. */
export type ParsePhone = typeof parsePhoneNumberFromString;

export interface PhoneFinderOptions {
  /** Regions for national-format numbers (default DEFAULT_PHONE_REGIONS); the page's own region first is fastest. */
  readonly regions?: readonly CountryCode[];
  /** Parser to validate with (default: libphonenumber-js/min); the benchmark passes /max and /mobile to compare. */
  readonly parse?: ParsePhone;
  /** Parse budget per call (default MAX_PHONE_PARSES). */
  readonly maxParses?: number;
  /** Whether phone words count (default true); false measures the other signals alone (scripts/eval/experiments). */
  readonly phoneWords?: boolean;
}

/** Builds a phone finder; `findPhones` is the one with default regions. */
export function createPhoneFinder(options: PhoneFinderOptions = {}): Finder {
  const regions = options.regions ?? DEFAULT_PHONE_REGIONS;
  const parse = options.parse ?? parsePhoneNumberFromString;
  const maxParses = options.maxParses ?? MAX_PHONE_PARSES;
  const phoneWords = options.phoneWords ?? true;
  return (text: string, out: Detection[]) => {
    const international = new Map<string, boolean>();
    const national = new Map<string, boolean>();
    const trunk = new Map<string, boolean>();
    const budget = { parses: maxParses };
    const verdict = (c: PhoneCandidate, withTrunk: boolean): boolean => {
      const cache = withTrunk ? trunk : national;
      let v = cache.get(c.normalized);
      if (v === undefined) {
        v = nationalValid(c, regions, parse, budget, withTrunk);
        cache.set(c.normalized, v);
      }
      return v;
    };
    const found: Detection[] = [];
    /** Valid-looking national numbers with no signal of their own, decided by their neighbours afterwards. */
    let unsignalled: PhoneCandidate[] | null = null;
    for (const c of phoneCandidates(text)) {
      if (!isPhoneShaped(c)) continue;
      let valid: boolean;
      if (budget.parses <= 0) {
        valid = c.international || (c.formatted && phoneWords && c.context);
      } else if (c.international) {
        const key = c.normalized;
        let v = international.get(key);
        if (v === undefined) {
          v = internationalValid(c, parse, budget);
          international.set(key, v);
        }
        valid = v;
      } else if (c.formatted || (phoneWords && c.context)) {
        valid = verdict(c, false);
      } else if (trunkWritten(c)) {
        valid = verdict(c, true);
      } else {
        (unsignalled ??= []).push(c);
        continue;
      }
      if (valid) found.push({ start: c.start, end: c.end, kind: 'phone' });
    }
    if (unsignalled !== null && found.length > 0) {
      // Contact blocks list several numbers ("Mobile: …, office …, fax …"): a valid number with a phone beside it
      // (within the phone-word windows) is one too, whatever its label.
      const phones = found.slice();
      for (const c of unsignalled) {
        if (budget.parses <= 0 || !nextToPhone(c, phones)) continue;
        if (verdict(c, false)) found.push({ start: c.start, end: c.end, kind: 'phone' });
      }
    }
    for (const d of found) out.push(d);
  };
}

/** Phone finder with the default regions. */
export const findPhones: Finder = createPhoneFinder();

function internationalValid(c: PhoneCandidate, parse: ParsePhone, budget: { parses: number }): boolean {
  // Any possible number behind an explicit country code: '+' and a real calling code are a strong signal already.
  budget.parses--;
  const n = parse(c.normalized, { extract: false });
  return n !== undefined && n.isPossible();
}

/**
 * Written with a national trunk prefix: one '0', then the number (030 …, 0161 …, 06 …, 0937-…). Quantities and
 * years never start with 0, so a valid number written this way is a phone by its numbering plan alone. Without a
 * separator, only at the length of a mobile number in 0-prefix plans (10 or 11 digits: 06…, 07…, 09…): a bare run
 * of another length is as often an identifier (an all-digit commit hash, a card or account number).
 */
function trunkWritten(c: PhoneCandidate): boolean {
  const s = c.normalized;
  return s.charCodeAt(0) === 48 && /^0[1-9]/.test(s) && (/\D/.test(s) || s.length === 10 || s.length === 11);
}

/** Valid in one of the regions; with `withTrunk`, valid in one whose trunk prefix is the leading 0 as written. */
function nationalValid(c: PhoneCandidate, regions: readonly CountryCode[], parse: ParsePhone, budget: { parses: number }, withTrunk: boolean): boolean {
  const national = withTrunk ? c.normalized.replace(/\D/g, '').slice(1) : '';
  for (const region of regions) {
    budget.parses--;
    const n = parse(c.normalized, { defaultCountry: region, extract: false });
    // With a trunk prefix, the region must have read it off the front: its national number is the digits after it.
    if (n !== undefined && n.isValid() && (!withTrunk || n.nationalNumber === national)) return true;
  }
  return false;
}

/** A detected phone ends at most CONTEXT_BEFORE characters before `c` or starts at most CONTEXT_AFTER after it. */
function nextToPhone(c: PhoneCandidate, phones: readonly Detection[]): boolean {
  for (const p of phones) {
    if (p.end <= c.start && c.start - p.end <= CONTEXT_BEFORE) return true;
    if (p.start >= c.end && p.start - c.end <= CONTEXT_AFTER) return true;
  }
  return false;
}
