import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { ANSWER_DEFAULTS, answerQuestion, createAnswerer } from '../../../core/retrieval/answer.js';
import { createRetriever } from '../../../core/retrieval/retriever.js';
import { buildCorpus } from '../../../core/text/corpus.js';
import type { SourcePage } from '../../../core/sources.js';
import pages from '../../fixtures/grounding/pages.json' with { type: 'json' };

const P = pages as Record<string, SourcePage>;
const retriever = createRetriever(buildCorpus([P['bakery']!, P['lyon']!, P['tokyo']!]));

const CASES: [question: string, expectedSentence: RegExp, page: string][] = [
  ['How much does the Family plan cost?', /Family plan costs \$29/, 'bakery'],
  ['When are refunds issued?', /Refunds are issued within five business days/, 'bakery'],
  ['Where does the flour come from?', /Willamette Valley/, 'bakery'],
  ['Why is gluten-free bread not available?', /Gluten-free bread is not available/, 'bakery'],
  ['Quand le Vieux Lyon a-t-il été inscrit au patrimoine mondial ?', /depuis 1998/, 'lyon'],
  ['Qui a fait connaître la cuisine lyonnaise ?', /Paul Bocuse/, 'lyon'],
  ['東京タワーの高さは？', /333メートル/, 'tokyo'],
];

describe('answerQuestion', () => {
  // Always answering (minConfidence 0): what the ranking and the composition quote. Whether the default states it
  // or offers it as the closest sentence is the confidence's business (tests below).
  const always = createAnswerer(retriever, { minConfidence: 0 });
  for (const [q, re, page] of CASES) {
    it(`quotes the answering sentence and cites its page when asked "${q}"`, () => {
      const out = always.answer(q);
      expect(out.ok, JSON.stringify(out)).to.equal(true);
      if (!out.ok) return;
      expect(out.value.answer.text).to.match(re);
      expect(out.value.sentences[0]).to.equal(out.value.answer);
      // What the visitor reads: the answer, with at most one sentence of context around it.
      expect(out.value.text).to.include(out.value.answer.text);
      if (out.value.context !== null) expect(out.value.text).to.include(out.value.context);
      expect(out.value.confidence).to.be.within(0, 1);
      expect(out.value.citations).to.deep.equal([{ url: P[page]!.url, title: P[page]!.title }]);
    });
  }

  it('returns up to three ranked candidates, best first', () => {
    const out = always.answer('What does the Starter plan include?');
    expect(out.ok).to.equal(true);
    if (!out.ok) return;
    expect(out.value.sentences.length).to.be.within(1, 3);
    const scores = out.value.sentences.map((s) => s.score);
    expect([...scores].sort((a, b) => b - a)).to.deep.equal(scores);
  });

  it('is not_found when no word of the question is in the pages', () => {
    expect(answerQuestion(retriever, 'Who won the football match yesterday?')).to.deep.include({ ok: false, code: 'not_found' });
    expect(answerQuestion(retriever, '')).to.deep.include({ ok: false, code: 'not_found' });
  });

  it('is not_found, with the closest passages, when its confidence is too low', () => {
    const out = answerQuestion(retriever, 'Which Bavarian football club signed the Brazilian striker for the cake?');
    expect(out).to.deep.include({ ok: false, code: 'not_found' });
    if (out.ok) return;
    expect(out.closest.length).to.be.within(1, 3);
    expect(out.confidence).to.be.below(ANSWER_DEFAULTS.minConfidence);
    const sure = createAnswerer(retriever, { minConfidence: 0 }).answer('Which Bavarian football club signed the Brazilian striker for the cake?');
    expect(sure.ok).to.equal(true);
  });

  it('states an answer above minConfidence, offers the closest sentence between hedgeConfidence and it, and nothing below', () => {
    const q = 'Where does the flour come from?';
    const base = always.answer(q);
    if (!base.ok) throw new Error('no answer');
    const c = base.value.confidence;
    const stated = createAnswerer(retriever, { minConfidence: c - 0.01 }).answer(q);
    expect(stated.ok).to.equal(true);
    const hedged = createAnswerer(retriever, { minConfidence: c + 0.01, hedgeConfidence: c - 0.01 }).answer(q);
    expect(hedged).to.deep.include({ ok: false, code: 'not_found' });
    if (hedged.ok) return;
    expect(hedged.nearest?.text).to.equal(base.value.text);
    expect(hedged.nearest?.sentence.text).to.match(/Willamette Valley/);
    expect(hedged.nearest?.citations).to.deep.equal(base.value.citations);
    const plain = createAnswerer(retriever, { minConfidence: c + 0.01, hedgeConfidence: c + 0.005 }).answer(q);
    expect(plain.ok).to.equal(false);
    if (!plain.ok) expect(plain.nearest).to.equal(undefined);
  });

  it('offers no closest sentence when no passage can hold the kind of fact asked for', () => {
    // "How much does it weigh" on a bakery's pages without a single number near the bread: nothing to offer.
    const r = createRetriever(buildCorpus([{ url: 'https://b.example/', title: 'Bread', text: 'Our rye bread is baked every morning with spelt flour.\n\nThe bread keeps for days in a linen bag.' }]));
    const out = createAnswerer(r, { hedgeConfidence: 0 }).answer('How much does the rye bread weigh?');
    expect(out).to.deep.include({ ok: false, code: 'not_found' });
    if (!out.ok) expect(out.nearest).to.equal(undefined);
  });

  it('is not_found when a yes/no question names what the pages never mention', () => {
    const out = answerQuestion(createRetriever(buildCorpus([P['bakery']!])), 'Does the Family plan come with a blender?');
    expect(out).to.deep.include({ ok: false, code: 'not_found', reason: 'the pages never mention "blender"' });
  });

  it('never throws when asked anything', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (q) => {
      const out = answerQuestion(retriever, q);
      if (out.ok) expect(out.value.citations).to.have.length(1);
    }), { numRuns: 200 });
  });
});
