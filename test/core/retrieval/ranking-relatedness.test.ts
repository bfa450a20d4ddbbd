import { expect } from 'chai';
import { createRetriever } from '../../../core/retrieval/retriever.js';
import { createSentenceRanker } from '../../../core/retrieval/sentence-ranker.js';
import { buildCorpus } from '../../../core/text/corpus.js';

// The ranking's optional `relatedness` port (a host's extra evidence, e.g. word vectors on the server): absent or at
// weight 0 the ranking is the default one; present, it is weighed as a second-stage feature.
const text = [
  'The mill grinds flour for the village bakery.',
  'Its owner bought the building in 1921 and restored the wheel.',
  'The river floods the mill every spring.',
].join('\n');
const retriever = createRetriever(buildCorpus([{ url: 'https://mill.example/', title: 'The old mill', text }]));
const questions = ['When did the owner purchase the mill?', 'What does the mill grind?', 'Does the river flood the mill?'];
const ranked = (r: ReturnType<typeof createSentenceRanker>, q: string): { sentence: number; score: number }[] =>
  r.rank(q, 3).map(({ sentence, score }) => ({ sentence, score }));

describe('sentence ranking: the relatedness port', () => {
  const plain = createSentenceRanker(retriever);
  // Favours the third sentence, whatever the question.
  const third = (): ((q: unknown, s: number) => number) => (_q, s) => (s === 2 ? 1 : 0);

  it('leaves the ranking unchanged when absent or weighted 0', () => {
    const unweighted = createSentenceRanker(retriever, { relatedness: third(), relatednessBonus: 0 });
    for (const q of questions) expect(ranked(unweighted, q)).to.deep.equal(ranked(plain, q));
  });

  it('adds its evidence, weighted, to the candidates it scores', () => {
    const q = 'When did the owner purchase the mill?';
    expect(plain.rank(q, 1)[0]!.sentence).to.not.equal(2);
    const weighted = createSentenceRanker(retriever, { relatedness: third(), relatednessBonus: 2 });
    expect(weighted.rank(q, 1)[0]!.sentence).to.equal(2);
  });

  it('is given the question, the sentence, the corpus and the sentence index IDF', () => {
    const seen: { sentence: number; idfOfMill: number; terms: number }[] = [];
    const spy = createSentenceRanker(retriever, {
      relatednessBonus: 0.1,
      relatedness: (q, s, corpus, idf) => {
        const mill = corpus.vocabulary.get(corpus.analyze('mill').terms[0]!)!;
        seen.push({ sentence: s, idfOfMill: idf(mill), terms: q.terms.length });
        return 0;
      },
    });
    spy.rank('What does the mill grind?', 3);
    expect(seen.map((x) => x.sentence).sort()).to.include.members([0, 2]);
    // "mill" is in two of three sentences: a low but positive BM25 IDF.
    expect(seen[0]!.idfOfMill).to.be.greaterThan(0).and.lessThan(1);
    expect(seen[0]!.terms).to.equal(2);
  });
});
