/**
 * Redaction throughput and secret-detection quality: Kit's redactor beside secretlint 12 (`@secretlint/core`
 * lintSource with @secretlint/secretlint-rule-preset-recommend, the usual CLI setup) on the same texts. Prints every
 * figure of the redaction section of BENCHMARKS.md (also written to .tmp/bench-redaction.md).
 *
 * Throughput: UTF-8 MB per second of process CPU time on one core (wall-clock beside it), on
 *  - page text: the main text of mozilla/readability's 130 test pages (expected.html through Kit's DOM-to-text walk)
 *    plus the 646 SQuAD contexts — what Kit redacts in production;
 *  - dense PII: Presidio's 1,500 records joined (a phone-shaped number every ~90 bytes: the cost of validation).
 * Each engine is measured in KIT_BENCH_ROUNDS rounds (default 5), interleaved (Kit secrets, Kit secrets + PII,
 * secretlint, then the next round), each round at least ROUND_MS of CPU; a figure is the median over rounds with
 * the range [min–max], a ratio the median of the per-round ratios. The load average is printed at the start and
 * the end: on a shared machine CPU time rises too (caches, frequency), so ranges measured under load are wide.
 *
 * Quality: the held-out half of gitleaks' rule cases (scripts/eval/build-gitleaks-cases.ts) for both engines —
 * recall over all rules and over the rules Kit claims, false-positive rate on the rules' false-positive texts —
 * the generated regression set, SQuAD, phone quality per libphonenumber-js metadata flavour on Presidio's two
 * halves, and bundle sizes. Run: `npm run bench -- redaction` (heavy: wrap it in `flock /tmp/kit-heavy.lock`).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadavg } from 'node:os';
import { build } from 'esbuild';
import { lintSource } from '@secretlint/core';
import { creator as recommend } from '@secretlint/secretlint-rule-preset-recommend';
import * as phoneMax from 'libphonenumber-js/max';
import * as phoneMobile from 'libphonenumber-js/mobile';
import * as phoneMin from 'libphonenumber-js/min';
import type { RedactConfig } from '../core/config/types.js';
import { loadRedactor, type Redactor } from '../core/redaction/index.js';
import { createPhoneFinder, type ParsePhone } from '../core/redaction/phone.js';
import type { Detection, RedactionSpan } from '../core/redaction/types.js';
import { gitleaksHalf } from '../scripts/eval/build-gitleaks-cases.js';
import { pageCases, presidioCases, presidioSplit, secretCases, squadCases } from '../scripts/eval/build-redaction-cases.js';
import { RuleTally, redactionSuite } from '../scripts/eval/redaction.js';

const SHARED = resolve(process.env.KIT_SHARED_EVAL ?? '../shared/eval');
const ROUNDS = Number(process.env.KIT_BENCH_ROUNDS ?? 5);
/** Minimum CPU time of one engine in one round (default 800 ms). */
const ROUND_MS = 800;
const loadStart = loadavg();

interface Case { text: string; spans: { start: number; end: number; kind: string }[] }

const pageTexts = pageCases(join(SHARED, 'pages')).map((c) => c.text);
const squad = squadCases(JSON.parse(readFileSync(join(SHARED, 'squad', 'dev-v2.0.cs224n-half.json'), 'utf8'))) as Case[];
const presidio = presidioCases(JSON.parse(readFileSync(join(SHARED, 'pii', 'synth_dataset_v2.json'), 'utf8')));
const presidioHalves = presidioSplit(presidio);
const secrets = secretCases() as Case[];
const gitleaks = gitleaksHalf(join(SHARED, 'secrets', 'gitleaks-rules'), 'heldout');

/** Texts joined by blank lines, with each case's offset: secretlint sets up its rules on every call (≈ 4 ms). */
function joinTexts(texts: readonly string[]): { text: string; offsets: number[] } {
  const offsets: number[] = [];
  let text = '';
  for (const t of texts) {
    if (text) text += '\n\n';
    offsets.push(text.length);
    text += t;
  }
  return { text, offsets };
}
const corpora: Record<string, string> = {
  'page text': joinTexts([...pageTexts, ...squad.map((c) => c.text)]).text,
  'dense PII (Presidio joined)': joinTexts(presidio.map((c) => c.text)).text,
};
const mbOf = (text: string) => Buffer.byteLength(text) / 1e6;

const secretlintConfig = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommend }] } as Parameters<typeof lintSource>[0]['options']['config'];
async function secretlintRanges(text: string): Promise<[number, number][]> {
  const r = await lintSource({ source: { filePath: '/page.txt', content: text, contentType: 'text' }, options: { config: secretlintConfig, noPhysicFilePath: true } });
  return r.messages.map((m) => m.range as [number, number]);
}

/** One measurement: MB/s over at least ROUND_MS of process CPU time, and over the wall-clock time it took. */
async function speedOnce(run: () => Promise<void> | void, mb: number): Promise<{ cpu: number; wall: number }> {
  let passes = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let cpuMs = 0;
  while (cpuMs < ROUND_MS) {
    await run();
    passes++;
    const c = process.cpuUsage(c0);
    cpuMs = (c.user + c.system) / 1000;
  }
  return { cpu: (mb * passes) / (cpuMs / 1000), wall: (mb * passes) / ((performance.now() - t0) / 1000) };
}

const SECRETS_ONLY: RedactConfig = { secrets: true, pii: false, patterns: [], replacement: '[REDACTED:<KIND>]' };
const BOTH: RedactConfig = { ...SECRETS_ONLY, pii: true };
const kitSecrets = await loadRedactor(SECRETS_ONLY);
const kitBoth = await loadRedactor(BOTH);

const rows: string[] = [];
const row = (metric: string, kit: string, ref: string, ratio: string) => rows.push(`| ${metric} | ${kit} | ${ref} | ${ratio} |`);
const median = (xs: readonly number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };
const fmt = (xs: readonly number[]) => `${median(xs).toFixed(1)} [${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}]`;

// ---- throughput, interleaved rounds
type Series = { cpu: number[]; wall: number[] };
const speed: Record<string, { secrets: Series; both: Series; ref: Series }> = {};
for (const name of Object.keys(corpora)) speed[name] = { secrets: { cpu: [], wall: [] }, both: { cpu: [], wall: [] }, ref: { cpu: [], wall: [] } };
for (const [name, text] of Object.entries(corpora)) {
  // Warm-up: every engine once.
  kitSecrets.redact(text);
  kitBoth.redact(text);
  await secretlintRanges(text);
  void name;
}
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, text] of Object.entries(corpora)) {
    const mb = mbOf(text);
    for (const [key, run] of [['secrets', () => { kitSecrets.redact(text); }], ['both', () => { kitBoth.redact(text); }], ['ref', async () => { await secretlintRanges(text); }]] as const) {
      const s = await speedOnce(run, mb);
      speed[name]![key].cpu.push(s.cpu);
      speed[name]![key].wall.push(s.wall);
    }
  }
}
for (const [name, text] of Object.entries(corpora)) {
  const s = speed[name]!;
  const ratios = (a: number[]) => a.map((x, i) => x / s.ref.cpu[i]!);
  row(`${name} (${mbOf(text).toFixed(2)} MB): MB/s, secrets only — CPU median [range]; wall median`, `${fmt(s.secrets.cpu)}; ${median(s.secrets.wall).toFixed(1)}`, `${fmt(s.ref.cpu)}; ${median(s.ref.wall).toFixed(1)}`, `${median(ratios(s.secrets.cpu)).toFixed(1)}× [${Math.min(...ratios(s.secrets.cpu)).toFixed(1)}–${Math.max(...ratios(s.secrets.cpu)).toFixed(1)}]`);
  row(`${name}: MB/s, secrets + PII — CPU median [range]; wall median`, `${fmt(s.both.cpu)}; ${median(s.both.wall).toFixed(1)}`, `${fmt(s.ref.cpu)} (secrets only)`, `${median(ratios(s.both.cpu)).toFixed(1)}×`);
}

// ---- secret detection quality, same texts for both engines
const kitFind = (t: string) => kitSecrets.redact(t).spans.map((s) => [s.start, s.end] as [number, number]);
/** Ranges found in a joined text, handed back to each case (in the case's coordinates). */
async function perCase(texts: readonly string[], find: (text: string) => Promise<[number, number][]> | [number, number][]): Promise<RedactionSpan[][]> {
  const { text, offsets } = joinTexts(texts);
  const ranges = await find(text);
  return texts.map((t, i) => ranges
    .filter(([a, b]) => a < offsets[i]! + t.length && b > offsets[i]!)
    .map(([a, b]) => ({ start: Math.max(0, a - offsets[i]!), end: Math.min(t.length, b - offsets[i]!), kind: 'secret' as const })));
}
const ruleCases = gitleaks.map((c) => redactionSuite.parseCase(JSON.parse(JSON.stringify(c))));
const ruleMetrics = async (find: (text: string) => Promise<[number, number][]> | [number, number][]) => {
  const masked = await perCase(ruleCases.map((c) => c.text), find);
  const t = new RuleTally();
  ruleCases.forEach((c, i) => t.add(c, masked[i]!));
  return t.metrics(() => {}) as Record<string, number>;
};
const kitRules = await ruleMetrics(kitFind);
const refRules = await ruleMetrics(secretlintRanges);
const held = `gitleaks rule cases, held-out half (${kitRules.rules} rules, ${kitRules.tp_secrets} secrets, ${kitRules.fp_texts} fp texts)`;
row(`${held}: recall, all rules`, kitRules.recall!.toFixed(4), refRules.recall!.toFixed(4), '');
row(`${held}: recall, the ${kitRules.rules_claimed} rules Kit claims`, kitRules.recall_claimed!.toFixed(4), refRules.recall_claimed!.toFixed(4), '');
row(`${held}: recall, the ${kitRules.rules_claimed_session9} rules claimed before session 10`, kitRules.recall_claimed_session9!.toFixed(4), refRules.recall_claimed_session9!.toFixed(4), '');
row(`${held}: recall, hand-written cases / generated cases`, `${kitRules.recall_literal!.toFixed(4)} / ${kitRules.recall_generated!.toFixed(4)}`, `${refRules.recall_literal!.toFixed(4)} / ${refRules.recall_generated!.toFixed(4)}`, '');
row(`${held}: false-positive rate on the rules' fp texts (without texts another rule flags)`, `${kitRules.fp_rate!.toFixed(4)} (${kitRules.fp_rate_no_other_rule!.toFixed(4)})`, `${refRules.fp_rate!.toFixed(4)} (${refRules.fp_rate_no_other_rule!.toFixed(4)})`, '');

const covered = (ranges: readonly RedactionSpan[], s: { start: number; end: number }) => {
  for (let i = s.start; i < s.end; i++) if (!ranges.some((r) => r.start <= i && i < r.end)) return false;
  return true;
};
async function regression(find: (text: string) => Promise<[number, number][]> | [number, number][]) {
  const masked = await perCase(secrets.map((c) => c.text), find);
  let gold = 0, found = 0, fps = 0;
  secrets.forEach((c, i) => {
    for (const s of c.spans) { gold++; if (covered(masked[i]!, s)) found++; }
    for (const r of masked[i]!) if (!c.spans.some((s) => s.start < r.end && r.start < s.end)) fps++;
  });
  return { recall: found / gold, fps, gold };
}
const kitReg = await regression(kitFind);
const refReg = await regression(secretlintRanges);
row(`generated regression set (Kit's claims, written beside the detector; ${kitReg.gold} secrets): recall (false positives)`, `${kitReg.recall.toFixed(4)} (${kitReg.fps})`, `${refReg.recall.toFixed(4)} (${refReg.fps})`, '');
const squadText = joinTexts(squad.map((c) => c.text)).text;
row('SQuAD contexts: secret findings (all false)', String(kitFind(squadText).length), String((await secretlintRanges(squadText)).length), '');

// ---- phone quality and size per metadata flavour
function phoneQuality(parse: ParsePhone, cases: readonly Case[]) {
  const find = createPhoneFinder({ parse });
  let gold = 0, found = 0, regions = 0, correct = 0;
  for (const c of cases) {
    const out: Detection[] = [];
    find(c.text, out);
    for (const s of c.spans) if (s.kind === 'phone') { gold++; if (covered(out, s)) found++; }
    for (const r of out) { regions++; if (c.spans.some((s) => s.kind === 'phone' && s.start < r.end && r.start < s.end)) correct++; }
  }
  return { recall: found / gold, precision: correct / Math.max(regions, 1), gold };
}
async function gzipKb(contents: string): Promise<number> {
  const out = await build({ stdin: { contents, resolveDir: process.cwd(), loader: 'ts' }, bundle: true, minify: true, format: 'esm', target: 'es2022', platform: 'browser', write: false });
  return gzipSync(out.outputFiles[0]!.contents, { level: 9 }).length / 1024;
}
const flavours = { min: phoneMin, mobile: phoneMobile, max: phoneMax } as const;
const phoneRows: string[] = [];
for (const [name, lib] of Object.entries(flavours)) {
  const dev = phoneQuality(lib.parsePhoneNumberFromString as ParsePhone, presidioHalves.dev as Case[]);
  const heldout = phoneQuality(lib.parsePhoneNumberFromString as ParsePhone, presidioHalves.heldout as Case[]);
  const kb = await gzipKb(`export { parsePhoneNumberFromString } from 'libphonenumber-js/${name}';`);
  phoneRows.push(`| ${name} | ${dev.precision.toFixed(4)} / ${dev.recall.toFixed(4)} (${dev.gold}) | ${heldout.precision.toFixed(4)} / ${heldout.recall.toFixed(4)} (${heldout.gold}) | ${kb.toFixed(1)} KB |`);
}

// The SDK's view: the redaction entry with its lazy chunks split off, as webpack/esbuild code-splitting does.
const split = await build({
  entryPoints: ['core/redaction/index.ts'], bundle: true, minify: true, format: 'esm', target: 'es2022', platform: 'browser', splitting: true, outdir: '.tmp/bench-redaction-chunks', write: false,
});
const chunkSizes = split.outputFiles.map((f) => ({ name: f.path.split('/').pop()!, kb: gzipSync(f.contents, { level: 9 }).length / 1024, text: f.text }));
const entryKb = chunkSizes.find((c) => c.name === 'index.js')!.kb;
const phoneKb = chunkSizes.filter((c) => c.text.includes('parsePhoneNumber') || /libphonenumber|countryCallingCodes|country_calling_codes/.test(c.text)).reduce((n, c) => n + c.kb, 0);
const re2Kb = chunkSizes.filter((c) => /RE2JS/.test(c.text)).reduce((n, c) => n + c.kb, 0);
row('bundle (gzip): redaction entry, loaded with the SDK when redact is on', `${entryKb.toFixed(1)} KB`, '', '');
row('bundle (gzip): phone chunk (libphonenumber-js max), lazy when pii is on', `${phoneKb.toFixed(1)} KB`, '', '');
row('bundle (gzip): linear-time regex chunk (re2js), lazy when custom patterns exist', `${re2Kb.toFixed(1)} KB`, '', '');

const page = speed['page text']!;
const load = (l: number[]) => l.map((x) => x.toFixed(1)).join(' / ');
const md = [
  '## redaction',
  '',
  `Kit redactor vs secretlint 12 (\`@secretlint/core\` lintSource, preset-recommend) on the same texts; MB = UTF-8 megabytes per second`,
  `of process CPU time on one core: median over ${ROUNDS} interleaved rounds [min–max], wall-clock median beside it. secretlint finds`,
  'secrets only, so "secrets only" is the like-for-like row.',
  '',
  '| metric | Kit | secretlint | ratio |',
  '|---|---|---|---|',
  ...rows,
  '',
  'Phone numbers on Presidio\'s two halves (split by template; gold phones in parentheses) per libphonenumber-js metadata flavour,',
  'precision / recall, and the gzip size of its parse function:',
  '',
  '| metadata | development templates | held-out templates | gzip |',
  '|---|---|---|---|',
  ...phoneRows,
  '',
  `Goal ≥ 50 MB/s of page text on one core (secrets + PII): **${Math.min(...page.both.cpu) >= 50 ? 'met in every round' : median(page.both.cpu) >= 50 ? 'met at the median' : 'missed'}** — ${fmt(page.both.cpu)} MB/s of CPU time,`,
  `${median(page.both.wall).toFixed(1)} MB/s wall-clock. Load average (1 / 5 / 15 min, 2 cores): ${load(loadStart)} at the start, ${load(loadavg())} at the end.`,
  '',
  'Reproduce: `flock /tmp/kit-heavy.lock npm run bench -- redaction` (KIT_BENCH_ROUNDS=5 by default).',
  '',
].join('\n');
mkdirSync('.tmp', { recursive: true });
writeFileSync('.tmp/bench-redaction.md', md);
console.log(md);
