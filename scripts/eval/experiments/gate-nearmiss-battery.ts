/**
 * Scratch (issue 16, session 9): generic near-miss templates (a visitor's everyday asks, written from general usage)
 * filled with the most frequent names of each DEVELOPMENT page (real pages' development half and the extra
 * development questions' pages): how often does the gate let each template through? Most answers are not on the
 * pages (not checked one by one: a direction, not a figure).
 */
import { checkGrounding } from '../../../core/grounding/index.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { pageCases } from '../grounding-report.js';
import { extraCases } from '../grounding-report.js';

const TEMPLATES = [
  'How much does {} cost?', 'What are the opening hours of {}?', 'How do I install {}?', 'Where can I buy {}?', "What is {}'s phone number?",
  'How do I get to {}?', "What's the weather like in {}?", 'Is {} open on Sundays?', 'How do I contact {}?', 'What is the address of {}?',
  'Where can I download {}?', 'How old is {}?', 'Who is the CEO of {}?', 'What is the population of {}?', 'How do I cancel my {} subscription?',
  'When is the next {} event?', 'Does {} ship internationally?', 'What is the best {} alternative?',
];

async function main(): Promise<void> {
  await loadAllLanguages();
  const cases = [...await pageCases('dev'), ...await extraCases()].filter((c) => c.corpus.language === 'en');
  const pages = [...new Map(cases.map((c) => [c.corpus, c.text])).entries()];
  const passed = new Map<string, string[]>();
  for (const [corpus, text] of pages) {
    const counts = new Map<string, number>();
    for (const m of text.matchAll(/(?<=[a-z,] )([A-Z][a-z]{3,})(?= [a-z])/g)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
    const names = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([n]) => n);
    for (const t of TEMPLATES) for (const n of names) {
      const q = t.replace('{}', n);
      if (checkGrounding(corpus, q, JSON.parse(process.argv[2] ?? '{}')).grounded) (passed.get(t) ?? passed.set(t, []).get(t)!).push(q);
    }
  }
  for (const t of TEMPLATES) console.log(`${String(passed.get(t)?.length ?? 0).padStart(3)} / ${pages.length * 2}  ${t}  ${(passed.get(t) ?? []).slice(0, 4).join(' | ')}`);
}
void main();
