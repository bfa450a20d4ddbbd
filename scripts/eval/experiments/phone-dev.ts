/**
 * Scratch (issue 16 §2): phone finding on the DEVELOPMENT half of Presidio only, plus the texts where any phone is
 * a false positive or must be looked at (SQuAD contexts, the Readability page texts). Dev recall is 1.0 with the
 * phone words, so the development signal is recall by *shape alone* (context words switched off): a general shape
 * rule must raise it without masking more on SQuAD, the pages or Presidio's unscored entities.
 * Never reads the held-out file. `npx tsx scripts/eval/experiments/phone-dev.ts [--list]`
 *
 * Tried and not kept (session 9, commit c2ae1e4 and its revert): a national number also counted as a phone when
 * written with its trunk prefix (valid where 0 is the trunk prefix) or beside a detected phone. Development: shape-only
 * recall 0.75 → 0.90, no new mask on Presidio's unscored entities, SQuAD or the page texts. Held-out templates
 * (scored after that choice): phone recall 0.85 → 0.90 but precision 1.00 → 0.973 (one street address masked), below
 * the 0.98 the CI guard asserts — so it was reverted, not tuned further on the held-out figure.
 *
 * Session 10 (kept): a national number in 2+ groups counts without a phone word when its grouping is the one its
 * number plan prints (libphonenumber's national format for a region where the full, typed metadata accepts it).
 * `--variant=before|min-plan-layout|max-no-plan-layout|product` compares it with the earlier finder; the quantity
 * rows measure its cost: thousands-grouped numbers a page could hold.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readdirSync, statSync } from 'node:fs';
import { parsePhoneNumberFromString as parseMax } from 'libphonenumber-js/max';
import { parsePhoneNumberFromString as parseMin } from 'libphonenumber-js/min';
import { createPhoneFinder, type PhoneFinderOptions } from '../../../core/redaction/phone.js';
import type { Detection } from '../../../core/redaction/types.js';
import { rng } from '../rng.js';

type Case = { text: string; spans: { start: number; end: number; kind: string }[]; other_spans?: { start: number; end: number; type: string }[]; tag?: string };
const read = (f: string): Case[] => readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
// `--variant=<name>` picks the finder measured (default: the product's).
const VARIANTS: Record<string, PhoneFinderOptions> = {
  product: {},
  // before session 10: min metadata, no plan layouts
  before: { planLayout: false, parse: parseMin },
  'min-plan-layout': { planLayout: true, parse: parseMin },
  'max-no-plan-layout': { planLayout: false, parse: parseMax },
};
const variant = process.argv.find((a) => a.startsWith('--variant='))?.slice(10) ?? 'product';
const options = VARIANTS[variant];
if (options === undefined) throw new Error(`unknown variant ${variant}: ${Object.keys(VARIANTS).join(', ')}`);
console.log(`variant ${variant}`);
const finders = { true: createPhoneFinder(options), false: createPhoneFinder({ ...options, phoneWords: false }) };
function find(text: string, useContext: boolean): Detection[] {
  const out: Detection[] = [];
  finders[`${useContext}`](text, out);
  return out;
}

/** Markdown docs of the installed npm packages: development text that is no eval set (docs/redaction.md). */
function packageDocs(): Case[] {
  const out: Case[] = [];
  const walk = (dir: string, depth: number): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      let st; try { st = statSync(p); } catch { continue; }
      if (st.isDirectory()) { if (depth < 3 && name !== '.bin') walk(p, depth + 1); }
      else if (/\.md$/i.test(name) && st.size < 2_000_000) out.push({ text: readFileSync(p, 'utf8'), spans: [], tag: p });
    }
  };
  walk('node_modules', 0);
  return out;
}

const list = process.argv.includes('--list');
const dev = read('.tmp/eval/redaction-presidio-dev.jsonl');
for (const useContext of [true, false]) {
  let gold = 0, found = 0, fp = 0;
  const fpOn: Record<string, number> = {};
  for (const c of dev) {
    const got = find(c.text, useContext);
    for (const s of c.spans.filter((s) => s.kind === 'phone')) {
      gold++;
      const hit = got.some((d) => d.start <= s.start && d.end >= s.end);
      if (hit) found++; else if (list && !useContext) console.log(`  miss (shape only): ${JSON.stringify(c.text.slice(s.start, s.end))}`);
    }
    for (const d of got) if (!c.spans.some((s) => s.start < d.end && d.start < s.end)) {
      fp++; const o = c.other_spans?.find((s) => s.start < d.end && d.start < s.end)?.type ?? 'none'; fpOn[o] = (fpOn[o] ?? 0) + 1;
      if (list) console.log(`  dev fp: ${JSON.stringify(c.text.slice(Math.max(0, d.start - 30), d.end + 10))}`);
    }
  }
  console.log(`presidio dev phones, ${useContext ? 'with phone words' : 'shape only     '}: recall ${found}/${gold} = ${(found / gold).toFixed(4)}, masked elsewhere ${fp} ${JSON.stringify(fpOn)}`);
}
for (const [name, cases] of [['squad', read('.tmp/eval/redaction-squad.jsonl')], ['pages', read('.tmp/eval/redaction-pages.jsonl')], ['npm docs', packageDocs()]] as const) {
  let n = 0;
  for (const c of cases) for (const d of find(c.text, true)) {
    n++;
    if (list) console.log(`  ${name}${c.tag ? ' ' + c.tag : ''}: ${JSON.stringify(c.text.slice(Math.max(0, d.start - 40), d.end + 20))}`);
  }
  console.log(`${name}: ${n} phones masked`);
}

// Street addresses of the development records placed beside a phone (contact blocks): any mask inside an address
// is a false positive. With a phone word before the address ("Phone: …, 99449 18 Kent Street") the phone-word window
// reaches the address's first numbers; without one, only the neighbour rule could.
const addresses = dev.flatMap((c) => (c.other_spans ?? []).filter((o) => o.type === 'STREET_ADDRESS').map((o) => c.text.slice(o.start, o.end)));
for (const [label, before, after] of [['phone, address', '+41 71 526 99 04, ', ''], ['"Phone:" phone, address', 'Phone: +41 71 526 99 04, ', ''], ['address, phone', '', ' +1-604-696-5272']] as const) {
  let masked = 0;
  for (const a of addresses) {
    const text = before + a + after;
    if (find(text, true).some((d) => d.start < before.length + a.length && d.end > before.length)) masked++;
  }
  console.log(`dev addresses beside a phone (${label}): ${masked} of ${addresses.length} masked inside the address`);
}

// Quantities as European text writes them, grouped by thousands with spaces or dots ("38 386 000", "38.386.000") in
// a plain sentence: the numbers of 7+ digits that SQuAD and the page texts write with comma thousands, and 5,000
// seeded log-uniform integers in [10^6, 10^10). A rule that reads grouping must rarely take these for phones.
const written = [...read('.tmp/eval/redaction-squad.jsonl'), ...read('.tmp/eval/redaction-pages.jsonl')]
  .flatMap((c) => c.text.match(/(?<![\d,.])\d{1,3}(?:,\d{3}){2,}(?![\d,])/g) ?? []).map((q) => q.replaceAll(',', ''));
const random = rng(16010);
const drawn = Array.from({ length: 5000 }, () => String(Math.floor(10 ** (6 + 4 * random()))));
for (const [label, numbers] of [['written', [...new Set(written)]], ['drawn', drawn]] as const) {
  for (const sep of [' ', '.']) {
    let masked = 0;
    const byDigits: Record<number, [number, number]> = {};
    for (const q of numbers) {
      const text = `The figure was ${q.replace(/\B(?=(\d{3})+$)/g, sep)} in that year.`;
      const hit = find(text, true).length > 0;
      const d = (byDigits[q.length] ??= [0, 0]);
      d[1]++;
      if (hit) { masked++; d[0]++; if (list && label === 'written') console.log(`  quantity masked: ${JSON.stringify(text)}`); }
    }
    const per = Object.entries(byDigits).map(([n, [m, all]]) => `${n} digits ${m}/${all}`).join(', ');
    console.log(`quantities (${label}) grouped with ${JSON.stringify(sep)}: ${masked} of ${numbers.length} masked (${per})`);
  }
}
