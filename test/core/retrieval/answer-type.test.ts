import { expect } from 'chai';
import { answerMatches, answerTypeMatches, expectedAnswer, expectedAnswerType } from '../../../core/retrieval/answer-type.js';
import { tokenize } from '../../../core/text/tokenize.js';

describe('expectedAnswerType', () => {
  const CASES: [string, string | null][] = [
    ['When was the tower built?', 'time'], ['In what year did it open?', 'time'], ['How many loaves are included?', 'number'],
    ['What percentage of users pay?', 'number'], ['Who founded the bakery?', 'person'], ['Where is the kitchen?', 'place'],
    ['Quand a lieu la fête ?', 'time'], ['Wie viele Brote gibt es?', 'number'], ['What is sourdough?', null],
  ];
  for (const [q, t] of CASES) it(`says ${t} when asked "${q}"`, () => expect(expectedAnswerType(tokenize(q))).to.equal(t));
});

describe('expectedAnswer: the one form a site question asks for (session 15)', () => {
  const CASES: [string, Record<string, string> | null][] = [
    ['What is your phone number?', { type: 'contact', detail: 'phone' }], ['What is your email address?', { type: 'contact', detail: 'email' }],
    ['How do I contact you?', { type: 'contact' }], ['What is the address?', { type: 'contact', detail: 'address' }],
    ['Where are you located?', { type: 'contact', detail: 'address' }], ['Where are you?', { type: 'contact', detail: 'address' }],
    ['Where is the kitchen?', { type: 'place' }], ['Where is your shop?', { type: 'place' }],
    ['What are your opening hours?', { type: 'time', detail: 'hours' }], ['What are your hours?', { type: 'time', detail: 'hours' }],
    ['When do you close on Saturday?', { type: 'time', detail: 'clock' }], ['When does the new museum open?', { type: 'time' }],
    ['How many hours do you work a week?', { type: 'duration' }],
    ['What time does the match start?', { type: 'time', detail: 'clock' }], ['What time of day is best?', { type: 'time' }],
    ['When did the plant open?', { type: 'time' }], ['What was the address about?', { type: 'place' }], // as before session 15: no postal address asked
  ];
  for (const [q, intent] of CASES) it(`reads "${q}" as ${JSON.stringify(intent)}`, () => expect(expectedAnswer(tokenize(q))).to.deep.equal(intent));

  it('matches each form only', () => {
    const q = (s: string): string[] => tokenize(s);
    expect(answerMatches({ type: 'contact', detail: 'phone' }, 'Call us on 01632 960 418.', q('What is your phone number?'))).to.equal(true);
    expect(answerMatches({ type: 'contact', detail: 'phone' }, 'Write to hello@bakery.example.', q('What is your phone number?'))).to.equal(false);
    expect(answerMatches({ type: 'contact', detail: 'email' }, 'Write to hello@bakery.example.', q('What is your email?'))).to.equal(true);
    expect(answerMatches({ type: 'contact', detail: 'address' }, 'Find us at 14 Canal Street.', q('Where are you?'))).to.equal(true);
    expect(answerMatches({ type: 'contact', detail: 'address' }, 'Write to hello@bakery.example.', q('Where are you?'))).to.equal(false);
    expect(answerMatches({ type: 'time', detail: 'hours' }, 'Monday to Friday, 9 am to 5 pm.', q('What are your opening hours?'))).to.equal(true);
    expect(answerMatches({ type: 'time', detail: 'hours' }, 'Orders placed before 1 pm leave the same day.', q('What are your opening hours?'))).to.equal(false);
    expect(answerMatches({ type: 'time', detail: 'clock' }, 'Kick-off is at 3 pm.', q('What time is kick-off?'))).to.equal(true);
    expect(answerMatches({ type: 'time', detail: 'clock' }, 'Kick-off is on 3 June.', q('What time is kick-off?'))).to.equal(false);
  });
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
