import { expect } from 'chai';
import fc from 'fast-check';
import { buildCorpus } from '../../../core/text/corpus.js';
import { clearTextCaches } from '../../../core/text/index.js';
import type { SourcePage } from '../../../core/sources.js';
import pages from '../../fixtures/grounding/pages.json' with { type: 'json' };

const P = pages as Record<string, SourcePage & { language: string }>;

describe('buildCorpus', () => {
  it('groups sentences into passages that keep their page url and title when given several pages', () => {
    const corpus = buildCorpus([P['bakery']!, P['lyon']!]);
    expect(corpus.pages).to.deep.equal([{ url: P['bakery']!.url, title: P['bakery']!.title }, { url: P['lyon']!.url, title: P['lyon']!.title }]);
    for (const p of corpus.passages) {
      expect(p.url).to.equal(corpus.pages[p.page]!.url);
      expect(p.title).to.equal(corpus.pages[p.page]!.title);
      const own = corpus.sentences.slice(p.firstSentence, p.firstSentence + p.sentenceCount);
      expect(own.every((s) => corpus.passages[s.passage] === p)).to.equal(true);
      expect(p.text).to.equal(own.map((s) => s.text).join(' '));
    }
    expect(new Set(corpus.passages.map((p) => p.page))).to.deep.equal(new Set([0, 1]));
  });

  it('closes passages after a few sentences when a page is long', () => {
    const text = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} talks about sourdough bread and its crust.`).join(' ');
    const corpus = buildCorpus([{ url: 'u', title: 't', text }]);
    expect(corpus.passages.length).to.be.greaterThan(5);
    for (const p of corpus.passages) expect(p.text.length).to.be.lessThan(900);
    expect(corpus.sentences).to.have.length(60);
  });

  it('counts document frequencies per passage and stems the vocabulary when the page is English', () => {
    const corpus = buildCorpus([P['bakery']!]);
    expect(corpus.language).to.equal('en');
    const loaf = corpus.vocabulary.get('loav'); // Porter: loaves → loav
    expect(loaf).to.be.a('number');
    expect(corpus.documentFrequency[loaf!]).to.be.within(1, corpus.passages.length);
    expect([...corpus.passagesWith(loaf!)]).to.have.length(corpus.documentFrequency[loaf!]!);
    expect(corpus.tokenCount).to.equal(corpus.sentences.reduce((n, s) => n + s.terms.length, 0));
  });

  it('puts title words in the vocabulary when they are absent from the text', () => {
    const corpus = buildCorpus([{ url: 'u', title: 'Zanzibar', text: 'A short note about spices.' }]);
    expect(corpus.vocabulary.has('zanzibar')).to.equal(true);
    expect([...corpus.passageTerms(0)]).to.include(corpus.vocabulary.get('zanzibar')!);
  });

  it('detects French and analyses questions like the page when the page is French', () => {
    const corpus = buildCorpus([P['lyon']!]);
    expect(corpus.language).to.equal('fr');
    const q = corpus.analyze('Où sont les traboules ?');
    expect(q.words).to.deep.equal(['ou', 'sont', 'les', 'traboules']);
    expect(corpus.vocabulary.has(q.terms[3]!)).to.equal(true);
  });

  it('segments a Japanese page into words when it has no spaces', () => {
    const corpus = buildCorpus([P['tokyo']!]);
    expect(corpus.language).to.equal('ja');
    expect(corpus.vocabulary.has('東京タワー')).to.equal(true);
    expect(corpus.vocabulary.has('富士山')).to.equal(true);
    expect(corpus.sentences.length).to.be.greaterThan(3);
  });

  it('does not depend on the pages built before when the shared lexicon is warm or cleared', () => {
    const first = buildCorpus([P['bakery']!]);
    buildCorpus([P['lyon']!, P['tokyo']!]);
    const again = buildCorpus([P['bakery']!]);
    clearTextCaches();
    const cold = buildCorpus([P['bakery']!]);
    for (const c of [again, cold]) {
      expect(c.terms).to.deep.equal(first.terms);
      expect(c.sentences.map((s) => [...s.terms])).to.deep.equal(first.sentences.map((s) => [...s.terms]));
    }
  });

  it('returns an empty corpus when given no pages or empty text', () => {
    expect(buildCorpus([]).passages).to.have.length(0);
    const c = buildCorpus([{ url: 'u', title: '', text: '   \n\n ' }]);
    expect(c.sentences).to.have.length(0);
    expect(c.tokenCount).to.equal(0);
  });

  it('never throws and keeps every sentence inside its passage when given arbitrary pages', () => {
    const page = fc.record({ url: fc.webUrl(), title: fc.string({ maxLength: 30 }), text: fc.string({ unit: 'grapheme', maxLength: 800 }) });
    fc.assert(fc.property(fc.array(page, { maxLength: 4 }), (ps) => {
      const c = buildCorpus(ps);
      let next = 0;
      c.passages.forEach((p, i) => {
        expect(p.firstSentence).to.equal(next);
        next += p.sentenceCount;
        for (let s = p.firstSentence; s < next; s++) expect(c.sentences[s]!.passage).to.equal(i);
      });
      expect(next).to.equal(c.sentences.length);
      for (const s of c.sentences) for (const id of s.terms) expect(c.terms[id]).to.be.a('string');
    }), { numRuns: 150 });
  });
});
