import { expect } from 'chai';
import { buildCorpus } from '../../../core/text/corpus.js';
import { LANGUAGES } from '../../../core/text/language.js';
import { loadAllLanguages, loadLanguage, loadLanguageOf } from '../../../core/text/load-language.js';
import { createRetriever } from '../../../core/retrieval/retriever.js';
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

describe('loadLanguageOf', () => {
  onlyEnglish();

  it('loads the pack of a question in another language than the page, so its stopwords are dropped', async () => {
    const corpus = buildCorpus([P['bakery']!]);
    const retriever = createRetriever(corpus);
    const question = 'Quel est le prix du pain de seigle ?';
    // Before: "est", "le", "du", "de" count as content words the page lacks, diluting the question's coverage.
    const before = retriever.analyze(question).totalIdf;
    expect(await loadLanguageOf(question, corpus.language)).to.equal('fr');
    expect(isLanguageLoaded('fr')).to.equal(true);
    expect(retriever.analyze(question).totalIdf).to.be.lessThan(before);
    expect(corpus.resources).to.equal(resourcesFor('en')); // the English corpus itself is untouched
  });

  it('loads nothing more when the question is in the page language', async () => {
    expect(await loadLanguageOf('How much is the rye bread?', 'en')).to.equal('en');
    expect(LANGUAGES.filter((l) => l !== 'en' && isLanguageLoaded(l))).to.deep.equal([]);
  });
});
