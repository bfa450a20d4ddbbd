/**
 * Writes the extraction eval's case file over the shared test pages (mozilla/readability's test-pages:
 * `<case>/source.html` + `<case>/expected.html`): `npx tsx scripts/eval/build-extraction-cases.ts [pagesDir] [out]`.
 * Defaults: ../shared/eval/pages → .tmp/eval/extraction.jsonl (git-ignored). Paths in the file are relative to it.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CASE_URL } from './extraction.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pagesDir = resolve(process.argv[2] ?? join(root, '../shared/eval/pages'));
const out = resolve(process.argv[3] ?? join(root, '.tmp/eval/extraction.jsonl'));

const cases = readdirSync(pagesDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(pagesDir, d.name, 'source.html')) && existsSync(join(pagesDir, d.name, 'expected.html')))
  .map((d) => d.name)
  .sort();
mkdirSync(dirname(out), { recursive: true });
const lines = cases.map((name) => JSON.stringify({
  html_file: relative(dirname(out), join(pagesDir, name, 'source.html')),
  expected_file: relative(dirname(out), join(pagesDir, name, 'expected.html')),
  url: DEFAULT_CASE_URL,
}));
writeFileSync(out, lines.join('\n') + '\n');
console.log(`${cases.length} cases → ${relative(process.cwd(), out)}`);
