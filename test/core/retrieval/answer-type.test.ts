import { expect } from 'chai';
import { answerTypeMatches, expectedAnswerType } from '../../../core/retrieval/answer-type.js';
import { tokenize } from '../../../core/text/tokenize.js';

describe('expectedAnswerType', () => {
  const CASES: [string, string | null][] = [
    ['When was the tower built?', 'time'], ['In what year did it open?', 'time'], ['How many loaves are included?', 'number'],
    ['What percentage of users pay?', 'number'], ['Who founded the bakery?', 'person'], ['Where is the kitchen?', 'place'],
    ['Quand a lieu la fête ?', 'time'], ['Wie viele Brote gibt es?', 'number'], ['What is sourdough?', null],
  ];
  for (const [q, t] of CASES) it(`says ${t} when asked "${q}"`, () => expect(expectedAnswerType(tokenize(q))).to.equal(t));
});

describe('answerTypeMatches', () => {
  it('finds a year the question does not already give', () => {
    expect(answerTypeMatches('time', 'It was completed in 1958.', tokenize('When was it completed?'))).to.equal(true);
    expect(answerTypeMatches('time', 'In 1958 it was completed.', tokenize('What happened in 1958?'))).to.equal(false);
  });

  it('finds a number for how-many questions and a name for who questions', () => {
    expect(answerTypeMatches('number', 'The plan includes two loaves.', tokenize('How many loaves?'))).to.equal(true);
    expect(answerTypeMatches('number', 'The plan includes loaves.', tokenize('How many loaves?'))).to.equal(false);
    expect(answerTypeMatches('person', 'The bakery was founded by Maria Lopez.', tokenize('Who founded the bakery?'))).to.equal(true);
    expect(answerTypeMatches('person', 'the bakery was founded long ago.', tokenize('Who founded the bakery?'))).to.equal(false);
  });
});
