import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { isPhoneShaped, phoneCandidates, type PhoneCandidate } from './phone-candidates.js';
import type { Detection, Finder } from './types.js';

/**
 * Phone numbers, validated with libphonenumber-js and its smallest ("min") metadata, which holds every region's
 * number lengths and leading-digit patterns (measured in docs/redaction.md: it finds as many numbers as "max",
 * at about half the size). This module is loaded lazily (loadRedactor) so the SDK's main bundle stays small.
 */

/** Regions tried for numbers written without a country code, in order (default: large markets on several continents). */
export const DEFAULT_PHONE_REGIONS: readonly CountryCode[] = [
  'US', 'GB', 'DE', 'FR', 'IT', 'ES', 'NL', 'BE', 'CH', 'AT', 'SE', 'DK', 'NO', 'FI', 'PL', 'PT', 'IE', 'CZ', 'HU',
  'AU', 'NZ', 'CA', 'MX', 'BR', 'AR', 'IN', 'JP', 'CN', 'TW', 'KR', 'ZA', 'RU', 'TR',
];

export interface PhoneFinderOptions {
  /** Regions for national-format numbers (default DEFAULT_PHONE_REGIONS); a page's own region first is fastest. */
  readonly regions?: readonly CountryCode[];
}

/** Builds a phone finder; `findPhones` is the one with default regions. */
export function createPhoneFinder(options: PhoneFinderOptions = {}): Finder {
  const regions = options.regions ?? DEFAULT_PHONE_REGIONS;
  return (text: string, out: Detection[]) => {
    for (const c of phoneCandidates(text)) {
      if (!isPhoneShaped(c)) continue;
      if (c.international ? internationalValid(c) : nationalValid(c, regions)) out.push({ start: c.start, end: c.end, kind: 'phone' });
    }
  };
}

/** Phone finder with the default regions. */
export const findPhones: Finder = createPhoneFinder();

function internationalValid(c: PhoneCandidate): boolean {
  // Any possible number behind an explicit country code: "+" plus a real calling code is a strong signal already.
  const n = parsePhoneNumberFromString(c.normalized, { extract: false });
  return n !== undefined && n.isPossible();
}

function nationalValid(c: PhoneCandidate, regions: readonly CountryCode[]): boolean {
  // Without a phone word nearby, only number layouts typical of phones count (see phone-candidates.ts).
  if (!c.formatted && !c.context) return false;
  for (const region of regions) {
    const n = parsePhoneNumberFromString(c.normalized, { defaultCountry: region, extract: false });
    if (n !== undefined && n.isValid()) return true;
  }
  return false;
}
