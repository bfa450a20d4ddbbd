import { expect } from 'chai';
import { createRetriever } from '../../../core/retrieval/retriever.js';
import { buildCorpus } from '../../../core/text/corpus.js';

const text = [
  'The old mill stands by the river.',
  'The mill was built in 1712 by the Abbey of Saint Gall.',
  '',
  'The river floods the mill every spring. Visitors can tour the mill on weekends and see the wheel turn.',
  '',
  'The bakery next door sells rye bread, baked every morning in a wood-fired oven behind the shop.',
].join('\n');

describe('createRetriever', () => {
  const retriever = createRetriever(buildCorpus([{ url: 'https://mill.example/', title: 'The old mill', text }], { minParagraphChars: 0 }));

  it('ranks passages with their page url and title when asked for context', () => {
    const ranked = retriever.rankPassages('What bread does the bakery sell?', 2);
    expect(ranked[0]!.text).to.include('rye bread');
    expect(ranked[0]).to.deep.include({ url: 'https://mill.example/', title: 'The old mill' });
    expect(ranked.length).to.be.at.most(2);
    expect(ranked.map((r) => r.score)).to.deep.equal([...ranked.map((r) => r.score)].sort((a, b) => b - a));
  });

  it('returns no passage when the question shares no content word with the pages', () => {
    expect(retriever.rankPassages('quantum chromodynamics')).to.deep.equal([]);
  });

  it('analyses a question into its content terms, leaving out stopwords and question words', () => {
    const q = retriever.analyze('When did the river flood the mill?');
    expect(q.terms.map((t) => retriever.corpus.terms[t])).to.deep.equal(['river', 'flood', 'mill']);
    expect(q.words).to.include('when');
    expect(q.totalIdf).to.be.greaterThan(0);
    // A word the pages lack still weighs in the total: it is part of what the question asks.
    expect(retriever.analyze('When did the volcano flood the mill?').totalIdf).to.be.greaterThan(retriever.analyze('When did the river flood the mill?').totalIdf);
  });

  it('gives the same ranking when asked twice (scratch buffers are reset)', () => {
    const a = retriever.rankPassages('Can visitors tour the mill?', 3);
    expect(retriever.rankPassages('Can visitors tour the mill?', 3)).to.deep.equal(a);
  });
});
