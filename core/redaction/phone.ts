import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { isPhoneShaped, phoneCandidates, type PhoneCandidate } from './phone-candidates.js';
import { digitsOf, groupLengths, mayBePrintedAs, mayBeValid } from './phone-precheck.js';
import type { Detection, Finder } from './types.js';

/**
 * Phone numbers, validated with libphonenumber-js and its full ("max") metadata: every region's lengths, leading
 * digits and national formats, and the number patterns of each type (fixed line, mobile, toll-free, …). The type
 * patterns are what lets a number's own grouping count as a phone layout (`planLayout`); "min" accepts most digit
 * strings of the right length somewhere (docs/redaction.md, "Metadata flavour"). Loaded lazily (loadRedactor) so the
 * SDK's main bundle holds none of it.
 */

/** Regions tried for numbers written without a country code, in order (default: large markets on several continents). */
export const DEFAULT_PHONE_REGIONS: readonly CountryCode[] = [
  'US', 'GB', 'DE', 'FR', 'IT', 'ES', 'NL', 'BE', 'CH', 'AT', 'SE', 'DK', 'NO', 'FI', 'PL', 'PT', 'IE', 'CZ', 'HU',
  'AU', 'NZ', 'CA', 'MX', 'BR', 'AR', 'IN', 'JP', 'CN', 'TW', 'KR', 'ZA', 'RU', 'TR',
];

/**
 * Most region checks per `redact` call (default 20,000, about 0.1 s if each were a libphonenumber-js parse): one per
 * region a national number is tried in, or per international number. A region the metadata pre-check rules out
 * (`mayBeValid`, `mayBePrintedAs`) counts too, so the budget runs out where it did before the pre-check existed.
 * Only adversarial text has more phone-shaped numbers than that; past the budget, shapes that are phone-like by
 * layout and context are masked without validation (over-masking rather than leaking).
 */
export const MAX_PHONE_PARSES = 20_000;

/** libphonenumber-js's parse function; any metadata flavour (min, mobile, max) has this shape. */
export type ParsePhone = typeof parsePhoneNumberFromString;

export interface PhoneFinderOptions {
  /** Regions for national-format numbers (default DEFAULT_PHONE_REGIONS); the page's own region first is fastest. */
  readonly regions?: readonly CountryCode[];
  /**
   * Parser to validate with (default: libphonenumber-js/max); the benchmark passes /min and /mobile to compare. The
   * metadata pre-check runs only with the default, whose metadata it reads.
   */
  readonly parse?: ParsePhone;
  /** Region-check budget per call (default MAX_PHONE_PARSES). */
  readonly maxParses?: number;
  /** Whether phone words count (default true); false measures the layout rules alone (scripts/eval/experiments). */
  readonly phoneWords?: boolean;
  /**
   * Whether a national number written in two or more groups counts without a phone word when its grouping is the one
   * its number plan prints (libphonenumber's national format for a region where it is valid: `737 219 628` in
   * Czechia, `0341 8387176` in Germany) — default true. A quantity's thousands grouping matches such a format only by
   * coincidence, and the parser's type patterns (max metadata) must accept the number too.
   */
  readonly planLayout?: boolean;
}

/** Builds a phone finder; `findPhones` is the one with default regions. */
export function createPhoneFinder(options: PhoneFinderOptions = {}): Finder {
  const regions = options.regions ?? DEFAULT_PHONE_REGIONS;
  const parse = options.parse ?? parsePhoneNumberFromString;
  const maxParses = options.maxParses ?? MAX_PHONE_PARSES;
  const phoneWords = options.phoneWords ?? true;
  const planLayout = options.planLayout ?? true;
  const precheck = options.parse === undefined;
  return (text: string, out: Detection[]) => {
    const verdicts = new Map<string, boolean>();
    const budget = { parses: maxParses };
    for (const c of phoneCandidates(text)) {
      if (!isPhoneShaped(c)) continue;
      // Without a phone word nearby, only number layouts typical of phones count (see phone-candidates.ts). This is
      // decided per occurrence: the same number may stand in a table here and after "Tel:" there.
      const byLayoutOrWord = c.international || c.formatted || (phoneWords && c.context);
      if (!byLayoutOrWord && !(planLayout && c.groups.length >= 2)) continue;
      if (budget.parses <= 0) {
        if (c.international || (c.formatted && phoneWords && c.context)) out.push({ start: c.start, end: c.end, kind: 'phone' });
        continue;
      }
      if (!byLayoutOrWord) {
        const key = '~' + c.groups.join(' ');
        let planned = verdicts.get(key);
        if (planned === undefined) {
          planned = printedAsPlanned(c, regions, parse, budget, precheck);
          verdicts.set(key, planned);
        }
        if (planned) out.push({ start: c.start, end: c.end, kind: 'phone' });
        continue;
      }
      const key = (c.international ? '+' : '') + c.normalized;
      let valid = verdicts.get(key);
      if (valid === undefined) {
        valid = c.international ? internationalValid(c, parse, budget) : nationalValid(c, regions, parse, budget, precheck);
        verdicts.set(key, valid);
      }
      if (valid) out.push({ start: c.start, end: c.end, kind: 'phone' });
    }
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

function nationalValid(c: PhoneCandidate, regions: readonly CountryCode[], parse: ParsePhone, budget: { parses: number }, precheck: boolean): boolean {
  const digits = precheck ? digitsOf(c) : undefined;
  for (const region of regions) {
    budget.parses--;
    if (digits !== undefined && !mayBeValid(digits, region)) continue;
    const n = parse(c.normalized, { defaultCountry: region, extract: false });
    if (n !== undefined && n.isValid()) return true;
  }
  return false;
}

/** Valid in some region whose national format groups the digits exactly as written ("737 219 628" ↔ "737 219 628"). */
function printedAsPlanned(c: PhoneCandidate, regions: readonly CountryCode[], parse: ParsePhone, budget: { parses: number }, precheck: boolean): boolean {
  const written = c.groups.map((g) => g.length).join(' ');
  const digits = precheck ? digitsOf(c) : undefined;
  for (const region of regions) {
    budget.parses--;
    if (digits !== undefined && !mayBePrintedAs(digits, region, written)) continue;
    const n = parse(c.normalized, { defaultCountry: region, extract: false });
    if (n === undefined || !n.isValid()) continue;
    if (groupLengths(n.formatNational()) === written) return true;
  }
  return false;
}
