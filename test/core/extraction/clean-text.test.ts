import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { cleanText } from '../../../core/extraction/clean-text.js';

describe('cleanText', () => {
  it('collapses spaces, trims lines and keeps single blank lines between paragraphs', () => {
    expect(cleanText('  Title \r\n\r\n\r\n  first\u00a0\u00a0 para\t line \n\n\n\nsecond  ')).to.equal('Title\n\nfirst para line\n\nsecond');
  });

  it('removes invisible characters that split words', () => {
    expect(cleanText('in\u00advisi\u200bble\ufeff')).to.equal('invisible');
  });

  it('drops a line that repeats the line just before it, but not repeats further apart', () => {
    expect(cleanText('Menu\nMenu\nText\n\nText')).to.equal('Menu\nText\n\nText');
  });

  it('drops furniture lines only when asked', () => {
    const text = 'Skip to content\nAdvertisement\nReal sentence about sharing.\nShare this article';
    expect(cleanText(text)).to.equal(text);
    expect(cleanText(text, { dropBoilerplate: true })).to.equal('Real sentence about sharing.');
  });

  it('is idempotent and never leaves doubled spaces or leading/trailing blank lines', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '\t', '\r', '\u00a0', '\u200b', 'Share', 'Menu') as any, maxLength: 60 }), fc.boolean(), (raw, drop) => {
      const once = cleanText(raw, { dropBoilerplate: drop });
      expect(cleanText(once, { dropBoilerplate: drop })).to.equal(once);
      expect(once).not.to.match(/ {2}|^\n|\n$|\n{3}/);
    }), { numRuns: 500 });
  });
});
