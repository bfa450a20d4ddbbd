import { Metadata } from 'libphonenumber-js/core';
import type { CountryCode } from 'libphonenumber-js/max';
import maxMetadata from 'libphonenumber-js/max/metadata';
import type { PhoneCandidate } from './phone-candidates.js';

// Metadata pre-check for the phone finder (phone.ts): rules a region out before parsing, with the parser's own metadata and patterns.
//
// Most numbers tried without a phone word (street numbers, ZIP codes, ids) are valid in few of the 33 regions, and
// printed as written in fewer; a parse, validation and format cost far more than the pattern tests that show they
// cannot succeed. `mayBeValid` and `mayBePrintedAs` are false only when that parse in that region cannot be valid
// (or valid and printed in the written grouping). They follow libphonenumber-js 1.13's source step by step (parse.js,
// helpers/extractCountryCallingCode.js, stripIddPrefix.js, extractCountryCallingCodeFromInternationalNumberWithoutPlusSign.js,
// extractNationalNumber*.js, getCountryByCallingCode.js, isValid.js, getNumberType.js, format.js,
// formatNationalNumberUsingFormat.js) and over-approximate where the parser decides by more than the digits:
//  - a number that starts with the region's IDD prefix may be read as international (any country): parsed;
//  - one that starts with the region's calling code may be read without it (the calling code's main plan then
//    strips the national prefix): both readings are checked;
//  - a national prefix for parsing may or may not be stripped (the parser decides by length and pattern): both
//    national numbers are checked; a transform rule that rewrites the number (AR, BR, JP, VI forms): parsed;
//  - the number's country may be any country sharing the calling code (US, CA and the Caribbean; GB, GG, IM, JE; …):
//    each is checked with its own types and formats.
// test/core/redaction/phone-equivalence.test.ts holds the finder to the one without this pre-check.

/** The digits the parser reads from a national candidate, or undefined when it holds more than digits and separators. */
export function digitsOf(c: PhoneCandidate): string | undefined {
  // An extension ("x204", "#7") is split off by the parser's own rules; such candidates are always parsed.
  return /^[\d ().\-\u00a0]+$/.test(c.normalized) ? c.normalized.replace(/\D/g, '') : undefined;
}

/** False when no parse of `digits` with `region` as default country is valid. */
export function mayBeValid(digits: string, region: CountryCode): boolean {
  const plan = regionPlan(region);
  const readings = nationalReadings(digits, plan);
  return readings === undefined || readings.some((nsn) => plan.countries.some((c) => c.accepts(nsn)));
}

/** False when no such parse is valid and printed (national format) in the `written` group lengths ("3 8"). */
export function mayBePrintedAs(digits: string, region: CountryCode, written: string): boolean {
  const plan = regionPlan(region);
  const readings = nationalReadings(digits, plan);
  return readings === undefined || readings.some((nsn) => plan.countries.some((c) => c.accepts(nsn) && groupLengths(c.formatNational(nsn)) === written));
}

/** The national numbers the parser may end with, or undefined when it may read the digits another way. */
function nationalReadings(digits: string, plan: RegionPlan): string[] | undefined {
  if (digits.search(plan.idd) === 0) return undefined; // stripIddPrefix
  const readings: string[] = [];
  if (!addReadings(digits, plan.prefix, readings)) return undefined;
  // extractCountryCallingCodeFromInternationalNumberWithoutPlusSign, then the calling code's plan selected.
  if (digits.startsWith(plan.callingCode) && !addReadings(digits.slice(plan.callingCode.length), plan.mainPrefix, readings)) return undefined;
  return readings;
}

/** extractNationalNumber: the number, or the number without its national prefix; false for a transform rule. */
function addReadings(number: string, prefix: NationalPrefix, readings: string[]): boolean {
  const m = prefix.pattern?.exec(number);
  if (m && prefix.transforms && m.length > 1 && m[m.length - 1]) return false;
  readings.push(number);
  if (m && m[0] !== '') readings.push(number.slice(m[0].length));
  return true;
}

/** Runtime methods of libphonenumber-js's Metadata (source/metadata.js) that its typings leave out. */
interface RuntimeMetadata {
  selectNumberingPlan(country: string): void;
  getCountryCodesForCallingCode(callingCode: string): string[] | undefined;
  numberingPlan: RuntimePlan;
}
interface RuntimePlan {
  callingCode(): string;
  IDDPrefix(): string;
  nationalNumberPattern(): string;
  nationalPrefixForParsing(): string | undefined;
  nationalPrefixTransformRule(): string | undefined;
  hasTypes(): boolean;
  type(type: string): { pattern(): string; possibleLengths(): number[] | undefined } | undefined;
  formats(): { pattern(): string; format(): string; leadingDigitsPatterns(): string[]; nationalPrefixFormattingRule(): string | undefined }[];
}

/** getNumberType's order: fixed line, then the other types (helpers/getNumberType.js). */
const NUMBER_TYPES = ['FIXED_LINE', 'MOBILE', 'PREMIUM_RATE', 'TOLL_FREE', 'SHARED_COST', 'VOIP', 'PERSONAL_NUMBER', 'PAGER', 'UAN', 'VOICEMAIL'];
/** formatNationalNumberUsingFormat's FIRST_GROUP_PATTERN. */
const FIRST_GROUP = /(\$\d)/;

interface NationalPrefix { readonly pattern: RegExp | undefined; readonly transforms: boolean }
interface CountryPlan {
  /** isValid for this country: getNumberType(nsn) !== undefined (the national pattern alone without types). */
  readonly accepts: (nsn: string) => boolean;
  /** formatNational for a number of this country without extension. */
  readonly formatNational: (nsn: string) => string;
}
interface RegionPlan {
  readonly callingCode: string;
  readonly idd: RegExp;
  /** National prefix of the region, and of the calling code's main plan (read after the calling code). */
  readonly prefix: NationalPrefix;
  readonly mainPrefix: NationalPrefix;
  /** Every country sharing the calling code. */
  readonly countries: readonly CountryPlan[];
}

const regionPlans = new Map<string, RegionPlan>();
let metadata: RuntimeMetadata | undefined;

function regionPlan(region: string): RegionPlan {
  let plan = regionPlans.get(region);
  if (plan) return plan;
  // The metadata libphonenumber-js/max parses with (the same module, so bundled once).
  metadata ??= new Metadata(maxMetadata) as unknown as RuntimeMetadata;
  const md = metadata;
  md.selectNumberingPlan(region);
  const callingCode = md.numberingPlan.callingCode();
  const idd = new RegExp(md.numberingPlan.IDDPrefix());
  const prefix = nationalPrefix(md.numberingPlan);
  const countries = md.getCountryCodesForCallingCode(callingCode) ?? [region];
  md.selectNumberingPlan(countries[0]!);
  const mainPrefix = nationalPrefix(md.numberingPlan);
  plan = { callingCode, idd, prefix, mainPrefix, countries: countries.map((country) => countryPlan(md, country)) };
  regionPlans.set(region, plan);
  return plan;
}

function nationalPrefix(p: RuntimePlan): NationalPrefix {
  const forParsing = p.nationalPrefixForParsing();
  return { pattern: forParsing ? new RegExp('^(?:' + forParsing + ')') : undefined, transforms: Boolean(p.nationalPrefixTransformRule()) };
}

const entire = (pattern: string) => new RegExp('^(?:' + pattern + ')$'); // matchesEntirely

function countryPlan(md: RuntimeMetadata, country: string): CountryPlan {
  md.selectNumberingPlan(country);
  const p = md.numberingPlan;
  const national = entire(p.nationalNumberPattern());
  let accepts = (nsn: string) => national.test(nsn);
  if (p.hasTypes()) {
    const types: { lengths: number[] | undefined; pattern: RegExp }[] = [];
    for (const name of NUMBER_TYPES) {
      const t = p.type(name);
      if (t && t.pattern()) types.push({ lengths: t.possibleLengths(), pattern: entire(t.pattern()) });
    }
    accepts = (nsn) => national.test(nsn) && types.some((t) => (!t.lengths || t.lengths.includes(nsn.length)) && t.pattern.test(nsn));
  }
  // format.js, NATIONAL without options: the first format whose last leading-digits pattern matches at the start and
  // whose pattern matches entirely, its national prefix formatting rule put in place of the first group.
  const formats = p.formats().map((f) => {
    const leading = f.leadingDigitsPatterns();
    const rule = f.nationalPrefixFormattingRule();
    return {
      leading: leading.length > 0 ? new RegExp(leading[leading.length - 1]!) : undefined,
      pattern: entire(f.pattern()),
      replace: new RegExp(f.pattern()),
      replacement: rule ? f.format().replace(FIRST_GROUP, rule) : f.format(),
    };
  });
  const formatNational = (nsn: string) => {
    const f = formats.find((x) => (x.leading === undefined || nsn.search(x.leading) === 0) && x.pattern.test(nsn));
    return f ? nsn.replace(f.replace, f.replacement) : nsn;
  };
  return { accepts, formatNational };
}

/** "030 90182077" → "3 8". */
export function groupLengths(printed: string): string {
  return printed.split(/\D+/).filter((g) => g.length > 0).map((g) => g.length).join(' ');
}
