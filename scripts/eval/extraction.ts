/**
 * `npm run eval -- extraction <file.jsonl>` (CONTRACT §9): Kit's main-content extraction against reference
 * content. A case is `{ html_file, expected_file, url? }`, paths relative to the JSONL file; expected_file is HTML
 * (mozilla/readability's expected.html) turned into text by the same DOM-to-text walk Kit uses.
 * Metrics: n, precision, recall, f1 — word-token overlap (multiset), averaged over pages — and ms_per_page
 * (parse + extraction, linkedom in Node; a browser's native DOMParser is faster).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DOMParser } from 'linkedom';
import { extractFromHtml } from '../../adapters/browser/extract-from-html.js';
import { domToText } from '../../adapters/browser/extract-text.js';
import { CaseError, requireObject, requireString, type EvalSuite } from './suite.js';

/** One extraction case. */
export interface ExtractionCase {
  readonly htmlFile: string;
  readonly expectedFile: string;
  readonly url: string;
}

/** The URL mozilla/readability's test harness gives every test page. */
export const DEFAULT_CASE_URL = 'http://fakehost/test/page.html';

/** Parses HTML in Node with linkedom (the browser uses DOMParser; linkedom offers the same interface). */
export function parseHtmlNode(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html') as unknown as Document;
}

/** Text of an HTML fragment or document, by Kit's DOM-to-text walk. */
export function htmlToText(html: string): string {
  const doc = parseHtmlNode(/<body[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`);
  return domToText(doc.body ?? doc).text;
}

const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/** Word tokens for scoring: NFKC, lower case, Unicode word segmentation (so Chinese and Japanese pages count words, not whole runs). */
export function wordTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const s of segmenter.segment(text.normalize('NFKC').toLowerCase())) if (s.isWordLike) tokens.push(s.segment);
  return tokens;
}

/** Multiset token overlap of a prediction against a reference. Both empty scores 1; one empty scores 0. */
export function tokenF1(predicted: readonly string[], expected: readonly string[]): { precision: number; recall: number; f1: number } {
  if (predicted.length === 0 || expected.length === 0) {
    const v = predicted.length === expected.length ? 1 : 0;
    return { precision: v, recall: v, f1: v };
  }
  const counts = new Map<string, number>();
  for (const t of expected) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of predicted) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      common++;
      counts.set(t, c - 1);
    }
  }
  const precision = common / predicted.length;
  const recall = common / expected.length;
  return { precision, recall, f1: common === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

export const extractionSuite: EvalSuite<ExtractionCase> = {
  parseCase(value) {
    const c = requireObject(value);
    const url = c.url === undefined ? DEFAULT_CASE_URL : requireString(c, 'url');
    if (!URL.canParse(url)) throw new CaseError('"url" must be an absolute URL');
    return { htmlFile: requireString(c, 'html_file'), expectedFile: requireString(c, 'expected_file'), url };
  },

  async run(cases, { baseDir, log }) {
    let precision = 0;
    let recall = 0;
    let f1 = 0;
    let ms = 0;
    let fallback = 0;
    // Contrasts (not timed): the whole <body> as text, and Kit's fallback walk alone (body minus furniture).
    let f1Body = 0;
    let f1Fallback = 0;
    const f1s: number[] = [];
    for (const [i, c] of cases.entries()) {
      const html = await readFile(resolve(baseDir, c.htmlFile), 'utf8');
      const expected = await readFile(resolve(baseDir, c.expectedFile), 'utf8');
      const started = performance.now();
      const content = await extractFromHtml(html, c.url, { parseHtml: parseHtmlNode });
      ms += performance.now() - started;
      if (content?.method === 'fallback') fallback++;
      const score = tokenF1(wordTokens(content?.text ?? ''), wordTokens(htmlToText(expected)));
      precision += score.precision;
      recall += score.recall;
      f1 += score.f1;
      f1s.push(score.f1);
      const gold = wordTokens(htmlToText(expected));
      f1Body += tokenF1(wordTokens(htmlToText(html)), gold).f1;
      const walk = await extractFromHtml(html, c.url, { parseHtml: parseHtmlNode, minReadableChars: Number.MAX_SAFE_INTEGER });
      f1Fallback += tokenF1(wordTokens(walk?.text ?? ''), gold).f1;
      if ((i + 1) % 20 === 0) log(`extraction: ${i + 1}/${cases.length}`);
    }
    const n = cases.length;
    f1s.sort((a, b) => a - b);
    return {
      n,
      precision: round(precision / n),
      recall: round(recall / n),
      f1: round(f1 / n),
      ms_per_page: round(ms / n, 2),
      median_f1: round(f1s[Math.floor(n / 2)]!),
      pages_f1_below_0_9: f1s.filter((v) => v < 0.9).length,
      fallback_pages: fallback,
      contrast_f1_body_text: round(f1Body / n),
      contrast_f1_fallback_only: round(f1Fallback / n),
    };
  },
};

function round(v: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
