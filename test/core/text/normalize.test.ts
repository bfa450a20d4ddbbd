import { expect } from 'chai';
import { foldAccents, normalizeText } from '../../../core/text/normalize.js';

describe('normalizeText', () => {
  it('applies NFKC and lower case when given compatibility characters', () => {
    expect(normalizeText('ＫＩＴ ﬁle ①')).to.equal('kit file 1');
  });
});

describe('foldAccents', () => {
  const CASES: [string, string][] = [['éléphant', 'elephant'], ['façade', 'facade'], ['straße', 'strasse'], ['ωμέγα', 'ωμεγα'], ['plain', 'plain'], ['東京', '東京'], ['हिन्दी', 'हिन्दी']];
  for (const [input, expected] of CASES) {
    it(`folds ${input} to ${expected}`, () => expect(foldAccents(input)).to.equal(expected));
  }
});
