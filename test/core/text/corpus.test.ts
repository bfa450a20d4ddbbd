import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { buildCorpus } from '../../../core/text/corpus.js';
import { clearTextCaches } from '../../../core/text/index.js';
import { loadAllLanguages, loadLanguage } from '../../../core/text/load-language.js';
import { resourcesFor } from '../../../core/text/resources.js';
import { splitSentences } from '../../../core/text/sentences.js';
import { tokenize } from '../../../core/text/tokenize.js';
import { checkGrounding } from '../../../core/grounding/gate.js';
import { createRetriever } from '../../../core/retrieval/retriever.js';
import { createSentenceRanker } from '../../../core/retrieval/sentence-ranker.js';
import { onlyEnglish } from './only-english.js';
import type { SourcePage } from '../../../core/sources.js';
import pages from '../../fixtures/grounding/pages.json' with { type: 'json' };

const P = pages as Record<string, SourcePage & { language: string }>;

describe('buildCorpus', () => {
  before(loadAllLanguages);

  it('groups sentences into passages that keep their page url and title when given several pages', () => {
    const corpus = buildCorpus([P['bakery']!, P['lyon']!]);
    expect(corpus.pages).to.deep.equal([{ url: P['bakery']!.url, title: P['bakery']!.title }, { url: P['lyon']!.url, title: P['lyon']!.title }]);
    for (const p of corpus.passages) {
      expect(p.url).to.equal(corpus.pages[p.page]!.url);
      expect(p.title).to.equal(corpus.pages[p.page]!.title);
      const own = corpus.sentences.slice(p.firstSentence, p.firstSentence + p.sentenceCount);
      expect(own.every((s) => corpus.passages[s.passage] === p)).to.equal(true);
      // One sentence a line, a blank line between paragraphs, so a later split (server answerer, model prompt) keeps the boundaries.
      expect(p.text).to.equal(own.map((s, i) => (i === 0 ? '' : s.paragraph === own[i - 1]!.paragraph ? '\n' : '\n\n') + s.text).join(''));
      expect(buildCorpus([{ url: p.url, title: p.title, text: p.text }]).sentences.map((s) => s.text)).to.deep.equal(own.map((s) => s.text));
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

describe('buildCorpus before the language pack loads', () => {
  onlyEnglish();

  it('keeps its resources and matches its own questions as before when the pack loads afterwards', async () => {
    const page = P['lyon']!;
    const corpus = buildCorpus([page]);
    expect(corpus.resources.loaded).to.equal(false);
    const retriever = createSentenceRanker(createRetriever(corpus));
    const pageWords = [...new Set(tokenize(page.text))];
    const words = [...pageWords, 'pourquoi', 'musées', 'football', 'Traboules', 'basilique'];
    const questions = fc.sample(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 6 }).map((ws) => ws.join(' ')), 200);
    const decide = (q: string) => ({
      analyzed: corpus.analyze(q),
      verdict: checkGrounding(corpus, q),
      ranked: retriever.rank(q, 3).map((r) => r.sentence),
    });
    const before = questions.map(decide);
    await loadLanguage('fr');
    expect(resourcesFor('fr').loaded).to.equal(true);
    const after = questions.map(decide);
    expect(after).to.deep.equal(before);
    // Every page word of a question is still found: the question is stemmed like the page was.
    for (const q of questions) {
      const { words: ws, terms } = corpus.analyze(q);
      ws.forEach((w, i) => { if (pageWords.includes(w)) expect(corpus.vocabulary.has(terms[i]!), w).to.equal(true); });
    }
  });

  it('builds the next corpus with the pack alone, never with words stemmed before it loaded', async () => {
    buildCorpus([P['lyon']!]); // fills the shared lexicon with unstemmed French words
    await loadLanguage('fr');
    const warm = buildCorpus([P['lyon']!]);
    clearTextCaches();
    const cold = buildCorpus([P['lyon']!]);
    expect(warm.resources.loaded).to.equal(true);
    expect(warm.terms).to.deep.equal(cold.terms);
    expect(warm.terms).to.include('traboul');
  });
});

describe('buildCorpus passages', () => {
  it('keep a table row without punctuation as its own sentence when split again', () => {
    const page = { url: 'https://shop.example/plans', title: 'Plans', text: 'Plan Price\nSummit $49 per year\nExpedition $129 per year\nMembers can cancel at any time.' };
    const again = buildCorpus([page]).passages.flatMap((p) => splitSentences(p.text));
    expect(again).to.include.members(['Plan Price', 'Summit $49 per year', 'Expedition $129 per year', 'Members can cancel at any time.']);
  });
});
