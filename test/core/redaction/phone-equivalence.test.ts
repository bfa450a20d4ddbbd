import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { isPhoneShaped, phoneCandidates, type PhoneCandidate } from '../../../core/redaction/phone-candidates.js';
import { createPhoneFinder, DEFAULT_PHONE_REGIONS, MAX_PHONE_PARSES, type PhoneFinderOptions } from '../../../core/redaction/phone.js';
import type { Detection, Finder } from '../../../core/redaction/types.js';
import { pageCases, presidioCases, squadCases } from '../../../scripts/eval/build-redaction-cases.js';
import { rng } from '../../../scripts/eval/rng.js';

// The metadata pre-check in phone.ts (mayBeValid, mayBePrintedAs) must only save parses, never change a detection: the finder is
// compared with the one it replaced — phone.ts as of commit 3252494 (main, session 10), kept below verbatim as the
// reference — on the page texts, SQuAD, all of Presidio's records and seeded random digit groupings, with the
// default budget and with budgets small enough to run out part-way (the pre-check still charges each region).
const SHARED = resolve(process.env.KIT_SHARED_EVAL ?? '../shared/eval');

// ---- reference: createPhoneFinder before the pre-check (every region parsed)
function referencePhoneFinder(options: PhoneFinderOptions = {}): Finder {
  const regions = options.regions ?? DEFAULT_PHONE_REGIONS;
  const parse = parsePhoneNumberFromString;
  const maxParses = options.maxParses ?? MAX_PHONE_PARSES;
  const phoneWords = options.phoneWords ?? true;
  const planLayout = options.planLayout ?? true;
  return (text: string, out: Detection[]) => {
    const verdicts = new Map<string, boolean>();
    const budget = { parses: maxParses };
    for (const c of phoneCandidates(text)) {
      if (!isPhoneShaped(c)) continue;
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
          planned = printedAsPlanned(c, regions, budget);
          verdicts.set(key, planned);
        }
        if (planned) out.push({ start: c.start, end: c.end, kind: 'phone' });
        continue;
      }
      const key = (c.international ? '+' : '') + c.normalized;
      let valid = verdicts.get(key);
      if (valid === undefined) {
        valid = c.international ? internationalValid(c, budget) : nationalValid(c, regions, budget);
        verdicts.set(key, valid);
      }
      if (valid) out.push({ start: c.start, end: c.end, kind: 'phone' });
    }
  };

  function internationalValid(c: PhoneCandidate, budget: { parses: number }): boolean {
    budget.parses--;
    const n = parse(c.normalized, { extract: false });
    return n !== undefined && n.isPossible();
  }
  function nationalValid(c: PhoneCandidate, regions: readonly CountryCode[], budget: { parses: number }): boolean {
    for (const region of regions) {
      budget.parses--;
      const n = parse(c.normalized, { defaultCountry: region, extract: false });
      if (n !== undefined && n.isValid()) return true;
    }
    return false;
  }
  function printedAsPlanned(c: PhoneCandidate, regions: readonly CountryCode[], budget: { parses: number }): boolean {
    const written = c.groups.map((g) => g.length).join(' ');
    for (const region of regions) {
      budget.parses--;
      const n = parse(c.normalized, { defaultCountry: region, extract: false });
      if (n === undefined || !n.isValid()) continue;
      const printed = n.formatNational().split(/\D+/).filter((g) => g.length > 0).map((g) => g.length).join(' ');
      if (printed === written) return true;
    }
    return false;
  }
}

// ---- inputs

/**
 * Leading digits that take the parser off its plain path in some default region: trunk prefixes (0, 1, 8, 06),
 * IDD prefixes (00, 011, 010, 0011, 0161, 810, 0019, 14110…), calling codes read without '+' (1, 44, 49, 33, 358,
 * 420, 86, 7…), carrier and transform prefixes (AR 0…15, BR 0/90 + carrier, JP 000x, KR 08x, CN 1xx…00); and
 * numbers of the other countries sharing a calling code (Isle of Man, Guernsey, Jersey; Caribbean and Pacific
 * NANPA area codes; Kazakhstan; Åland).
 */
const PREFIXES = ['0', '00', '000', '01', '011', '010', '0011', '0161', '0019', '1', '14110', '15', '8', '810', '06', '090', '012', '0800', '0900',
  '44', '49', '33', '358', '420', '351', '353', '86', '886', '82', '81', '7', '61', '64', '91', '27', '90', '52', '55', '54', '011 15', '02', '09', '07',
  '07624', '01624', '01481', '07781', '01534', '07797', '876', '1876', '284', '787', '340', '671', '7 7', '87', '018', '0457'];

/** `count` numbers of 2–4 groups and 6–12 digits (a few up to 15), each after a phone word or a neutral word. */
function randomNumbers(seed: number, count: number): string[] {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const words = ['Tel:', 'call', 'phone', 'fax', 'ref', 'Suite', 'ZIP', 'order no.', 'at', 'box', 'id'];
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const total = rand() < 0.05 ? 13 + Math.floor(rand() * 3) : 6 + Math.floor(rand() * 7);
    let digits = rand() < 0.5 ? pick(PREFIXES).replace(/\D/g, '') : '';
    while (digits.length < total) digits += String(Math.floor(rand() * 10));
    digits = digits.slice(0, total);
    const groups = 2 + Math.floor(rand() * 3);
    const cuts = new Set<number>();
    while (cuts.size < groups - 1) cuts.add(1 + Math.floor(rand() * (total - 1)));
    const at = [0, ...[...cuts].sort((a, b) => a - b), total];
    const sep = pick([' ', ' ', '-', '.', '\u00a0']);
    const parts = at.slice(1).map((end, k) => digits.slice(at[k], end));
    let number = parts.join(sep);
    if (rand() < 0.1) number = `(${parts[0]}) ${parts.slice(1).join(sep)}`;
    if (rand() < 0.05) number += pick([' x204', ' ext. 7', '#12']);
    texts.push(`${pick(words)} ${number}`);
  }
  return texts;
}

function detections(find: Finder, text: string): Detection[] {
  const out: Detection[] = [];
  find(text, out);
  return out;
}

/** Runs both finders over each text; returns the number of detections (identical ones, or the test has failed). */
function compare(texts: readonly string[], options: PhoneFinderOptions = {}): number {
  const current = createPhoneFinder(options);
  const reference = referencePhoneFinder(options);
  let found = 0;
  texts.forEach((text, i) => {
    const got = detections(current, text);
    expect(got, `text ${i}: ${text.slice(0, 80)}`).to.deep.equal(detections(reference, text));
    found += got.length;
  });
  return found;
}

describe('createPhoneFinder (metadata pre-check)', function () {
  this.timeout(300_000);
  const random = randomNumbers(20261128, 6000);
  const joined = (texts: readonly string[], per: number) => Array.from({ length: Math.ceil(texts.length / per) }, (_, i) => texts.slice(i * per, (i + 1) * per).join('\n'));

  it('finds exactly what the finder without it finds on seeded random digit groupings', () => {
    // One number per text (every verdict computed afresh), then 50 per text (cached verdicts, shared budget).
    expect(compare(random)).to.be.within(500, 5500); // both masked and unmasked numbers occur
    compare(joined(random, 50));
    compare(random, { planLayout: false });
    compare(random, { phoneWords: false });
    compare(random, { regions: ['CA', 'JP', 'AR', 'BR', 'KR', 'CN', 'RU', 'AU', 'GB', 'IM', 'KZ', 'SJ', 'AX', 'VI', 'PR'] });
  });

  it('finds exactly the same when the budget runs out part-way', () => {
    for (const maxParses of [1, 50, 333, 2000]) compare(joined(random, 200), { maxParses });
  });

  it('finds exactly the same on the page texts, SQuAD and Presidio', function () {
    if (!existsSync(join(SHARED, 'pii', 'synth_dataset_v2.json'))) this.skip();
    const pages = pageCases(join(SHARED, 'pages')).map((c) => c.text);
    const squad = squadCases(JSON.parse(readFileSync(join(SHARED, 'squad', 'dev-v2.0.cs224n-half.json'), 'utf8'))).map((c) => c.text);
    const presidio = presidioCases(JSON.parse(readFileSync(join(SHARED, 'pii', 'synth_dataset_v2.json'), 'utf8'))).map((c) => c.text);
    expect([pages.length, squad.length, presidio.length]).to.deep.equal([130, 646, 1500]);
    compare(pages);
    compare(squad);
    expect(compare(presidio)).to.be.above(80);
    // The benchmark's dense text: every record in one call, with the default budget and one that runs out.
    compare([presidio.join('\n\n')]);
    compare([presidio.join('\n\n')], { maxParses: 600 });
  });
});
