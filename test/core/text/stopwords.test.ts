import { expect } from 'chai';
import { isStopword, QUESTION_WORDS } from '../../../core/text/stopwords.js';
import { loadAllLanguages } from '../../../core/text/load-language.js';

describe('isStopword', () => {
  before(loadAllLanguages);

  it('knows function words of each language in folded form', () => {
    expect(isStopword('the', 'en')).to.equal(true);
    expect(isStopword('ete', 'fr')).to.equal(true); // "été", folded
    expect(isStopword('und', 'de')).to.equal(true);
    expect(isStopword('para', 'es')).to.equal(true);
    expect(isStopword('nao', 'pt')).to.equal(true); // "não"
  });

  it('treats question words of any supported language as stopwords', () => {
    for (const w of ['what', 'pourquoi', 'warum', 'cuando', 'onde']) expect(isStopword(w, 'en'), w).to.equal(true);
    expect(QUESTION_WORDS.has('who')).to.equal(true);
  });

  it('keeps content words', () => {
    expect(isStopword('mayor', 'en')).to.equal(false); // a Spanish stopword ("mayor"), an English noun
    expect(isStopword('bread', 'en')).to.equal(false);
  });
});
