/**
 * Scratch (issue 16, session 9): generic visitor phrasings about a page as a whole (written from general usage, not
 * from any evaluation question), asked of a few DEVELOPMENT pages: which does the gate refuse?
 */
import { checkGrounding } from '../../../core/grounding/index.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { pageCases } from '../grounding-report.js';

const EN = [
  'What does the author argue?', "What's the author's point?", "What's the takeaway?", 'Who is the article by?', "What's the news?",
  "What's the main message?", 'What does the post talk about?', 'What is discussed?', 'What is the verdict?', 'What does the piece say?',
  'What is the headline?', 'When was this written?', "Who's the writer?", "What's going on here?", 'What is this blog about?',
  'What is the site about?', 'What are the key points?', 'Can you summarize it?', "What's the conclusion?", 'What did the researchers find?',
  "What's the author's opinion?", 'Who wrote it?', 'What is it about?', 'Give me the gist', 'What is the article trying to say?',
  'Who published this?', 'What is the purpose of this article?', 'What topics are covered?', 'Is this a review?', 'What kind of article is this?',
  'What is being announced?', 'What is the announcement?', 'What does the writer recommend?', 'What is the story?', 'Which product is reviewed?',
];

async function main(): Promise<void> {
  await loadAllLanguages();
  const dev = await pageCases('dev');
  const corpora = [...new Set(dev.filter((c) => c.corpus.language === 'en').map((c) => c.corpus))].slice(0, 6);
  for (const q of EN) {
    const refused = corpora.filter((c) => !checkGrounding(c, q).grounded).length;
    if (refused > 0) console.log(`${refused}/${corpora.length} refused :: ${q} :: ${corpora.map((c) => checkGrounding(c, q).reason).join(",")}`);
  }
}
void main();
