import { expect } from 'chai';
import { LANGUAGES } from '../../../core/text/language.js';
import { loadLanguage } from '../../../core/text/load-language.js';
import { installPack, isLanguageLoaded, resourcesFor, stemmerFor, unloadLanguages } from '../../../core/text/resources.js';
import { QUESTION_WORDS } from '../../../core/text/question-words.js';
import { onlyEnglish } from './only-english.js';

describe('resourcesFor', () => {
  onlyEnglish();

  it('gives English its stemmer, stopwords and common words when no pack was loaded', () => {
    const en = resourcesFor('en');
    expect(en.loaded).to.equal(true);
    expect(en.stem('castles')).to.equal('castl');
    expect(en.isStopword('the')).to.equal(true);
    expect(en.commonRank(en.stem('time'))).to.be.lessThan(200);
  });

  it('falls back to no stemming, question words only and no common words when the pack is not loaded', () => {
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      const res = resourcesFor(lang);
      expect(res.loaded, lang).to.equal(false);
      expect(res.stem('maisons'), lang).to.equal('maisons');
      expect(res.stopwords.size, lang).to.equal(0);
      expect(res.isStopword('pourquoi'), lang).to.equal(true);
      expect(res.isStopword('les'), lang).to.equal(false);
      expect(res.hasCommonWords, lang).to.equal(false);
      expect(res.commonRank('maison'), lang).to.equal(Infinity);
    }
    expect([...QUESTION_WORDS].every((w) => resourcesFor('fr').isStopword(w))).to.equal(true);
  });

  it('replaces the fallback by a new value, leaving the old one unchanged, when the pack loads', async () => {
    const before = resourcesFor('fr');
    expect(await loadLanguage('fr')).to.equal(true);
    const after = resourcesFor('fr');
    expect(after).to.not.equal(before);
    expect(after.loaded).to.equal(true);
    expect(after.stem('maisons')).to.equal('maison');
    expect(after.isStopword('les')).to.equal(true);
    expect(before.stem('maisons')).to.equal('maisons');
    expect(before.isStopword('les')).to.equal(false);
    expect(stemmerFor('fr')('maisons')).to.equal('maison');
  });

  it('keeps the loaded value, with its caches, when the same pack is installed again', async () => {
    await loadLanguage('de');
    const de = resourcesFor('de');
    expect(installPack('de', { stopwords: [] })).to.equal(de);
    expect(resourcesFor('de').isStopword('und')).to.equal(true);
  });

  it('keeps English when every other language is unloaded', async () => {
    await loadLanguage('es');
    unloadLanguages();
    expect(isLanguageLoaded('es')).to.equal(false);
    expect(isLanguageLoaded('en')).to.equal(true);
  });
});
