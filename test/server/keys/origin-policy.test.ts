import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { normalizeOriginPattern, originAllowed } from '../../../server/keys/origin-policy.js';

const EXT = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';

describe('normalizeOriginPattern', () => {
  const valid: Array<[string, string]> = [
    ['https://Example.com/', 'https://example.com'],
    ['https://example.com:443', 'https://example.com'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['https://*.example.com', 'https://*.example.com'],
    ['https://*.shop.example.co.uk:8443', 'https://*.shop.example.co.uk:8443'],
    [EXT.toUpperCase().replace('CHROME-EXTENSION', 'chrome-extension'), EXT],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
  ];
  for (const [input, expected] of valid) {
    it(`normalises ${input}`, () => expect(normalizeOriginPattern(input)).to.deep.equal({ ok: true, value: expected }));
  }
  const invalid = ['*', 'https://*', 'https://*.com', 'https://a.*.com', 'https://*example.com', 'ftp://example.com', 'https://a.com/path', 'https://a.com?x', 'https://user@a.com', 'javascript:alert(1)', 'null', 'chrome-extension://short', "https://x.com'; drop table api_keys;--", ''];
  for (const input of invalid) {
    it(`refuses ${JSON.stringify(input)}`, () => expect(normalizeOriginPattern(input).ok).to.equal(false));
  }
  // The opaque origin of a file: page or a sandboxed frame: the refusal says what to do instead (the SDK says the same).
  for (const input of ['file://', 'file:///home/ada/index.html', 'null', 'NULL']) {
    it(`refuses ${JSON.stringify(input)} and advises serving the page over http(s)`, () => {
      const result = normalizeOriginPattern(input);
      expect(result.ok).to.equal(false);
      expect(!result.ok && result.reason).to.include(`"${input}" is not an origin`).and.include('Serve the page over http(s), e.g. at http://localhost:8080, and add that origin');
    });
  }
  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: false, withFragments: false }), (url) => {
        const once = normalizeOriginPattern(new URL(url).origin);
        if (once.ok) expect(normalizeOriginPattern(once.value)).to.deep.equal(once);
      }),
    );
  });
});

describe('originAllowed', () => {
  const table: Array<[string[], string, boolean]> = [
    [[], 'http://localhost:5173', true],
    [[], 'https://127.0.0.1:8443', true],
    [[], 'http://[::1]:8080', true],
    [[], 'https://example.com', false],
    [['https://example.com'], 'https://example.com', true],
    [['https://example.com'], 'http://example.com', false],
    [['https://example.com'], 'https://example.com:8443', false],
    [['https://example.com'], 'http://localhost:3000', false],
    [['https://*.example.com'], 'https://a.example.com', true],
    [['https://*.example.com'], 'https://a.b.example.com', true],
    [['https://*.example.com'], 'https://example.com', false],
    [['https://*.example.com'], 'https://evilexample.com', false],
    [['https://*.example.com'], 'https://example.com.evil.net', false],
    [['https://*.example.com'], 'http://a.example.com', false],
    [['https://*.example.com:8443'], 'https://a.example.com:8443', true],
    [['https://*.example.com:8443'], 'https://a.example.com', false],
    [[EXT], EXT, true],
    [[EXT], 'chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba', false],
    [['https://example.com'], 'null', false],
    [['https://example.com'], 'https://example.com/', false],
  ];
  for (const [patterns, origin, expected] of table) {
    it(`${expected ? 'allows' : 'refuses'} ${origin} for ${JSON.stringify(patterns)}`, () => expect(originAllowed(patterns, origin)).to.equal(expected));
  }
  it('never allows a host outside the wildcard domain', () => {
    fc.assert(
      fc.property(fc.domain(), (host) => {
        if (host === 'example.com' || host.endsWith('.example.com')) return;
        expect(originAllowed(['https://*.example.com'], `https://${host}`)).to.equal(false);
      }),
    );
  });
});
