import { expect } from 'chai';
import { build, transform, type Plugin } from 'esbuild';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { SHARED_EVAL } from '../../../scripts/eval/qa-data.js';
import { CHROMIUM_PATH, launchChromium, newTestPage } from '../../support/chromium.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const FIXTURES = join(here, 'fixtures/pages');

/** The SDK's transform of Readability.js (webpack.config.js `readabilityPrivates`): private members mangled, bar those it reserves. */
function sdkReadabilityTransform(): Plugin {
  const config = readFileSync(join(root, 'webpack.config.js'), 'utf8');
  const reserved = /reserveProps: \/(.+?)\/ \}/.exec(config)?.[1];
  if (!reserved) throw new Error('webpack.config.js: no reserveProps in readabilityPrivates');
  return {
    name: 'sdk-readability',
    setup(b) {
      b.onLoad({ filter: /[\\/]@mozilla[\\/]readability[\\/]Readability\.js$/ }, async (args) => ({
        contents: (await transform(readFileSync(args.path, 'utf8'), { loader: 'js', target: 'es2022', mangleProps: /^_/, reserveProps: new RegExp(reserved) })).code,
        loader: 'js',
      }));
    },
  };
}

/** Pages whose markup meets each override: inline styles, ARIA, bylines, `javascript:` and relative links, classes. */
const CRAFTED = [
  `<html><head><title>Styles</title></head><body><article><h1>Styles</h1>${'<p class="lead x">Visible text of a paragraph long enough to be counted by the scorer, with commas, and more words.</p>'.repeat(4)}
   <p style="display:none">Hidden by an inline style.</p><div style="visibility: hidden"><p>${'Invisible. '.repeat(30)}</p></div><p style="color:red">Red but shown, with enough words.</p>
   <div hidden><p>Hidden attribute text.</p></div><div aria-hidden="true"><p>ARIA hidden.</p></div><div aria-hidden="true" class="fallback-image"><p>A math fallback image's text.</p></div></article></body></html>`,
  `<html><head><title>Bylines</title></head><body><div class="byline">By Ada Lovelace</div><a rel="author" href="/ada">Ada</a><span itemprop="author"><span itemprop="name">Ada L.</span></span>
   <article><h1>Bylines</h1>${'<p>Text of the article, long enough to be the article, with commas, clauses, and words.</p>'.repeat(5)}<p class="author-note">${'A very long note by the author that is not a byline. '.repeat(5)}</p></article></body></html>`,
  `<html><head><title>Links</title><base href="https://b.example/x/"></head><body><article><h1>Links</h1>${'<p>See <a href="javascript:void(0)">this link</a> and <a href="javascript:go()"><b>bold</b> <i>link</i></a>, <a href="../rel">a relative one</a>, <img src="i.png" srcset="i.png 1x, j.png 2x" alt="x"> and <a href="#top">an anchor</a>, with more words.</p>'.repeat(5)}</article></body></html>`,
];

describe('leanReadability (Chromium, the SDK build of Readability)', function () {
  this.timeout(120_000);
  let browser: Browser;
  let page: Page;

  before(async function () {
    if (!existsSync(CHROMIUM_PATH)) return this.skip();
    const bundle = await build({
      stdin: {
        contents: `export { extractFromHtml } from './adapters/browser/extract-from-html.ts'; export { leanReadability } from './adapters/browser/lean-readability.ts';
          export { loadReadability } from './adapters/browser/readability-loader.ts'; export const stock = (Base) => Base;`,
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true, format: 'iife', globalName: 'Lean', target: 'es2022', write: false, plugins: [sdkReadabilityTransform()],
    });
    browser = await launchChromium();
    page = await newTestPage(browser);
    await page.setContent('<!doctype html><title>lean</title>');
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  });
  after(async () => { await browser?.close(); });

  it('overrides members the SDK build keeps by name', async () => {
    const names = await page.evaluate(async () => {
      const api = (window as any).Lean;
      const Base = await api.loadReadability();
      const own = Object.getOwnPropertyNames(api.leanReadability(Base).prototype).filter((n) => n !== 'constructor');
      return { own, inBase: own.filter((n) => typeof Base.prototype[n] === 'function') };
    });
    expect(names.own).to.have.length(3);
    expect(names.inBase).to.deep.equal(names.own);
  });

  it('reads the same title, text, headings and method as Readability itself on every test page', async () => {
    const sources = [
      ...readdirSync(FIXTURES).filter((n) => existsSync(join(FIXTURES, n, 'source.html'))).map((n) => readFileSync(join(FIXTURES, n, 'source.html'), 'utf8')),
      ...(existsSync(join(SHARED_EVAL, 'pages')) ? readdirSync(join(SHARED_EVAL, 'pages')).filter((n) => existsSync(join(SHARED_EVAL, 'pages', n, 'source.html')))
        .map((n) => readFileSync(join(SHARED_EVAL, 'pages', n, 'source.html'), 'utf8')) : []),
      ...CRAFTED,
    ];
    const differing = await page.evaluate(async (htmls) => {
      const api = (window as any).Lean;
      const out: number[] = [];
      for (let i = 0; i < htmls.length; i++) {
        const stock = await api.extractFromHtml(htmls[i], 'https://a.example/dir/page.html', { readability: api.stock });
        const lean = await api.extractFromHtml(htmls[i], 'https://a.example/dir/page.html', { readability: api.leanReadability });
        if (JSON.stringify(stock) !== JSON.stringify(lean)) out.push(i);
      }
      return out;
    }, sources);
    expect(sources.length).to.be.at.least(CRAFTED.length + 5);
    expect(differing).to.deep.equal([]);
  });
});
