import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { truncateText } from '../../../core/crawl/truncate-text.js';

describe('truncateText', () => {
  it('returns the text unchanged when it fits', () => {
    expect(truncateText('short text', 10)).to.deep.equal({ text: 'short text', cut: 0 });
  });

  it('cuts at the last word boundary before the limit', () => {
    expect(truncateText('alpha beta gamma delta', 13)).to.deep.equal({ text: 'alpha beta', cut: 12 });
    expect(truncateText('alpha beta gamma', 10)).to.deep.equal({ text: 'alpha beta', cut: 6 });
  });

  it('cuts mid-word when no whitespace is near the limit', () => {
    expect(truncateText('x'.repeat(1000), 300).text).to.have.length(300);
  });

  it('never splits a surrogate pair', () => {
    const { text } = truncateText('😀😀😀', 3);
    expect(text).to.equal('😀');
  });

  it('keeps a prefix of at most max characters and accounts for every cut character', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.integer({ min: 0, max: 400 }), (text, max) => {
      const out = truncateText(text, max);
      expect(out.text.length).to.be.at.most(max);
      expect(text.startsWith(out.text)).to.equal(true);
      expect(out.text.length + out.cut).to.equal(text.length);
      if (text.length <= max) expect(out.cut).to.equal(0);
      const last = out.text.charCodeAt(out.text.length - 1);
      if (out.cut > 0) expect(last >= 0xd800 && last <= 0xdbff).to.equal(false);
    }), { numRuns: 500 });
  });
});
