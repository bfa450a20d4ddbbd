/**
 * Scratch (issue 16, session 12): more generic visitor phrasings about a page as a whole, written from general usage
 * (not from any evaluation question), asked of the first six English DEVELOPMENT pages: which does the gate refuse?
 * `npx tsx scripts/eval/experiments/gate-self-battery2.ts '{…options…}'`
 */
import { checkGrounding, type GroundingOptions } from '../../../core/grounding/index.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { pageCases } from '../grounding-report.js';

const EN = [
  "What is the author's advice?", 'What tips does it give?', 'Who is this for?', 'Who is the target audience?', "What's the tone of the article?",
  "What's the bottom line?", 'What are the main arguments?', 'What does it recommend?', 'What is the writer complaining about?',
  'Why did the author write this?', "What's new?", "What's the summary?", 'What is the piece arguing?', 'Is it worth reading?',
  'What rating did it get?', 'What does it teach?', 'What can I learn from this?', "What's the lesson here?", 'Who is quoted?',
  'What sources are cited?', 'What does the study show?', 'What is the guide about?', 'What is the main takeaway?', 'What is the writer\'s view?',
  'What is the point of the article?', 'What is the author\'s position?', 'What is the article\'s main claim?', 'What problem does the post describe?',
  'What is the essay about?', 'Who is the author?', 'What is the text about?', 'What is the overall message?', 'Is the review positive?',
];

async function main(): Promise<void> {
  await loadAllLanguages();
  const opts: GroundingOptions = JSON.parse(process.argv[2] ?? '{}');
  const dev = await pageCases('dev');
  const corpora = [...new Set(dev.filter((c) => c.corpus.language === 'en').map((c) => c.corpus))].slice(0, 6);
  let refusedAll = 0;
  for (const q of EN) {
    const reasons = corpora.map((c) => checkGrounding(c, q, opts));
    const refused = reasons.filter((r) => !r.grounded).length;
    refusedAll += refused;
    if (refused > 0) console.log(`${refused}/${corpora.length} refused :: ${q} :: ${reasons.map((r) => r.reason).join(',')}`);
  }
  console.log(`refused ${refusedAll} of ${EN.length * corpora.length}`);
}
void main();
