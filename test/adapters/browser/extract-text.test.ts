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

  it('renders each row of a table with a header row as "column: value" pairs, one row a line', () => {
    const table = '<p>Plans:</p><table><caption>Memberships</caption><thead><tr><th>Plan</th><th>Price</th><th>Included</th></tr></thead>'
      + '<tbody><tr><td>Summit</td><td>$49 per year</td><td><ul><li>Free shipping</li><li>One repair</li></ul></td></tr>'
      + '<tr><td>Trailhead</td><td>$0</td><td></td></tr></tbody></table><p>After.</p>';
    expect(domToText(body(table)).text).to.equal('Plans:\n\nMemberships\nPlan: Summit; Price: $49 per year; Included: Free shipping, One repair\nPlan: Trailhead; Price: $0\n\nAfter.');
  });

  it('names a row by its leading header cell, and follows column spans', () => {
    expect(domToText(body('<table><tr><th>Weight</th><td>1.8 kg</td></tr><tr><th>Colours</th><td>green</td><td>grey</td></tr></table>')).text)
      .to.equal('Weight: 1.8 kg\nColours: green; grey');
    expect(domToText(body('<table><tr><th></th><th colspan="2">Pro</th><th>Max</th></tr><tr><th>Seats</th><td>5</td><td>6</td><td>50</td></tr></table>')).text)
      .to.equal('Seats; Pro: 5; Pro: 6; Max: 50');
  });

  it('keeps a layout table without header cells as cells separated by spaces', () => {
    expect(domToText(body('<table><tr><td>Photo</td><td>Caption text</td></tr><tr><td>Next</td><td>row</td></tr></table>')).text).to.equal('Photo Caption text\nNext row');
  });

  it('keeps line breaks inside pre', () => {
    expect(domToText(body('<pre>line 1\nline 2</pre>')).text).to.equal('line 1\nline 2');
  });

  it('walks a 20,000-deep DOM without overflowing the stack', () => {
    const deep = '<div>'.repeat(20_000) + 'bottom' + '</div>'.repeat(20_000);
    expect(domToText(body(deep)).text).to.equal('bottom');
  });
});
