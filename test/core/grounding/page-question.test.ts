import { expect } from 'chai';
import { isPageQuestion } from '../../../core/grounding/page-question.js';
import { loadAllLanguages } from '../../../core/text/load-language.js';

const PAGE_QUESTIONS = [
  'Summarise this page', 'summarize the article', 'Can you give me a summary?', 'What is this about?', "What's this page about?",
  'tl;dr', 'TLDR please', 'Give me an overview', 'What are the key points?', 'Explain this page', 'What does this page say?',
  'Résume cette page', 'De quoi parle cette page ?', 'Fasse diese Seite zusammen', 'Worum geht es?', 'Resume esta página',
  '¿De qué trata esta página?', 'Resuma esta página', '总结一下这个页面', 'このページを要約して',
];
const OTHER_QUESTIONS = [
  'Summarise the refund policy', 'What is the Family plan about?', 'How does it work?', 'What is the price?',
  'Tell me about sourdough', 'Who wrote this page?', 'Explain quantum physics',
];

describe('isPageQuestion', () => {
  // A question's language words come with its pack (as a host does with loadLanguageOf).
  before(loadAllLanguages);
  for (const q of PAGE_QUESTIONS) it(`says yes when asked "${q}"`, () => expect(isPageQuestion(q, 'en')).to.equal(true));
  for (const q of OTHER_QUESTIONS) it(`says no when asked "${q}"`, () => expect(isPageQuestion(q, 'en')).to.equal(false));
});
