/**
 * Scratch (issue 16): generic visitor phrasings about a page as a whole (written from general usage, not from any
 * evaluation question), asked of the first six English DEVELOPMENT pages: which does the gate refuse?
 * `npx tsx scripts/eval/experiments/gate-self-battery.ts [--second] ['{…options…}']` — session 9's battery, or with
 * `--second` session 12's.
 */
import { checkGrounding, type GroundingOptions } from '../../../core/grounding/index.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { pageCases } from '../grounding-report.js';

/** Session 9: what a page is about, who wrote it, its verdict. */
const FIRST = [
  'What does the author argue?', "What's the author's point?", "What's the takeaway?", 'Who is the article by?', "What's the news?",
  "What's the main message?", 'What does the post talk about?', 'What is discussed?', 'What is the verdict?', 'What does the piece say?',
  'What is the headline?', 'When was this written?', "Who's the writer?", "What's going on here?", 'What is this blog about?',
  'What is the site about?', 'What are the key points?', 'Can you summarize it?', "What's the conclusion?", 'What did the researchers find?',
  "What's the author's opinion?", 'Who wrote it?', 'What is it about?', 'Give me the gist', 'What is the article trying to say?',
  'Who published this?', 'What is the purpose of this article?', 'What topics are covered?', 'Is this a review?', 'What kind of article is this?',
  'What is being announced?', 'What is the announcement?', 'What does the writer recommend?', 'What is the story?', 'Which product is reviewed?',
];

/** Session 12: advice, tone, who is quoted, what one learns. */
const SECOND = [
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
  const args = process.argv.slice(2);
  const questions = args.includes('--second') ? SECOND : FIRST;
  const opts: GroundingOptions = JSON.parse(args.find((a) => a !== '--second') ?? '{}');
  const dev = await pageCases('dev');
  const corpora = [...new Set(dev.filter((c) => c.corpus.language === 'en').map((c) => c.corpus))].slice(0, 6);
  let refusedAll = 0;
  for (const q of questions) {
    const reasons = corpora.map((c) => checkGrounding(c, q, opts));
    const refused = reasons.filter((r) => !r.grounded).length;
    refusedAll += refused;
    if (refused > 0) console.log(`${refused}/${corpora.length} refused :: ${q} :: ${reasons.map((r) => r.reason).join(',')}`);
  }
  console.log(`refused ${refusedAll} of ${questions.length * corpora.length}`);
}
void main();
