import fc from '../support/fast-check.js';
import { expectEachTerminates } from '../support/terminates.js';
import { scanners, type ScannerName } from './scanner-entry-points.js';

const MODULE = new URL('./scanner-entry-points.ts', import.meta.url).href;

// Pieces the scanners treat specially (markup, escapes, separators, anchors of secrets and numbers), in any order.
const PIECES = [
  '<', '>', '/', '<urlset>', '</urlset>', '<url>', '</url>', '<loc>', '</loc>', '<sitemapindex>', '<!--', '-->', '<![CDATA[', ']]>',
  '&amp;', '&#x41;', '&', '#', ';', '@', '.', ',', ':', '://', '=', '"', "'", ' ', '  ', '\n', '\t', '\r\n', '-', '_', '+', '(', ')',
  '[', ']', '[1', '[source 2]', '\\', '\\u{', '\\k<', '{', '}', '?', '!', '…', '。', '」', 'a', 'Z', 'é', '中文', '0', '42', '4111',
  'DE89 3704 0044 0532 0130 00', 'sk_live_', 'eyJ', '-----BEGIN', '-----END', 'password=', 'Bearer ', 'e.g.', 'Dr.', '\u00a0', '\u200b',
];
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

describe('core text scanners', function () {
  this.timeout(120_000);

  for (const name of Object.keys(scanners) as ScannerName[]) {
    it(`${name} returns for every generated input (each scan step advances)`, async () => {
      const inputs = fc.sample(text, 400).map((s) => [name, s] as const);
      await expectEachTerminates(MODULE, 'runScanner', inputs);
    });
  }
});
