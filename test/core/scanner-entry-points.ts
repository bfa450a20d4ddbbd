/**
 * One-argument entry points into every text scanner in core/, for test/core/scanners-terminate.test.ts, which calls
 * them in a worker thread (test/support/terminates.ts) so that a scan that stops advancing fails the test instead
 * of freezing the run. Not a test file itself (mocha runs *.test.ts only).
 */
import { vetPattern } from '../../core/config/pattern-safety.js';
import { createCitationMarkerParser } from '../../core/answer/citation-markers.js';
import { decodeXmlText, normalizeUrl, scanSitemap, truncateText } from '../../core/crawl/index.js';
import { cleanText } from '../../core/extraction/clean-text.js';
import { loadRedactor } from '../../core/redaction/index.js';
import { buildCorpus } from '../../core/text/corpus.js';
import { splitSentences } from '../../core/text/sentences.js';
import { tokenize } from '../../core/text/tokenize.js';

const redactor = await loadRedactor({ secrets: true, pii: true, patterns: [/ACME-\d+/g], replacement: '[<KIND>]' });

export const scanners = {
  vetPattern: (s: string) => vetPattern(s),
  splitSentences: (s: string) => splitSentences(s),
  tokenize: (s: string) => tokenize(s),
  cleanText: (s: string) => cleanText(s),
  scanSitemap: (s: string) => scanSitemap(s, { maxEntries: 50 }),
  scanSitemapCapped: (s: string) => scanSitemap(s, { maxEntries: 3, maxChars: 40 }),
  decodeXmlText: (s: string) => decodeXmlText(s),
  normalizeUrl: (s: string) => normalizeUrl(s, 'https://example.com/a/'),
  truncateText: (s: string) => [0, 1, 3, 0.5, 17].map((n) => truncateText(s, n)),
  citationMarkers: (s: string) => {
    const p = createCitationMarkerParser(3);
    for (let i = 0; i < s.length; i += 3) p.push(s.slice(i, i + 3));
    return p.end();
  },
  redact: (s: string) => redactor.redact(s),
  // Odd limits included: a sentence cap below one character must still end (corpus capLength).
  buildCorpus: (s: string) => [1_000, 8, 1, 0.5, 0].map((maxSentenceChars) =>
    buildCorpus([{ url: 'https://example.com/', title: 'T', text: s }], { maxSentenceChars, passageChars: 40, minParagraphChars: 5 })),
};

export type ScannerName = keyof typeof scanners;

/** Runs the scanner named in `[name, input]`. */
export function runScanner(input: readonly [ScannerName, string]): unknown {
  return scanners[input[0]](input[1]);
}
