import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, newTestPage } from '../../support/chromium.js';
import { pageBundle } from './harness.js';

/** [markdown, the HTML the rendered DOM serialises to] */
const CASES: readonly [string, string][] = [
  ['', ''],
  ['Hello world', '<p>Hello world</p>'],
  ['a\nb', '<p>a<br>b</p>'],
  ['a\n\n\nb', '<p>a</p><p>b</p>'],
  ['**bold** and `code`', '<p><strong>bold</strong> and <code>code</code></p>'],
  ['**a** **b**', '<p><strong>a</strong> <strong>b</strong></p>'],
  ['`a**b**`', '<p><code>a**b**</code></p>'],
  ['Unclosed **bold and `code', '<p>Unclosed **bold and `code</p>'],
  ['- one\n* two\n+ three', '<ul><li>one</li><li>two</li><li>three</li></ul>'],
  ['1. a\n   continued\n2) b', '<ol><li>a<br>continued</li><li>b</li></ol>'],
  ['3. three\n4. four', '<ol start="3"><li>three</li><li>four</li></ol>'],
  ['- a\n1. b', '<ul><li>a</li></ul><ol><li>b</li></ol>'],
  ['para\n- item\nafter', '<p>para</p><ul><li>item</li></ul><p>after</p>'],
  ['## Title\ntext', '<p><strong>Title</strong></p><p>text</p>'],
  ['```js\n<b>x</b>\n  y\n```\nafter', '<pre><code>&lt;b&gt;x&lt;/b&gt;\n  y</code></pre><p>after</p>'],
  ['```\nstill streaming', '<pre><code>still streaming</code></pre>'],
  ['<img src=x onerror=alert(1)>', '<p>&lt;img src=x onerror=alert(1)&gt;</p>'],
  ['**<script>alert(1)</script>**', '<p><strong>&lt;script&gt;alert(1)&lt;/script&gt;</strong></p>'],
  ['[link](javascript:alert(1))', '<p>[link](javascript:alert(1))</p>'],
  ['-not a list', '<p>-not a list</p>'],
];

const ALLOWED = new Set(['p', 'br', 'ul', 'ol', 'li', 'strong', 'code', 'pre']);

/** True when `small` can be obtained from `big` by deleting characters. */
function isSubsequence(small: string, big: string): boolean {
  let i = 0;
  for (let j = 0; j < big.length && i < small.length; j++) if (big[j] === small[i]) i++;
  return i === small.length;
}

describe('renderMarkdown', function () {
  let browser: Browser;
  let page: Page;

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    page = await newTestPage(browser);
    await page.addScriptTag({ content: await pageBundle('markdown.ts', 'KitMarkdown') });
  });
  afterEach(async () => {
    await page.close();
  });

  it('renders each fixture to the expected DOM', async () => {
    const html = await page.evaluate((inputs) => inputs.map((text) => {
      const div = document.createElement('div');
      div.append(window.KitMarkdown.renderMarkdown(text, document));
      return div.innerHTML;
    }), CASES.map(([input]) => input));
    CASES.forEach(([input, expected], i) => expect(html[i], JSON.stringify(input)).to.equal(expected));
  });

  it('creates only the subset elements and keeps text a subsequence of the input for any text', async () => {
    const token = fc.constantFrom('*', '**', '`', '```', '- ', '1. ', '# ', ' ', '\n', '\n\n', 'a', 'ש', '<', '>', '"', '&',
      '<img src=x onerror=alert(1)>', '<script>alert(1)</script>', 'javascript:');
    const text = fc.oneof(fc.array(token, { maxLength: 40 }).map((parts) => parts.join('')), fc.string({ unit: 'grapheme', maxLength: 80 }));
    // One round trip for the whole sample: a page.evaluate per run would dominate the test's time.
    const inputs = fc.sample(text, { numRuns: 400, seed: 20261121 });
    const outputs = await page.evaluate((all) => all.map((md) => {
      const div = document.createElement('div');
      div.append(window.KitMarkdown.renderMarkdown(md, document));
      const elements = [...div.querySelectorAll('*')];
      return {
        tags: elements.map((e) => e.localName),
        attrs: elements.flatMap((e) => [...e.attributes].map((a) => `${e.localName}[${a.name}]`)),
        text: div.textContent ?? '',
      };
    }), inputs);
    inputs.forEach((input, i) => {
      const out = outputs[i];
      const label = JSON.stringify(input);
      expect(out.tags.filter((t) => !ALLOWED.has(t)), label).to.deep.equal([]);
      expect(out.attrs.filter((a) => a !== 'ol[start]'), label).to.deep.equal([]);
      expect(isSubsequence(out.text, input), label).to.equal(true);
    });
  });
});
