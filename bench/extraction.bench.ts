/**
 * Main-content extraction: Kit's extractFromHtml beside plain @mozilla/readability (parse, `new Readability(doc).parse()`,
 * its `textContent`) on the same pages — mozilla/readability's 130 test pages (../shared/eval/pages, or KIT_EVAL_PAGES) —
 * in Node (linkedom DOM, what eval and tests use) and in headless Chromium (native DOMParser, what visitors run).
 * Quality: word-token F1 against each page's expected.html, as `npm run eval -- extraction` scores it.
 * Writes the section to .tmp/bench-extraction.md.  Run: npm run bench -- extraction
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { Readability } from '@mozilla/readability';
import { extractFromHtml } from '../adapters/browser/extract-from-html.js';
import { DEFAULT_CASE_URL, htmlToText, parseHtmlNode, tokenF1, wordTokens } from '../scripts/eval/extraction.js';
import { CHROMIUM_PATH, launchChromium, newTestPage } from '../test/support/chromium.js';

const dir = resolve(process.env.KIT_EVAL_PAGES ?? '../shared/eval/pages');
const names = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'expected.html'))).map((d) => d.name).sort();
const pages = names.map((name) => ({
  name,
  html: readFileSync(join(dir, name, 'source.html'), 'utf8'),
  expected: wordTokens(htmlToText(readFileSync(join(dir, name, 'expected.html'), 'utf8'))),
}));
const megachars = pages.reduce((s, p) => s + p.html.length, 0) / 1e6;

type Run = { kitMs: number[]; refMs: number[]; kitText: string[]; refText: string[] };

async function runNode(): Promise<Run> {
  const run: Run = { kitMs: [], refMs: [], kitText: [], refText: [] };
  const kit = async (html: string) => (await extractFromHtml(html, DEFAULT_CASE_URL, { parseHtml: parseHtmlNode }))?.text ?? '';
  const ref = (html: string) => new Readability(parseHtmlNode(html)).parse()?.textContent ?? '';
  for (const p of pages.slice(0, 10)) { await kit(p.html); ref(p.html); } // warm-up (JIT, lazy import)
  for (const [i, p] of pages.entries()) {
    globalThis.gc?.();
    // Alternate which goes first, so neither always inherits the other's garbage.
    for (const which of i % 2 ? ['ref', 'kit'] : ['kit', 'ref']) {
      const t = performance.now();
      const text = which === 'kit' ? await kit(p.html) : ref(p.html);
      const ms = performance.now() - t;
      if (which === 'kit') { run.kitMs.push(ms); run.kitText.push(text); } else { run.refMs.push(ms); run.refText.push(text); }
    }
  }
  return run;
}

async function runChromium(): Promise<Run | null> {
  if (!existsSync(CHROMIUM_PATH)) return null;
  const bundle = await build({
    stdin: { contents: "export { extractFromHtml } from './adapters/browser/extract-from-html.ts'; export { Readability } from '@mozilla/readability';", resolveDir: process.cwd(), loader: 'ts' },
    bundle: true, format: 'iife', globalName: 'Bench', target: 'es2022', write: false, minify: true,
  });
  const browser = await launchChromium();
  try {
    const page = await newTestPage(browser);
    await page.setContent('<!doctype html><title>bench</title>');
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    const run: Run = { kitMs: [], refMs: [], kitText: [], refText: [] };
    const measure = (html: string, first: 'kit' | 'ref', timed: boolean) => page.evaluate(async ({ html, first, url }) => {
      const api = (window as any).Bench;
      const out: Record<string, { ms: number; text: string }> = {};
      // Best of 3 per engine and page: the browser is fast enough, and the minimum is the figure least moved by
      // other load on a shared machine.
      for (let round = 0; round < 3; round++) {
        for (const which of first === 'kit' ? ['kit', 'ref'] : ['ref', 'kit']) {
          const t = performance.now();
          const text = which === 'kit'
            ? (await api.extractFromHtml(html, url))?.text ?? ''
            : new api.Readability(new DOMParser().parseFromString(html, 'text/html')).parse()?.textContent ?? '';
          const ms = performance.now() - t;
          if (!out[which] || ms < out[which].ms) out[which] = { ms, text };
        }
      }
      return out;
    }, { html, first, url: DEFAULT_CASE_URL }).then((r) => {
      if (!timed) return;
      run.kitMs.push(r.kit!.ms); run.kitText.push(r.kit!.text);
      run.refMs.push(r.ref!.ms); run.refText.push(r.ref!.text);
    });
    for (const p of pages.slice(0, 10)) await measure(p.html, 'kit', false);
    for (const [i, p] of pages.entries()) await measure(p.html, i % 2 ? 'ref' : 'kit', true);
    return run;
  } finally {
    await browser.close();
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
const meanF1 = (texts: string[]) => mean(texts.map((t, i) => tokenF1(wordTokens(t), pages[i]!.expected).f1));
const f = (v: number, d = 2) => v.toFixed(d);

function rows(label: string, run: Run): string[] {
  const kitF1 = meanF1(run.kitText);
  const refF1 = meanF1(run.refText);
  return [
    `| ${label}: ms per page, mean | ${f(mean(run.kitMs))} | ${f(mean(run.refMs))} | ${f(mean(run.kitMs) / mean(run.refMs))} |`,
    `| ${label}: ms per page, median | ${f(median(run.kitMs))} | ${f(median(run.refMs))} | ${f(median(run.kitMs) / median(run.refMs))} |`,
    `| ${label}: token F1 vs expected.html | ${f(kitF1, 4)} | ${f(refF1, 4)} | ${f(kitF1 / refF1, 3)} |`,
  ];
}

/** Issue 3 §6 sets no numeric goal (it asks for the figures); Kit's own aim: ≤ 10 % over plain Readability's mean time at equal or better F1. */
function verdict(run: Run): string {
  const ratio = mean(run.kitMs) / mean(run.refMs);
  const f1Ok = meanF1(run.kitText) >= meanF1(run.refText);
  const met = ratio <= 1.1 && f1Ok;
  return `Goal (Kit's own; issue 3 §6 sets none): ≤ 1.10× plain Readability's mean time at equal or better F1 — ${met ? 'met' : 'missed'} `
    + `(${f(ratio)}×, F1 ${f1Ok ? 'equal or better' : 'lower'}). The extra is the DOM-to-text walk over the article (about 1 ms a page in Chromium). `
    + 'Timings vary by up to 2× between runs on this shared 2-core machine (other jobs); the ratios, measured in one run, vary far less.';
}

const node = await runNode();
const chromium = await runChromium();
const table = [
  '| metric | Kit (extractFromHtml) | reference (plain Readability) | ratio |',
  '|---|---|---|---|',
  ...rows('Node 20 + linkedom, parse + extract', node),
  ...(chromium ? rows('Chromium, DOMParser + extract', chromium) : []),
];
const body = [
  `${pages.length} pages (${f(megachars, 1)} M characters of HTML), mozilla/readability test-pages; 2-core machine; Node: each page once per engine; Chromium: best of 3 per engine and page; 10-page warm-up, order alternated.`,
  '',
  ...table,
  '',
  'Reference = what a plain integration does: Readability, then its `textContent`. Kit = the same Readability plus a block-aware',
  'DOM-to-text walk (paragraphs and list items stay apart instead of fusing into one token), headings, and the fallback.',
  'Note: expected.html is Readability\'s own output (the reference pages of its test suite), so Kit\'s F1 near 1 shows a faithful',
  'integration, not a better extractor; the reference\'s lower F1 comes from `textContent` fusing words across blocks.',
  '',
  verdict(chromium ?? node),
  '',
  'Reproduce: `npm run bench -- extraction` (pages: ../shared/eval/pages or KIT_EVAL_PAGES).',
];
console.log(body.join('\n'));
mkdirSync('.tmp', { recursive: true });
writeFileSync('.tmp/bench-extraction.md', ['## extraction', '', ...body, ''].join('\n'));
