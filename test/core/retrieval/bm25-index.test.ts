import { expect } from 'chai';
import { createBm25Index } from '../../../core/retrieval/bm25-index.js';
import { buildCorpus } from '../../../core/text/corpus.js';

describe('createBm25Index', () => {
  const corpus = buildCorpus([{ url: 'u', title: '', text: 'Bread is good. Bread is warm. Rye bread is rare. Cakes are sweet.' }]);
  const index = createBm25Index(corpus, corpus.sentences.map((s) => s.terms));
  const id = (w: string): number => corpus.vocabulary.get(w)!;

  it('gives rarer terms a higher IDF', () => {
    expect(index.size).to.equal(4);
    expect(index.idf(id('rye'))).to.be.greaterThan(index.idf(id('bread')));
    expect(index.idf(999_999)).to.equal(0);
  });

  it('scores the units holding the query terms and touches no other', () => {
    const scores = new Float64Array(index.size);
    const touched = index.accumulate([id('rye'), id('bread')], scores);
    expect(touched.sort()).to.deep.equal([0, 1, 2]);
    expect(scores[3]).to.equal(0);
    expect(scores[2]).to.be.greaterThan(scores[0]!); // rye + bread beats bread alone
  });

  it('multiplies a term by its weight when weights are given', () => {
    const a = new Float64Array(index.size);
    const b = new Float64Array(index.size);
    index.accumulate([id('cake')], a);
    index.accumulate([id('cake')], b, [2]);
    expect(b[3]).to.be.closeTo(2 * a[3]!, 1e-9);
  });
});
