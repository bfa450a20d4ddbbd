import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, newTestPage, TSX_EVALUATE_SHIM } from '../../support/chromium.js';
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
  ['See [1] and [12].', '<p>See <sup>1</sup> and <sup>12</sup>.</p>'],
  ['<img src=x onerror=alert(1)>', '<p>&lt;img src=x onerror=alert(1)&gt;</p>'],
  ['**<script>alert(1)</script>**', '<p><strong>&lt;script&gt;alert(1)&lt;/script&gt;</strong></p>'],
  ['[link](javascript:alert(1))', '<p>[link](javascript:alert(1))</p>'],
  ['```js\n<b>x</b>\n```', '<p>```js<br>&lt;b&gt;x&lt;/b&gt;<br>```</p>'],
  ['-not a list', '<p>-not a list</p>'],
];

/** The rich renderer (a lazy chunk): everything above renders the same, plus these. */
const RICH_CASES: readonly [string, string][] = [
  ['```js\n<b>x</b>\n  y\n```\nafter', '<pre><code>&lt;b&gt;x&lt;/b&gt;\n  y</code><button type="button" class="cp" data-copy="code" aria-label="Copy code" title="Copy code"></button></pre><p>after</p>'],
  ['```\nstill streaming', '<pre><code>still streaming</code></pre>'],
  ['*it* and _it_ but snake_case_name and 2*3*4', '<p><em>it</em> and <em>it</em> but snake_case_name and 2<em>3</em>4</p>'],
  ['> quoted **bold**\n> more', '<blockquote><p>quoted <strong>bold</strong><br>more</p></blockquote>'],
  ['| A | B |\n|---|:-:|\n| 1 | *x* |', '<div class="tw" tabindex="0"><table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td><em>x</em></td></tr></tbody></table></div>'],
  ['[Docs](https://example.com/docs) [mail](mailto:help@example.com)', '<p><a href="https://example.com/docs" target="_blank" rel="noopener noreferrer">Docs</a> <a href="mailto:help@example.com">mail</a></p>'],
  ['[x](javascript:alert(1)) [y](data:text/html,1) [z](vbscript:msgbox)', '<p>x y z</p>'],
  ['see https://example.com/a.', '<p>see <a href="https://example.com/a" target="_blank" rel="noopener noreferrer">https://example.com/a</a>.</p>'],
  ['a\n\n---\n\nb', '<p>a</p><hr><p>b</p>'],
  // A citation marker followed by a link's (url) is the link's text; alone it stays a marker (text without `cite`).
  ['[1](https://example.com/) and [2]', '<p><a href="https://example.com/" target="_blank" rel="noopener noreferrer">1</a> and [2]</p>'],
  // The base blocks around rich ones: a list before a quote, a paragraph after a table, a heading with inline syntax.
  ['- a\n> q\nafter\n## *T*', '<ul><li>a</li></ul><blockquote><p>q</p></blockquote><p>after</p><p><strong><em>T</em></strong></p>'],
  ['| A |\n|---|\n| 1 |\nnext', '<div class="tw" tabindex="0"><table><thead><tr><th>A</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table></div><p>next</p>'],
];

const ALLOWED = new Set(['p', 'br', 'ul', 'ol', 'li', 'strong', 'code', 'sup']);

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
    await page.evaluate(TSX_EVALUATE_SHIM); // about:blank runs no init script
    await page.addScriptTag({ content: await pageBundle('markdown.ts', 'KitMarkdown') });
    await page.addScriptTag({ content: await pageBundle('rich-markdown.ts', 'KitRich') });
  });
  afterEach(async () => {
    await page.close();
  });

  it('renders each fixture to the expected DOM', async () => {
    const html = await page.evaluate((inputs) => inputs.map((text) => {
      const div = document.createElement('div');
      div.append(window.KitMarkdown.renderMarkdown(text, document, { cite: (n) => Object.assign(document.createElement('sup'), { textContent: String(n) }) }));
      return div.innerHTML;
    }), CASES.map(([input]) => input));
    CASES.forEach(([input, expected], i) => expect(html[i], JSON.stringify(input)).to.equal(expected));
  });

  it('renders quotes, fenced code with a copy button, italics, tables, safe links and rules with the rich renderer', async () => {
    const html = await page.evaluate((inputs) => inputs.map((text) => {
      const div = document.createElement('div');
      div.append((window as unknown as { KitRich: { renderRichMarkdown: typeof window.KitMarkdown.renderMarkdown } }).KitRich.renderRichMarkdown(text, document, { copyCode: 'Copy code' }));
      return div.innerHTML;
    }), RICH_CASES.map(([input]) => input));
    RICH_CASES.forEach(([input, expected], i) => expect(html[i], JSON.stringify(input)).to.equal(expected));
  });

  it('cuts streamed text only after finished blocks (never inside a code fence)', async () => {
    const cuts = await page.evaluate(() => ['a\n\nb', 'a\n\n```\nx\n\ny', 'a\n\n```\nx\n```\n\nz', 'no break'].map((t) => window.KitMarkdown.stableLength(t)));
    expect(cuts).to.deep.equal([3, 3, 14, 0]);
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

  it('creates only its elements, safe links and text that is a subsequence of the input with the rich renderer', async () => {
    const token = fc.constantFrom('*', '**', '_', '`', '```', '- ', '1. ', '# ', '> ', '| ', '|---|', '---', ' ', '\n', '\n\n', 'a', 'ש',
      '<', '"', '[x](', ')', '](javascript:alert(1))', '](https://ok.example/)', 'mailto:a@b.example', 'https://x.example/', '[1]',
      '<img src=x onerror=alert(1)>', 'javascript:', 'data:text/html,');
    const inputs = fc.sample(fc.array(token, { maxLength: 40 }).map((parts) => parts.join('')), { numRuns: 400, seed: 20261125 });
    const outputs = await page.evaluate((all) => all.map((md) => {
      const div = document.createElement('div');
      div.append((window as unknown as { KitRich: { renderRichMarkdown: typeof window.KitMarkdown.renderMarkdown } }).KitRich.renderRichMarkdown(md, document, { copyCode: 'Copy' }));
      const elements = [...div.querySelectorAll('*')];
      return {
        tags: elements.map((e) => e.localName),
        hrefs: elements.filter((e) => e.localName === 'a').map((e) => e.getAttribute('href') ?? ''),
        attrs: elements.flatMap((e) => [...e.attributes].map((a) => `${e.localName}[${a.name}]`)),
        text: div.textContent ?? '',
      };
    }), inputs);
    const tags = new Set([...ALLOWED, 'pre', 'em', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'div', 'hr', 'a', 'button', 'span']);
    const attrs = new Set(['ol[start]', 'a[href]', 'a[target]', 'a[rel]', 'div[class]', 'div[tabindex]', 'button[type]', 'button[class]', 'button[data-copy]', 'button[aria-label]', 'button[title]']);
    inputs.forEach((input, i) => {
      const out = outputs[i];
      const label = JSON.stringify(input);
      expect(out.tags.filter((t) => !tags.has(t)), label).to.deep.equal([]);
      expect(out.attrs.filter((a) => !attrs.has(a)), label).to.deep.equal([]);
      expect(out.hrefs.filter((h) => !/^(https?:\/\/|mailto:)/.test(h)), label).to.deep.equal([]);
      expect(isSubsequence(out.text, input), label).to.equal(true);
    });
  });
});
