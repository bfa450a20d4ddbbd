import { expect } from 'chai';
import { prepareCorpus } from '../../../core/text/prepare-corpus.js';
import { isLanguageLoaded } from '../../../core/text/resources.js';
import type { SourcePage } from '../../../core/sources.js';
import pages from '../../fixtures/grounding/pages.json' with { type: 'json' };
import { onlyEnglish } from './only-english.js';

const P = pages as Record<string, SourcePage>;

describe('prepareCorpus', () => {
  onlyEnglish();

  it('loads the pack of the language it detects before building when the page is French', async () => {
    const corpus = await prepareCorpus([P['lyon']!]);
    expect(corpus.language).to.equal('fr');
    expect(corpus.resources.loaded).to.equal(true);
    expect(corpus.vocabulary.has('traboul')).to.equal(true);
    expect(isLanguageLoaded('de')).to.equal(false);
  });

  it('loads no pack when the page is English', async () => {
    const corpus = await prepareCorpus([P['bakery']!]);
    expect(corpus.language).to.equal('en');
    expect(corpus.resources.loaded).to.equal(true);
    expect(['fr', 'de', 'es', 'pt', 'it', 'nl', 'zh', 'ja'].filter((l) => isLanguageLoaded(l as 'fr'))).to.deep.equal([]);
  });

  it('loads the forced language when options.language is given', async () => {
    const corpus = await prepareCorpus([P['bakery']!], { language: 'de' });
    expect(corpus.language).to.equal('de');
    expect(corpus.resources.loaded).to.equal(true);
    expect(isLanguageLoaded('de')).to.equal(true);
  });

  it('gives Japanese pages their stopwords when the page is Japanese', async () => {
    const corpus = await prepareCorpus([P['tokyo']!]);
    expect(corpus.language).to.equal('ja');
    expect(corpus.resources.stopwords.size).to.be.greaterThan(0);
  });
});
