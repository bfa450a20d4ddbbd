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

describe('createSentenceRanker: the answer next to the question, and definitions', () => {
  const text = [
    'The ferry to the island leaves the harbour every morning.',
    'Its captain, Ana Silva, has sailed the crossing since she was a girl.',
    'The ferry, which the town bought from a yard in Norway after a long debate about the harbour budget, seats 120.',
    'Up to 300 people ride the ferry on a summer day.',
    '',
    'Engineers who compare old network tools still mention Telnet, and many manuals show Telnet beside SSH.',
    'Telnet is a protocol for remote text terminals.',
    'The tool most manuals mention first is Telnet.',
  ].join('\n');
  const ranker = createSentenceRanker(createRetriever(buildCorpus([{ url: 'https://ferry.example/', title: 'The island ferry', text }])));
  // The second-stage features of each candidate sentence, by its text.
  const features = (question: string): Record<string, readonly number[]> => Object.fromEntries(ranker.candidates(ranker.retriever.analyze(question), 30)
    .map((c) => [ranker.retriever.corpus.sentences[c.sentence]!.text, c.second]));
  const NEAR = 6;
  const DEFINES = 7;

  it('marks a number of the asked kind within three words of a question word, not one a clause away', () => {
    const f = features('How many people ride the ferry?');
    expect(f['Up to 300 people ride the ferry on a summer day.']![NEAR]).to.equal(1);
    expect(f['The ferry, which the town bought from a yard in Norway after a long debate about the harbour budget, seats 120.']![NEAR]).to.equal(0);
  });

  it('marks a name the question does not give next to a question word, for who/where questions', () => {
    const f = features('Who is the captain of the ferry?');
    expect(f['Its captain, Ana Silva, has sailed the crossing since she was a girl.']![NEAR]).to.equal(1);
    // "Norway" is a name, but no question word is near it.
    expect(f['The ferry, which the town bought from a yard in Norway after a long debate about the harbour budget, seats 120.']![NEAR]).to.equal(0);
  });

  it('marks a sentence that opens by defining what "what is X?" asks about, and ranks it first', () => {
    const f = features('What is Telnet?');
    expect(f['Telnet is a protocol for remote text terminals.']![DEFINES]).to.equal(1);
    expect(f['Engineers who compare old network tools still mention Telnet, and many manuals show Telnet beside SSH.']![DEFINES]).to.equal(0);
    expect(f['The tool most manuals mention first is Telnet.']![DEFINES]).to.equal(0);
    expect(ranker.rank('What is Telnet?', 1)[0]!.text).to.equal('Telnet is a protocol for remote text terminals.');
    // Not a "what is X?" question: no definition sought.
    expect(features('Which protocol is Telnet?')['Telnet is a protocol for remote text terminals.']![DEFINES]).to.equal(0);
  });
});
