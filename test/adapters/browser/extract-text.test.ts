import { expect } from 'chai';
import { domToText } from '../../../adapters/browser/extract-text.js';
import { parseHtmlNode } from '../../../scripts/eval/extraction.js';

const body = (html: string) => parseHtmlNode(`<!doctype html><html><body>${html}</body></html>`).body;

describe('domToText', () => {
  it('separates blocks that textContent would fuse into one word', () => {
    const root = body('<p>first</p><p>second</p><ul><li>one</li><li>two</li></ul><div>a<br>b</div><table><tr><td>x</td><td>y</td></tr></table>');
    expect(root.textContent).to.include('firstsecond');
    expect(domToText(root).text).to.equal('first\n\nsecond\n\none\ntwo\n\na\nb\n\nx y');
  });

  it('collects headings with their level in document order, and keeps them in the text', () => {
    const { text, headings } = domToText(body('<h1>Title <em>here</em></h1><p>x</p><section><h3>Deep</h3></section><h2>  </h2>'));
    expect(headings).to.deep.equal([{ level: 1, text: 'Title here' }, { level: 3, text: 'Deep' }]);
    expect(text).to.equal('Title here\n\nx\n\nDeep');
  });

  it('never reads scripts, styles, templates or SVG', () => {
    const { text } = domToText(body('<p>kept</p><script>var secret = 1;</script><style>p{}</style><template><p>t</p></template><svg><text>svg</text></svg><noscript>ns</noscript>'));
    expect(text).to.equal('kept');
  });

  it('leaves out navigation, asides, forms, hidden and landmark furniture only when asked', () => {
    const html = '<header><a>Home</a></header><nav>Menu links</nav><main><article><header><h1>Story</h1></header><p>Body text.</p><footer>By Ann</footer></article></main>'
      + '<aside>Related</aside><div role="navigation">More links</div><div hidden>hid</div><div style="display: none">gone</div><p aria-hidden="true">aria</p><form><button>Go</button></form><footer>© Site</footer>';
    expect(domToText(body(html), { skipFurniture: true }).text).to.equal('Story\n\nBody text.\n\nBy Ann');
    expect(domToText(body(html)).text).to.include('Menu links');
  });

  it('keeps line breaks inside pre', () => {
    expect(domToText(body('<pre>line 1\nline 2</pre>')).text).to.equal('line 1\nline 2');
  });

  it('walks a 20,000-deep DOM without overflowing the stack', () => {
    const deep = '<div>'.repeat(20_000) + 'bottom' + '</div>'.repeat(20_000);
    expect(domToText(body(deep)).text).to.equal('bottom');
  });
});
