import { expect } from 'chai';
import { commonRank, hasCommonWords, loadCommonWords } from '../../../core/text/common-words.js';
import { loadLanguage } from '../../../core/text/load-language.js';
import { stemmerFor } from '../../../core/text/resources.js';

describe('commonRank', () => {
  const en = stemmerFor('en');
  it('ranks everyday words before topical ones when given English stems', () => {
    expect(commonRank(en('time'), 'en')).to.be.lessThan(commonRank(en('government'), 'en'));
    expect(commonRank(en('government'), 'en')).to.be.lessThan(Infinity);
  });

  it('gives Infinity to words outside the list', () => {
    expect(commonRank(en('huguenots'), 'en')).to.equal(Infinity);
    expect(commonRank('東京', 'ja')).to.equal(Infinity);
  });

  it('knows the five required languages once their packs are loaded', async () => {
    for (const [lang, word] of [['fr', 'maison'], ['de', 'haus'], ['es', 'casa'], ['pt', 'casa']] as const) {
      await loadLanguage(lang);
      expect(hasCommonWords(lang), lang).to.equal(true);
      expect(commonRank(stemmerFor(lang)(word), lang), `${lang} ${word}`).to.be.lessThan(5_001);
    }
  });
});

describe('loadCommonWords', () => {
  it('loads the pack and says whether the language has a common-word list', async () => {
    for (const lang of ['fr', 'de', 'es', 'pt'] as const) expect(await loadCommonWords(lang), lang).to.equal(true);
    expect(await loadCommonWords('ja')).to.equal(false);
    expect(hasCommonWords('ja')).to.equal(false);
  });
});
