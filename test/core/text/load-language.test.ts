import { expect } from 'chai';
import { buildCorpus } from '../../../core/text/corpus.js';
import { LANGUAGES } from '../../../core/text/language.js';
import { loadAllLanguages, loadLanguage } from '../../../core/text/load-language.js';
import { isLanguageLoaded, resourcesFor } from '../../../core/text/resources.js';
import type { SourcePage } from '../../../core/sources.js';
import pages from '../../fixtures/grounding/pages.json' with { type: 'json' };
import { onlyEnglish } from './only-english.js';

const P = pages as Record<string, SourcePage>;

describe('loadLanguage', () => {
  onlyEnglish();

  it('stems French words in a French corpus built after the French pack loads', async () => {
    const unstemmed = buildCorpus([P['lyon']!]);
    expect(unstemmed.language).to.equal('fr');
    expect(unstemmed.vocabulary.has('traboules')).to.equal(true);
    expect(await loadLanguage('fr')).to.equal(true);
    const corpus = buildCorpus([P['lyon']!]);
    expect(corpus.resources.loaded).to.equal(true);
    expect(corpus.vocabulary.has('traboul')).to.equal(true); // Snowball French: traboules → traboul
    expect(corpus.vocabulary.has('traboules')).to.equal(false);
    expect(corpus.analyze('des traboules').terms).to.deep.equal(['des', 'traboul']); // short words are never stemmed
  });

  it('resolves true for every supported language, once its pack is in', async () => {
    for (const lang of LANGUAGES) {
      expect(await loadLanguage(lang), lang).to.equal(true);
      expect(isLanguageLoaded(lang), lang).to.equal(true);
    }
  });

  it('loads a pack once when called again before the first load ends', async () => {
    const [a, b] = [loadLanguage('it'), loadLanguage('it')];
    expect(a).to.equal(b);
    await a;
    const it = resourcesFor('it');
    await loadLanguage('it');
    expect(resourcesFor('it')).to.equal(it);
  });

  it('gives Chinese and Japanese their stopwords, and no stemmer', async () => {
    expect(resourcesFor('zh').isStopword('我们')).to.equal(false);
    await loadLanguage('zh');
    await loadLanguage('ja');
    expect(resourcesFor('zh').isStopword('我们')).to.equal(true);
    expect(resourcesFor('ja').isStopword('これ')).to.equal(true);
    expect(resourcesFor('ja').stem('たべもの')).to.equal('たべもの');
  });
});

describe('loadAllLanguages', () => {
  onlyEnglish();

  it('loads every language pack', async () => {
    await loadAllLanguages();
    expect(LANGUAGES.filter((l) => !isLanguageLoaded(l))).to.deep.equal([]);
  });
});
