import { expect } from 'chai';
import { createRetriever } from '../../../core/retrieval/retriever.js';
import { buildCorpus } from '../../../core/text/corpus.js';

const text = [
  'The old mill stands by the river.',
  'The mill was built in 1712 by the Abbey of Saint Gall.',
  'The river floods the mill every spring.',
  'Visitors can tour the mill on weekends.',
  '',
  'The bakery next door sells rye bread.',
].join('\n');

describe('createRetriever', () => {
  const retriever = createRetriever(buildCorpus([{ url: 'https://mill.example/', title: 'The old mill', text }]));

  it('prefers the sentence holding an answer of the asked type', () => {
    expect(retriever.rankSentences('When was the mill built?', 1)[0]!.text).to.equal('The mill was built in 1712 by the Abbey of Saint Gall.');
    expect(retriever.rankSentences('Who built the mill?', 1)[0]!.text).to.equal('The mill was built in 1712 by the Abbey of Saint Gall.');
  });

  it('ranks by the rarer shared words', () => {
    expect(retriever.rankSentences('what bread does the bakery sell', 1)[0]!.text).to.equal('The bakery next door sells rye bread.');
  });

  it('returns no sentence when the question shares no content word with the pages', () => {
    expect(retriever.rankSentences('quantum chromodynamics', 3)).to.deep.equal([]);
  });

  it('measures coverage as the share of the question found in the best passage', () => {
    const q = retriever.analyze('When did the river flood the mill?');
    const best = retriever.rankSentences(q, 1)[0]!;
    expect(retriever.coverage(q, best.sentence)).to.equal(1);
    const q2 = retriever.analyze('When did the volcano flood the mill?');
    expect(retriever.coverage(q2, retriever.rankSentences(q2, 1)[0]!.sentence)).to.be.within(0.1, 0.9);
  });

  it('ranks passages with their page url and title when asked for context', () => {
    const ranked = retriever.rankPassages('What bread does the bakery sell?', 2);
    expect(ranked[0]!.text).to.include('rye bread');
    expect(ranked[0]).to.deep.include({ url: 'https://mill.example/', title: 'The old mill' });
    expect(ranked.length).to.be.at.most(2);
    expect(retriever.rankPassages('quantum chromodynamics')).to.deep.equal([]);
  });

  it('gives the same ranking when asked twice (scratch buffers are reset)', () => {
    const a = retriever.rankSentences('Can visitors tour the mill?', 3);
    const b = retriever.rankSentences('Can visitors tour the mill?', 3);
    expect(b).to.deep.equal(a);
  });
});
