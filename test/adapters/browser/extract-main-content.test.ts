import { expect } from 'chai';
import { extractMainContent } from '../../../adapters/browser/extract-main-content.js';
import { parseHtmlNode } from '../../../scripts/eval/extraction.js';

const URL_ = 'https://shop.example/guide';
const paragraph = (i: number) => `<p>Paragraph ${i} explains, in several complete sentences, how the product works and why it matters to the people who use it every day, with details, numbers and examples.</p>`;
const ARTICLE = `<!doctype html><html lang="en"><head><title>Guide | Shop</title></head><body>
  <nav><a href="/">Home</a><a href="/pricing">Pricing</a></nav>
  <article><h1>Guide</h1><h2>Setup</h2>${paragraph(1)}${paragraph(2)}<h2>Usage</h2>${paragraph(3)}${paragraph(4)}${paragraph(5)}</article>
  <footer>© Shop 2024 · Terms · Privacy</footer></body></html>`;

describe('extractMainContent', () => {
  it('returns the article text, title, headings and language via Readability', async () => {
    const content = await extractMainContent(parseHtmlNode(ARTICLE), URL_);
    expect(content.method).to.equal('readability');
    expect(content.title).to.equal('Guide | Shop');
    expect(content.lang).to.equal('en');
    expect(content.headings.map((h) => h.text)).to.include.members(['Setup', 'Usage']);
    expect(content.text).to.include('Paragraph 1 explains').and.include('Paragraph 5 explains');
    expect(content.text).not.to.include('Privacy');
    expect(content.text).not.to.include('Pricing');
  });

  it('leaves the live document untouched', async () => {
    const doc = parseHtmlNode(ARTICLE);
    const before = doc.documentElement.outerHTML;
    await extractMainContent(doc, URL_);
    expect(doc.documentElement.outerHTML).to.equal(before);
  });

  it('falls back to the body text minus furniture when Readability finds too little', async () => {
    const html = `<!doctype html><html><head><title>Pricing</title></head><body><header><a>Home</a></header><nav>Docs Blog</nav>
      <main><h1>Plans</h1><ul><li>Starter: 9 € per month</li><li>Pro: 29 € per month</li><li>Business: 99 € per month</li></ul>
      <table><tr><th>Seats</th><td>1</td><td>5</td><td>50</td></tr></table></main><footer>Legal</footer></body></html>`;
    const content = await extractMainContent(parseHtmlNode(html), URL_, { minReadableChars: 10_000 });
    expect(content.method).to.equal('fallback');
    expect(content.title).to.equal('Pricing');
    expect(content.text).to.include('Pro: 29 € per month').and.include('Seats: 1; 5; 50');
    expect(content.text).not.to.match(/Docs Blog|Legal|Home/);
    expect(content.headings).to.deep.equal([{ level: 1, text: 'Plans' }]);
  });

  it('falls back when Readability refuses the document (over maxElemsToParse)', async () => {
    const content = await extractMainContent(parseHtmlNode(ARTICLE), URL_, { maxElemsToParse: 5 });
    expect(content.method).to.equal('fallback');
    expect(content.text).to.include('Paragraph 3 explains');
    expect(content.text).not.to.include('Privacy');
  });

  it('titles an untitled page by its first heading, else its URL', async () => {
    const withHeading = await extractMainContent(parseHtmlNode('<html><body><h2>Only heading</h2><p>Some text.</p></body></html>'), URL_);
    expect(withHeading.title).to.equal('Only heading');
    const bare = await extractMainContent(parseHtmlNode('<html><body><p>Some text.</p></body></html>'), URL_);
    expect(bare.title).to.equal(URL_);
    expect(bare.text).to.equal('Some text.');
  });
});
