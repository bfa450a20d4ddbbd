import { expect } from 'chai';
import { createRetriever } from '../../../core/retrieval/retriever.js';
import { createSentenceRanker } from '../../../core/retrieval/sentence-ranker.js';
import { buildCorpus } from '../../../core/text/corpus.js';

const text = [
  'The old mill stands by the river.',
  'The mill was built in 1712 by the Abbey of Saint Gall.',
  'The river floods the mill every spring.',
  'Visitors can tour the mill on weekends.',
  '',
  'The bakery next door sells rye bread.',
  '',
  'Opening hours',
  '',
  'Wednesday to Sunday, from 10 am to 6 pm.',
  '',
  'Is there parking?',
  '',
  'Yes. A free car park sits behind the bakery.',
].join('\n');

describe('createSentenceRanker', () => {
  const ranker = createSentenceRanker(createRetriever(buildCorpus([{ url: 'https://mill.example/', title: 'The old mill', text }])));

  it('prefers the sentence holding an answer of the asked type', () => {
    expect(ranker.rank('When was the mill built?', 1)[0]!.text).to.equal('The mill was built in 1712 by the Abbey of Saint Gall.');
    expect(ranker.rank('Who built the mill?', 1)[0]!.text).to.equal('The mill was built in 1712 by the Abbey of Saint Gall.');
    expect(ranker.rank('When was the mill built?', 1)[0]!.typeMatch).to.equal(true);
  });

  it('ranks by the rarer shared words', () => {
    expect(ranker.rank('what bread does the bakery sell', 1)[0]!.text).to.equal('The bakery next door sells rye bread.');
  });

  it('returns no sentence when the question shares no content word with the pages', () => {
    expect(ranker.rank('quantum chromodynamics', 3)).to.deep.equal([]);
  });

  it('classifies headings, questions and fragments, and never ranks them', () => {
    const roles = Object.fromEntries(ranker.retriever.corpus.sentences.map((s, i) => [s.text, ranker.roles[i]]));
    expect(roles).to.deep.include({ 'Opening hours': 'heading', 'Is there parking?': 'question', 'Yes.': 'fragment' });
    for (const q of ['opening hours', 'Is there parking?', 'parking']) {
      for (const r of ranker.rank(q, 5)) expect(['Opening hours', 'Is there parking?', 'Yes.']).not.to.include(r.text);
    }
  });

  it('answers with the sentence under a matching heading or FAQ question', () => {
    expect(ranker.rank('What are the opening hours?', 1)[0]!.text).to.equal('Wednesday to Sunday, from 10 am to 6 pm.');
    expect(ranker.rank('Where can I park?', 1)[0]!.text).to.equal('A free car park sits behind the bakery.');
  });

  it('gives the same ranking when asked twice (scratch buffers are reset)', () => {
    const a = ranker.rank('Can visitors tour the mill?', 3);
    expect(ranker.rank('Can visitors tour the mill?', 3)).to.deep.equal(a);
  });
});
