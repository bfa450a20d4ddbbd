/**
 * Redaction throughput and secret-detection quality: Kit's redactor beside secretlint 12 (`@secretlint/core`
 * lintSource with @secretlint/secretlint-rule-preset-recommend, the usual CLI setup) on the same texts:
 *  - page text: the main text of mozilla/readability's 130 test pages (expected.html through Kit's DOM-to-text walk)
 *    plus the 646 SQuAD contexts — what Kit redacts in production;
 *  - the generated secrets set of the redaction eval (every claimed shape in page-like templates, near misses);
 *  - Presidio's 1,500 PII records (dense PII, for the cost of the pii engines).
 * Throughput is UTF-8 MB per second of process CPU time (one core; other processes on a shared machine cannot
 * inflate it), wall-clock figures beside. Also: bundle sizes (esbuild, minified, gzip) and phone quality per
 * libphonenumber-js metadata flavour. Writes the section to .tmp/bench-redaction.md.  Run: npm run bench -- redaction
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
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
import type { Detection } from '../core/redaction/types.js';
import { gitleaksCases, presidioCases, secretCases, squadCases } from '../scripts/eval/build-redaction-cases.js';
import { htmlToText } from '../scripts/eval/extraction.js';

const SHARED = resolve(process.env.KIT_SHARED_EVAL ?? '../shared/eval');
/** Minimum CPU time per measurement (default 2 s). */
const MIN_MS = 2_000;

interface Case { text: string; spans: { start: number; end: number; kind: string }[] }

const pagesDir = join(SHARED, 'pages');
const pageTexts = readdirSync(pagesDir).filter((d) => existsSync(join(pagesDir, d, 'expected.html'))).sort()
  .map((d) => htmlToText(readFileSync(join(pagesDir, d, 'expected.html'), 'utf8')));
const squad = squadCases(JSON.parse(readFileSync(join(SHARED, 'squad', 'dev-v2.0.cs224n-half.json'), 'utf8'))) as Case[];
const presidio = presidioCases(JSON.parse(readFileSync(join(SHARED, 'pii', 'synth_dataset_v2.json'), 'utf8'))) as Case[];
const secrets = secretCases() as Case[];
const gitleaks = gitleaksCases(readFileSync(join(SHARED, 'secrets', 'gitleaks.toml'), 'utf8')) as Case[];

/**
 * Each corpus is one text (its documents joined by blank lines, spans shifted): secretlint sets up its rules on
 * every call (≈ 4 ms), which would swamp a per-document comparison, and Kit's own per-call cost is small.
 */
function joinCases(cases: readonly Case[]): Case {
  let text = '';
  const spans: Case['spans'] = [];
  for (const c of cases) {
    if (text) text += '\n\n';
    for (const s of c.spans) spans.push({ start: s.start + text.length, end: s.end + text.length, kind: s.kind });
    text += c.text;
  }
  return { text, spans };
}
const corpora: Record<string, string> = {
  'page text': [...pageTexts, ...squad.map((c) => c.text)].join('\n\n'),
  'secrets set': joinCases(secrets).text,
  'Presidio PII': joinCases(presidio).text,
};
const mbOf = (text: string) => Buffer.byteLength(text) / 1e6;

const secretlintConfig = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommend }] } as Parameters<typeof lintSource>[0]['options']['config'];
async function secretlintRanges(text: string): Promise<[number, number][]> {
  // secretlint's profiler leaves performance marks behind on every call; bounded here by few calls per corpus.
  const r = await lintSource({ source: { filePath: '/page.txt', content: text, contentType: 'text' }, options: { config: secretlintConfig, noPhysicFilePath: true } });
  return r.messages.map((m) => m.range as [number, number]);
}

async function throughput(run: () => Promise<void> | void, mb: number): Promise<{ cpu: number; wall: number }> {
  await run();
  let passes = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let cpuMs = 0;
  while (cpuMs < MIN_MS) {
    await run();
    passes++;
    const c = process.cpuUsage(cpu0);
    cpuMs = (c.user + c.system) / 1000;
  }
  const wallMs = performance.now() - t0;
  return { cpu: (mb * passes) / (cpuMs / 1000), wall: (mb * passes) / (wallMs / 1000) };
}

const SECRETS_ONLY: RedactConfig = { secrets: true, pii: false, patterns: [], replacement: '[REDACTED:<KIND>]' };
const BOTH: RedactConfig = { ...SECRETS_ONLY, pii: true };
const kitSecrets = await loadRedactor(SECRETS_ONLY);
const kitBoth = await loadRedactor(BOTH);

const rows: string[] = [];
const row = (metric: string, kit: string, ref: string, ratio: string) => rows.push(`| ${metric} | ${kit} | ${ref} | ${ratio} |`);
const f1 = (x: number) => x.toFixed(1);

// ---- throughput
const speed: Record<string, { secrets: { cpu: number; wall: number }; both: { cpu: number; wall: number }; ref: { cpu: number; wall: number } }> = {};
for (const [name, text] of Object.entries(corpora)) {
  const mb = mbOf(text);
  const runKit = (r: Redactor) => () => { r.redact(text); };
  const secretsSpeed = await throughput(runKit(kitSecrets), mb);
  const bothSpeed = await throughput(runKit(kitBoth), mb);
  const refSpeed = await throughput(async () => { await secretlintRanges(text); }, mb);
  speed[name] = { secrets: secretsSpeed, both: bothSpeed, ref: refSpeed };
  row(`${name} (${mb.toFixed(2)} MB): MB/s, secrets only (CPU; wall)`, `${f1(secretsSpeed.cpu)} (${f1(secretsSpeed.wall)})`, `${f1(refSpeed.cpu)} (${f1(refSpeed.wall)})`, `${(secretsSpeed.cpu / refSpeed.cpu).toFixed(1)}×`);
  row(`${name}: MB/s, secrets + PII (CPU; wall)`, `${f1(bothSpeed.cpu)} (${f1(bothSpeed.wall)})`, `${f1(refSpeed.cpu)} (${f1(refSpeed.wall)}) secrets only`, `${(bothSpeed.cpu / refSpeed.cpu).toFixed(1)}×`);
}

// ---- secret detection quality on the generated set (same texts for both)
const covered = (ranges: [number, number][], s: { start: number; end: number }) => {
  const mask = new Uint8Array(s.end - s.start);
  for (const [a, b] of ranges) for (let i = Math.max(a, s.start); i < Math.min(b, s.end); i++) mask[i - s.start] = 1;
  return mask.every((x) => x === 1);
};
async function quality(cases: readonly Case[], find: (text: string) => Promise<[number, number][]> | [number, number][]) {
  let gold = 0, found = 0, regions = 0, falsePositives = 0;
  const all = joinCases(cases);
  const ranges = await find(all.text);
  for (const s of all.spans) { gold++; if (covered(ranges, s)) found++; }
  for (const r of ranges) { regions++; if (!all.spans.some((s) => s.start < r[1] && r[0] < s.end)) falsePositives++; }
  return { recall: found / gold, precision: regions === 0 ? 1 : (regions - falsePositives) / regions, falsePositives, gold };
}
const kitFind = (t: string) => kitSecrets.redact(t).spans.map((s) => [s.start, s.end] as [number, number]);
for (const [name, cases] of [[`generated secrets set (every claimed shape; ${secrets.filter((c) => c.spans.length === 0).length} near-miss texts)`, secrets], ['secrets sampled from gitleaks\' own regexes', gitleaks]] as const) {
  const kitQ = await quality(cases, kitFind);
  const refQ = await quality(cases, secretlintRanges);
  row(`${name}: recall (${kitQ.gold} secrets)`, kitQ.recall.toFixed(4), refQ.recall.toFixed(4), (kitQ.recall / Math.max(refQ.recall, 1e-9)).toFixed(2) + '×');
  row(`${name}: precision (false positives)`, `${kitQ.precision.toFixed(4)} (${kitQ.falsePositives})`, `${refQ.precision.toFixed(4)} (${refQ.falsePositives})`, '');
}
const squadText = joinCases(squad).text;
row('SQuAD contexts: secret findings (all false)', String(kitFind(squadText).length), String((await secretlintRanges(squadText)).length), '');

// ---- phone quality and size per metadata flavour
function phoneQuality(parse: ParsePhone) {
  const find = createPhoneFinder({ parse });
  let gold = 0, found = 0, regions = 0, correct = 0;
  for (const c of presidio) {
    const out: Detection[] = [];
    find(c.text, out);
    const ranges = out.map((d) => [d.start, d.end] as [number, number]);
    for (const s of c.spans) if (s.kind === 'phone') { gold++; if (covered(ranges, s)) found++; }
    for (const r of ranges) { regions++; if (c.spans.some((s) => s.kind === 'phone' && s.start < r[1] && r[0] < s.end)) correct++; }
  }
  return { recall: found / gold, precision: correct / Math.max(regions, 1) };
}
async function gzipKb(contents: string): Promise<number> {
  const out = await build({ stdin: { contents, resolveDir: process.cwd(), loader: 'ts' }, bundle: true, minify: true, format: 'esm', target: 'es2022', platform: 'browser', write: false });
  return gzipSync(out.outputFiles[0]!.contents, { level: 9 }).length / 1024;
}
const flavours = { min: phoneMin, mobile: phoneMobile, max: phoneMax } as const;
const phoneRows: string[] = [];
for (const [name, lib] of Object.entries(flavours)) {
  const q = phoneQuality(lib.parsePhoneNumberFromString as ParsePhone);
  const kb = await gzipKb(`export { parsePhoneNumberFromString } from 'libphonenumber-js/${name}';`);
  phoneRows.push(`| ${name} | ${q.precision.toFixed(4)} | ${q.recall.toFixed(4)} | ${kb.toFixed(1)} KB |`);
}

// The SDK's view: the redaction entry with its lazy chunks split off, as webpack/esbuild code-splitting does.
const split = await build({
  entryPoints: ['core/redaction/index.ts'], bundle: true, minify: true, format: 'esm', target: 'es2022', platform: 'browser', splitting: true, outdir: '.tmp/bench-redaction-chunks', write: false,
});
const chunkSizes = split.outputFiles.map((f) => ({ name: f.path.split('/').pop()!, kb: gzipSync(f.contents, { level: 9 }).length / 1024, text: f.text }));
const entryKb = chunkSizes.find((c) => c.name === 'index.js')!.kb;
const phoneKb = chunkSizes.filter((c) => c.text.includes('parsePhoneNumber') || /libphonenumber|countryCallingCodes|country_calling_codes/.test(c.text)).reduce((n, c) => n + c.kb, 0);
const re2Kb = chunkSizes.filter((c) => /RE2JS/.test(c.text)).reduce((n, c) => n + c.kb, 0);
row('bundle (gzip): redaction entry, loaded with the SDK', `${entryKb.toFixed(1)} KB`, '', '');
row('bundle (gzip): phone chunk (libphonenumber-js min), lazy when pii is on', `${phoneKb.toFixed(1)} KB`, '', '');
row('bundle (gzip): linear-time regex chunk (re2js), lazy when custom patterns exist', `${re2Kb.toFixed(1)} KB`, '', '');

const page = speed['page text']!;
const goal = page.both.cpu >= 50;
const md = [
  '## redaction',
  '',
  'Kit redactor vs secretlint 12 (`@secretlint/core` lintSource, preset-recommend) on the same texts; MB = UTF-8 megabytes,',
  'per second of process CPU time on one core (wall-clock in parentheses; the 2-core machine was shared with other jobs).',
  'secretlint finds secrets only, so "secrets only" is the like-for-like row.',
  '',
  '| metric | Kit | secretlint | ratio |',
  '|---|---|---|---|',
  ...rows,
  '',
  'Phone numbers on Presidio (92 gold phones) per libphonenumber-js metadata flavour, and its parse function\'s gzip size:',
  '',
  '| metadata | phone precision | phone recall | gzip |',
  '|---|---|---|---|',
  ...phoneRows,
  '',
  `Goal ≥ 50 MB/s of page text on one core (secrets + PII): **${goal ? 'met' : 'missed'}** — ${f1(page.both.cpu)} MB/s of CPU time, ${f1(page.both.wall)} MB/s wall-clock`,
  `(load average ${loadavg().map((x) => x.toFixed(1)).join(' / ')} on 2 cores at the end of the run: wall-clock figures include time spent waiting for a core).`,
  'Dense PII (Presidio joined) is slower: libphonenumber-js validation of each phone-shaped number dominates.',
  '',
  'Reproduce: `npm run bench -- redaction` (machine: 2-core, Node 20).',
  '',
].join('\n');
mkdirSync('.tmp', { recursive: true });
writeFileSync('.tmp/bench-redaction.md', md);
console.log(md);
