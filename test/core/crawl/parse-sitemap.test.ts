import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { decodeXmlText, scanSitemap, type SitemapScan } from '../../../core/crawl/parse-sitemap.js';

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

/** One loop over sitemap shapes met in the wild; each states what a scan must find. */
const CASES: Array<{ name: string; xml: string; expect: Partial<SitemapScan> }> = [
  {
    name: 'a plain urlset',
    xml: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}><url><loc>https://a.example/</loc><lastmod>2024-01-01</lastmod></url>\n<url><loc> https://a.example/b </loc></url></urlset>`,
    expect: { kind: 'urlset', locs: ['https://a.example/', 'https://a.example/b'], entries: 2, truncated: false },
  },
  {
    name: 'a sitemap index',
    xml: `<sitemapindex ${NS}><sitemap><loc>https://a.example/s1.xml</loc></sitemap><sitemap><loc>/s2.xml</loc></sitemap></sitemapindex>`,
    expect: { kind: 'sitemapindex', locs: ['https://a.example/s1.xml', '/s2.xml'], entries: 2, truncated: false },
  },
  {
    name: 'a prefixed namespace',
    xml: `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://a.example/x</sm:loc></sm:url></sm:urlset>`,
    expect: { kind: 'urlset', locs: ['https://a.example/x'], truncated: false },
  },
  {
    name: 'image and video extensions, whose locs are not pages',
    xml: `<urlset ${NS} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><url><loc>https://a.example/p</loc><image:image><image:loc>https://cdn.example/i.png</image:loc></image:image></url></urlset>`,
    expect: { kind: 'urlset', locs: ['https://a.example/p'], truncated: false },
  },
  {
    name: 'entities, numeric references and CDATA',
    xml: `<urlset ${NS}><url><loc>https://a.example/?a=1&amp;b=&#50;&#x33;</loc></url><url><loc><![CDATA[https://a.example/?c=1&d=2]]></loc></url></urlset>`,
    expect: { locs: ['https://a.example/?a=1&b=23', 'https://a.example/?c=1&d=2'] },
  },
  {
    name: 'comments, a BOM, a DOCTYPE and a stylesheet instruction',
    xml: `\uFEFF<?xml version="1.0"?><?xml-stylesheet href="s.xsl"?><!DOCTYPE urlset><!-- <url><loc>https://a.example/hidden</loc></url> --><urlset ${NS}><!-- <loc>no</loc> --><url><loc>https://a.example/seen</loc></url></urlset>`,
    expect: { kind: 'urlset', locs: ['https://a.example/seen'] },
  },
  {
    name: 'an HTML error page served as the sitemap',
    xml: '<!DOCTYPE html><html><head><title>Not found</title></head><body><a href="/x">x</a></body></html>',
    expect: { kind: null, locs: [] },
  },
  { name: 'an empty body', xml: '', expect: { kind: null, locs: [] } },
  { name: 'text before the root', xml: `Error 500 <urlset ${NS}><url><loc>https://a.example/</loc></url></urlset>`, expect: { kind: null, locs: [] } },
  { name: 'a JSON body', xml: '{"urls": ["https://a.example/"]}', expect: { kind: null } },
  {
    name: 'a body cut inside an entry (byte cap)',
    xml: `<urlset ${NS}><url><loc>https://a.example/1</loc></url><url><loc>https://a.example/2</loc></url><url><loc>https://a.exa`,
    expect: { kind: 'urlset', locs: ['https://a.example/1', 'https://a.example/2'], truncated: true },
  },
  {
    name: 'malformed markup: unclosed entries, stray tags, an empty loc',
    xml: `<urlset ${NS}><url><loc>https://a.example/1</loc><url><loc/><foo><loc>https://a.example/2</loc></url><url></loc><loc>https://a.example/3</loc>`,
    expect: { kind: 'urlset', locs: ['https://a.example/1', 'https://a.example/2', 'https://a.example/3'], truncated: true },
  },
  {
    name: 'a loc outside any entry, and a second loc in one entry',
    xml: `<urlset ${NS}><loc>https://a.example/outside</loc><url><loc>https://a.example/1</loc><loc>https://a.example/again</loc></url></urlset>`,
    expect: { locs: ['https://a.example/1'] },
  },
  {
    name: 'a loc longer than any real URL',
    xml: `<urlset ${NS}><url><loc>https://a.example/${'x'.repeat(20_000)}</loc></url><url><loc>https://a.example/ok</loc></url></urlset>`,
    expect: { locs: ['https://a.example/ok'], entries: 2 },
  },
];

describe('scanSitemap', () => {
  for (const c of CASES) {
    it(`finds what a reader expects in ${c.name}`, () => {
      const scan = scanSitemap(c.xml, { maxEntries: 1000 });
      for (const [key, value] of Object.entries(c.expect)) expect(scan[key as keyof SitemapScan], key).to.deep.equal(value);
    });
  }

  it('stops at maxEntries and says it was truncated', () => {
    const xml = `<urlset ${NS}>${Array.from({ length: 50 }, (_, i) => `<url><loc>https://a.example/${i}</loc></url>`).join('')}</urlset>`;
    const scan = scanSitemap(xml, { maxEntries: 10 });
    expect(scan.locs).to.have.length(10);
    expect(scan.locs[9]).to.equal('https://a.example/9');
    expect(scan.truncated).to.equal(true);
  });

  it('reads only maxChars of a 50 MB sitemap, fast', () => {
    const entry = '<url><loc>https://a.example/page-0000000</loc><lastmod>2024-01-01</lastmod></url>\n';
    const xml = `<urlset ${NS}>` + entry.repeat(Math.ceil(50_000_000 / entry.length));
    expect(xml.length).to.be.greaterThan(50_000_000);
    const started = performance.now();
    const scan = scanSitemap(xml, { maxEntries: 1_000_000, maxChars: 1_000_000 });
    // Generous: the first touch of a 50 MB rope string makes V8 flatten it; the scan itself reads 1 MB.
    expect(performance.now() - started).to.be.below(2_000);
    expect(scan.truncated).to.equal(true);
    expect(scan.entries).to.be.at.most(Math.ceil(1_000_000 / entry.length));
    expect(scan.locs.length).to.be.greaterThan(10_000);
  });

  it('finds every listed URL of any generated sitemap, in order', () => {
    const path = fc.stringMatching(/^[a-z0-9/&<>'"?=_-]{0,20}$/);
    fc.assert(fc.property(fc.array(path, { maxLength: 40 }), fc.boolean(), (paths, cdata) => {
      const urls = paths.map((p) => `https://a.example/${p}`);
      const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
      const body = urls.map((u) => `<url>\n  <loc>${cdata ? `<![CDATA[${u}]]>` : esc(u)}</loc>\n</url>`).join('\n');
      const scan = scanSitemap(`<?xml version="1.0"?><urlset ${NS}>${body}</urlset>`, { maxEntries: 100 });
      expect(scan.locs).to.deep.equal(urls);
      expect(scan.truncated).to.equal(false);
    }), { numRuns: 200 });
  });

  it('never throws and never returns more than maxEntries on arbitrary input', () => {
    const noise = fc.array(fc.oneof(fc.string(), fc.constantFrom('<url>', '</url>', '<loc>', '</loc>', '<!--', '-->', '<![CDATA[', ']]>', '&amp;', '&#x110000;', '<urlset>', '</urlset>', '<sitemapindex>')), { maxLength: 40 })
      .map((parts) => parts.join(''));
    fc.assert(fc.property(fc.constantFrom('', `<urlset ${NS}>`, '<sitemapindex>'), noise, fc.integer({ min: 0, max: 5 }), (head, rest, maxEntries) => {
      const scan = scanSitemap(head + rest, { maxEntries });
      expect(scan.locs.length).to.be.at.most(maxEntries);
      expect(scan.entries).to.be.at.most(maxEntries);
    }), { numRuns: 500 });
  });
});

describe('decodeXmlText', () => {
  it('decodes the predefined entities and numeric references but leaves unknown ones', () => {
    expect(decodeXmlText('a&amp;b&lt;&gt;&quot;&apos;&#233;&#xE9;&nbsp;&#0;')).to.equal('a&b<>"\'ééé&nbsp;&#0;'.replace('ééé', 'éé'));
  });
});
