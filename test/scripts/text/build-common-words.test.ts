import { expect } from 'chai';
import { commonStems, DEFAULT_TOP, LISTS, readCommonWords, TOP_BY_LANGUAGE, type ListLanguage } from '../../../scripts/text/build-common-words.js';
import type { LanguagePack } from '../../../core/text/resources.js';

const packOf = async (lang: ListLanguage): Promise<LanguagePack> => {
  switch (lang) {
    case 'en': return (await import('../../../core/text/packs/en.js')).PACK;
    case 'fr': return (await import('../../../core/text/packs/fr.js')).PACK;
    case 'de': return (await import('../../../core/text/packs/de.js')).PACK;
    case 'es': return (await import('../../../core/text/packs/es.js')).PACK;
    case 'pt': return (await import('../../../core/text/packs/pt.js')).PACK;
  }
};

describe('commonStems', () => {
  it('keeps the rank of each stem\'s most frequent form and leaves later forms as empty slots', () => {
    const stems = commonStems(['time', 'house', 'times', 'houses', 'the'], (w) => w.replace(/s$/, ''));
    expect(stems).to.deep.equal(['time', 'house', '', '', 'the']);
  });

  for (const lang of Object.keys(LISTS) as ListLanguage[]) {
    it(`matches the shipped ${lang} list and its pack's stemmer when regenerated`, async () => {
      const pack = await packOf(lang);
      const words = readCommonWords(lang);
      expect(words).to.have.length(TOP_BY_LANGUAGE[lang] ?? DEFAULT_TOP);
      // A stemmer upgrade that changes stems fails here until the lists are regenerated.
      expect(commonStems(words, pack.stem).join(' ')).to.equal(pack.commonStems);
    });
  }
});
