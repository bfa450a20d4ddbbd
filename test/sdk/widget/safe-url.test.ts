import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { safeHttpUrl } from '../../../sdk/widget/safe-url.js';

const BASE = 'https://shop.example/docs/page';

/** [input, expected href or null] */
const CASES: readonly [unknown, string | null][] = [
  ['https://example.com/a?b=1#c', 'https://example.com/a?b=1#c'],
  ['http://example.com', 'http://example.com/'],
  ['/pricing', 'https://shop.example/pricing'],
  ['faq', 'https://shop.example/docs/faq'],
  ['//cdn.example/x', 'https://cdn.example/x'],
  ['javascript:alert(1)', null],
  [' JaVaScRiPt:alert(1)', null],
  ['java\tscript:alert(1)', null],
  ['java\nscript:alert(1)', null],
  ['\u0000javascript:alert(1)', null],
  ['data:text/html,<script>alert(1)</script>', null],
  ['vbscript:msgbox(1)', null],
  ['file:///etc/passwd', null],
  ['mailto:a@b.example', null],
  ['http://[not-an-ip', null],
  [42, null],
  [undefined, null],
];

describe('safeHttpUrl', () => {
  it('returns the resolved href for http(s) and null for everything else', () => {
    for (const [input, expected] of CASES) expect(safeHttpUrl(input, BASE), JSON.stringify(input)).to.equal(expected);
  });

  it('never returns anything but an http(s) URL for any string', () => {
    fc.assert(
      // fc.webUrl() is too slow here (seconds per few hundred values); scheme × separator × rest covers the cases.
      fc.property(fc.oneof(fc.string(), fc.tuple(
        fc.constantFrom('http', 'https', 'HTTPS', 'javascript', 'JaVaScRiPt', ' javascript', 'java\tscript', 'data', 'vbscript', 'blob', 'file', ''),
        fc.constantFrom(':', '://', ':/', '\u0000:', ''),
        fc.string(),
      ).map((parts) => parts.join(''))), (input) => {
        const out = safeHttpUrl(input, BASE);
        if (out !== null) expect(new URL(out).protocol).to.be.oneOf(['http:', 'https:']);
      }),
      { numRuns: 300 },
    );
  });
});
