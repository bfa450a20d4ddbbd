import { expect } from 'chai';
import { LANGUAGES } from '../../../core/text/language.js';
import { loadLanguage } from '../../../core/text/load-language.js';
// Static imports only: mocha's loader may give a dynamic import() its own copy of a module (two registries).
import { checkGrounding } from '../../../core/grounding/index.js';
import { PACK as full } from '../../../core/text/packs/en.js';
import { PACK as core } from '../../../core/text/packs/en-core.js';
import { installGroundingWords, installPack, isLanguageLoaded, resourcesFor, stemmerFor, unloadLanguages } from '../../../core/text/resources.js';
import { QUESTION_WORDS } from '../../../core/text/question-words.js';
import { PACK as zh } from '../../../core/text/packs/zh.js';
import { PACK as ja } from '../../../core/text/packs/ja.js';
import { tokenize } from '../../../core/text/tokenize.js';
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

  it("installs English without the gate's words (packs/en-core.ts is packs/en.ts without them); the gate brings them", () => {
    expect(core.stem).to.equal(full.stem);
    expect(core.stopwords).to.equal(full.stopwords);
    expect(core.commonStems).to.equal(full.commonStems);
    expect(core.grounding).to.equal(undefined);
    expect(full.grounding?.money).to.be.a('string');
    expect(checkGrounding).to.be.a('function'); // core/grounding is loaded (statically, above)
    expect([...resourcesFor('en').groundingWords('money')]).to.include('price');
  });

  it('installGroundingWords replaces the lists of a language, built afresh from the new words', () => {
    const res = resourcesFor('en');
    try {
      expect([...res.groundingWords('money')]).to.include('price'); // built once, cached
      installGroundingWords('en', { money: 'zloty' });
      expect(resourcesFor('en')).to.equal(res); // the same value: corpora built before see the words too
      expect([...res.groundingWords('money')]).to.deep.equal(['zloty']);
    } finally {
      installGroundingWords('en', full.grounding!);
    }
    expect([...res.groundingWords('money')]).to.include('price');
  });

  it('writes the Chinese and Japanese gate words as the segmenter cuts them, so no piece of a word enters a list alone', () => {
    // The answer-type lists keep a cut entry whole and are read inside the joined question (WHOLE_CJK in
    // core/text/resources.ts); in every other list a cut entry's pieces enter one by one: "講的" made "的" (and "下一"
    // made "一") a list word that nearly every question holds.
    const whole = new Set(['amount', 'money', 'hours', 'when', 'howto', 'opening', 'clockAsk']);
    for (const [lang, pack] of [['zh', zh], ['ja', ja]] as const) {
      for (const [list, words] of Object.entries(pack.grounding ?? {})) {
        if (whole.has(list)) continue;
        for (const w of String(words).split(/\s+/).filter(Boolean)) expect(tokenize(w), `${lang} ${list} "${w}"`).to.deep.equal([w]);
      }
    }
  });
});
