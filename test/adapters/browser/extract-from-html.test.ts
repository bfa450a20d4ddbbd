import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractFromHtml } from '../../../adapters/browser/extract-from-html.js';
import { DEFAULT_CASE_URL, htmlToText, parseHtmlNode, tokenF1, wordTokens } from '../../../scripts/eval/extraction.js';

const PAGES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/pages');
/** Every page must reach this token F1 against mozilla/readability's expected content (the full set: npm run eval -- extraction). */
const MIN_F1 = 0.95;

describe('extractFromHtml', () => {
  const cases = readdirSync(PAGES, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

  it('has fixture pages to walk', () => {
    expect(cases.length).to.be.at.least(5);
  });

  for (const name of cases) {
    it(`extracts the main content and title of test page "${name}"`, async () => {
      const read = (file: string) => readFileSync(join(PAGES, name, file), 'utf8');
      const metadata = JSON.parse(read('expected-metadata.json')) as { title: string };
      const content = await extractFromHtml(read('source.html'), DEFAULT_CASE_URL, { parseHtml: parseHtmlNode });
      expect(content).not.to.equal(null);
      const score = tokenF1(wordTokens(content!.text), wordTokens(htmlToText(read('expected.html'))));
      expect(score.f1, `token F1 (P ${score.precision.toFixed(3)}, R ${score.recall.toFixed(3)})`).to.be.at.least(MIN_F1);
      expect(content!.title).to.equal(metadata.title);
    });
  }

  it('returns null for a page without readable text', async () => {
    expect(await extractFromHtml('<html><head><title>Empty</title><script>x()</script></head><body> <style>p{}</style> <img src="a.png"> </body></html>', 'https://a.example/', { parseHtml: parseHtmlNode })).to.equal(null);
  });
});
