import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { foldAccents, normalizeText } from '../../../core/text/normalize.js';

// foldAccents as main had it before issue 16.4 added its by-letter path: the oracle that path must equal.
const SPECIAL: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ſ: 's' };
function foldByNormalizing(word: string): string {
  if (!/[^\x00-\x7f]/.test(word) || !/^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{N}\p{M}'.]+$/u.test(word)) return word;
  return word.normalize('NFD').replace(/\p{Mn}+/gu, '').replace(/[ßæœøłđðþıſ]/g, (c) => SPECIAL[c]!).normalize('NFC');
}

describe('normalizeText', () => {
  it('applies NFKC and lower case when given compatibility characters', () => {
    expect(normalizeText('ＫＩＴ ﬁle ①')).to.equal('kit file 1');
  });
});

describe('foldAccents', () => {
  it('folds exactly as NFD, mark removal and NFC did when given any word of Latin letters, marks and neighbours', () => {
    const latin = Array.from({ length: 0x250 - 0xc0 }, (_, i) => String.fromCharCode(0xc0 + i));
    const chars = [...latin, ...'aZz09\'.-’ \u0301\u0327\u0308αβЖжǅﬁ'.split(''), '𝐀'];
    fc.assert(fc.property(fc.array(fc.constantFrom(...chars), { minLength: 1, maxLength: 12 }).map((xs) => xs.join('')), (w) => {
      expect(foldAccents(w)).to.equal(foldByNormalizing(w));
    }), { numRuns: 20_000 });
    for (const c of latin) expect(foldAccents(c)).to.equal(foldByNormalizing(c));
  });

  const CASES: [string, string][] = [['éléphant', 'elephant'], ['façade', 'facade'], ['straße', 'strasse'], ['ωμέγα', 'ωμεγα'], ['plain', 'plain'], ['東京', '東京'], ['हिन्दी', 'हिन्दी']];
  for (const [input, expected] of CASES) {
    it(`folds ${input} to ${expected}`, () => expect(foldAccents(input)).to.equal(expected));
  }
});
