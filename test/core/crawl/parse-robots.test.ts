import { expect } from 'chai';
import { looksLikePage, robotsSitemaps } from '../../../core/crawl/parse-robots.js';
import fc from '../../support/fast-check.js';

describe('robotsSitemaps', () => {
  it('returns the Sitemap: records in file order, whatever the case, spacing, comments and line endings', () => {
    const robots = '\uFEFFUser-agent: *\r\nDisallow: /admin\r\nSitemap: https://shop.example/a.xml\r\n'
      + '  sitemap:https://shop.example/b.xml # the blog\n# Sitemap: https://shop.example/commented.xml\nSITEMAP :\t/relative.xml\nSitemap:\n';
    expect(robotsSitemaps(robots)).to.deep.equal(['https://shop.example/a.xml', 'https://shop.example/b.xml', '/relative.xml']);
  });

  it('returns nothing for a file without records, an HTML page or an empty body', () => {
    expect(robotsSitemaps('User-agent: *\nDisallow:\n')).to.deep.equal([]);
    expect(robotsSitemaps('<!doctype html><p>Sitemap: of our shop</p>')).to.deep.equal([]);
    expect(robotsSitemaps('')).to.deep.equal([]);
  });

  it('stops at maxEntries', () => {
    const many = Array.from({ length: 100 }, (_, i) => `Sitemap: /s${i}.xml`).join('\n');
    expect(robotsSitemaps(many, 3)).to.deep.equal(['/s0.xml', '/s1.xml', '/s2.xml']);
  });

  it('returns only values without whitespace, at most maxEntries, for any text', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('Sitemap', ':', ' ', '\n', '\r', '#', 'x', '/', '\uFEFF'), maxLength: 80 }), fc.integer({ min: 0, max: 5 }), (text, max) => {
      const found = robotsSitemaps(text, max);
      return found.length <= max && found.every((v) => v !== '' && !/[\s#]/.test(v));
    }));
  });
});

describe('looksLikePage', () => {
  it('refuses links to documents, media and archives, and keeps pages', () => {
    for (const url of ['https://a.example/', 'https://a.example/pricing', 'https://a.example/docs/start.html', 'https://a.example/a.php?x=1.pdf', 'https://a.example/v1.2/guide']) {
      expect(looksLikePage(url), url).to.equal(true);
    }
    for (const url of ['https://a.example/brochure.PDF', 'https://a.example/logo.png', 'https://a.example/f.zip', 'https://a.example/feed.xml', 'https://a.example/app.js']) {
      expect(looksLikePage(url), url).to.equal(false);
    }
  });
});
