import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { dedupeSameOrigin, normalizeUrl, originOf, SameOriginUrlSet } from '../../../core/crawl/normalize-url.js';

const BASE = 'https://shop.example/docs/start?x=1';

/** Paths, queries and fragments built from characters real URLs use, escapes and dot segments included. */
const segment = fc.stringMatching(/^[A-Za-z0-9._~%!$&'()*+,;=:@-]{0,8}$/).map((s) => s.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
const urlParts = fc.record({
  scheme: fc.constantFrom('https', 'http', 'HTTPS'),
  host: fc.constantFrom('shop.example', 'SHOP.example', 'other.example', 'shop.example:8443', 'shop.example:443'),
  path: fc.array(fc.oneof(segment, fc.constantFrom('.', '..', '%7e', '%7E', '%41', 'a%2fb')), { maxLength: 4 }),
  query: fc.option(fc.stringMatching(/^[a-z0-9=&%]{0,8}$/).map((s) => s.replace(/%(?![0-9A-Fa-f]{2})/g, '%25')), { nil: undefined }),
  fragment: fc.option(fc.stringMatching(/^[a-z0-9-]{0,8}$/), { nil: undefined }),
});
const toUrl = (p: { scheme: string; host: string; path: string[]; query?: string; fragment?: string }) =>
  `${p.scheme}://${p.host}/${p.path.join('/')}${p.query !== undefined ? '?' + p.query : ''}${p.fragment !== undefined ? '#' + p.fragment : ''}`;

describe('normalizeUrl', () => {
  it('resolves relative paths and drops the fragment when given a base', () => {
    expect(normalizeUrl('../pricing#plans', BASE)).to.equal('https://shop.example/pricing');
    expect(normalizeUrl('#section-2', BASE)).to.equal('https://shop.example/docs/start?x=1');
  });

  it('canonicalises case, default ports, dot segments, empty queries and escapes', () => {
    expect(normalizeUrl('HTTPS://Shop.Example:443/a/./b/../c/%7euser/%41?')).to.equal('https://shop.example/a/c/~user/A');
    expect(normalizeUrl('https://shop.example/a%2fb?q=%2f')).to.equal('https://shop.example/a%2Fb?q=%2F');
  });

  it('refuses non-http schemes, URLs with user:password and garbage', () => {
    for (const bad of ['javascript:alert(1)', 'mailto:a@shop.example', 'data:text/html,x', 'ftp://shop.example/', 'https://user:pw@shop.example/', 'http://']) {
      expect(normalizeUrl(bad, BASE), bad).to.equal(null);
    }
    expect(normalizeUrl('')).to.equal(null);
  });

  it('is idempotent and ignores the fragment for any URL', () => {
    fc.assert(fc.property(urlParts, (parts) => {
      const once = normalizeUrl(toUrl(parts));
      if (once === null) return;
      expect(normalizeUrl(once)).to.equal(once);
      expect(normalizeUrl(toUrl({ ...parts, fragment: 'elsewhere' }))).to.equal(once);
      expect(once).not.to.include('#');
    }), { numRuns: 500 });
  });
});

describe('originOf', () => {
  it('returns the serialised origin of an http(s) URL and null otherwise', () => {
    expect(originOf('https://Shop.example:443/x')).to.equal('https://shop.example');
    expect(originOf('http://shop.example:8080/')).to.equal('http://shop.example:8080');
    expect(originOf('/relative')).to.equal(null);
  });
});

describe('SameOriginUrlSet', () => {
  it('says why an entry was left out: invalid, other origin or duplicate', () => {
    const set = new SameOriginUrlSet('https://shop.example');
    expect(set.add('/a', BASE)).to.deep.equal({ ok: true, url: 'https://shop.example/a' });
    expect(set.add('/a#top', BASE)).to.deep.equal({ ok: false, reason: 'duplicate', url: 'https://shop.example/a' });
    expect(set.add('http://shop.example/a', BASE)).to.include({ ok: false, reason: 'cross_origin' });
    expect(set.add('https://evil.example/a', BASE)).to.include({ ok: false, reason: 'cross_origin' });
    expect(set.add('javascript:void(0)', BASE)).to.include({ ok: false, reason: 'invalid_url' });
    expect(set.toArray()).to.deep.equal(['https://shop.example/a']);
  });
});

describe('dedupeSameOrigin', () => {
  it('keeps one of each page, only on the base origin, in first-seen order', () => {
    fc.assert(fc.property(fc.array(urlParts, { maxLength: 30 }), (list) => {
      const raws = list.map(toUrl);
      const out = dedupeSameOrigin(raws, BASE);
      expect(new Set(out).size).to.equal(out.length);
      for (const url of out) expect(new URL(url).origin).to.equal('https://shop.example');
      // Every same-origin input is represented, and order follows first occurrence.
      const expected: string[] = [];
      for (const raw of raws) {
        const n = normalizeUrl(raw);
        if (n !== null && new URL(n).origin === 'https://shop.example' && !expected.includes(n)) expected.push(n);
      }
      expect(out).to.deep.equal(expected);
    }), { numRuns: 300 });
  });

  it('collapses URLs that differ only by fragment into one', () => {
    fc.assert(fc.property(urlParts, fc.array(fc.stringMatching(/^[a-z0-9]{0,6}$/), { minLength: 1, maxLength: 5 }), (parts, fragments) => {
      const raws = fragments.map((fragment) => toUrl({ ...parts, scheme: 'https', host: 'shop.example', fragment }));
      expect(dedupeSameOrigin(raws, BASE)).to.have.length(normalizeUrl(raws[0]!) === null ? 0 : 1);
    }), { numRuns: 200 });
  });
});
