/**
 * Scratch (issue 16, session 9): why the gate decides a DEVELOPMENT question as it does — its content words (rank,
 * count on the page, df, log-likelihood ratio), the page's evidence and the best window's coverage.
 * `npx tsx scripts/eval/experiments/gate-why.ts <substring of a question> [--extra]` (development half and the
 * extra development questions only).
 */
import { checkGrounding } from '../../../core/grounding/index.js';
import { analyzeQuestion } from '../../../core/grounding/question.js';
import { pageVerdicts } from '../../../core/grounding/evidence.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { pageCases } from '../grounding-report.js';
import { extraCases, extra2Cases } from '../grounding-report.js';
import { validCases } from './gate-valid.js';

async function main(): Promise<void> {
  await loadAllLanguages();
  const needle = process.argv[2]!;
  const cases = [...await pageCases('dev'), ...await extraCases(), ...await extra2Cases(), ...(process.argv.includes('--valid') ? await validCases() : [])];
  for (const c of cases.filter((x) => x.question.includes(needle))) {
    const r = checkGrounding(c.corpus, c.question);
    const q = analyzeQuestion(c.corpus, c.question);
    const v = pageVerdicts(c.corpus, q.content, q.names)[0];
    console.log(`${c.kind} ${r.grounded ? 'PASS' : 'REFUSE'} ${r.reason} :: ${c.question}  [${c.corpus.pageTokenCount[0]} tokens, ${c.corpus.passages.length} passages, lang ${c.corpus.language}]`);
    console.log(`  intent ${[...q.intent.types].join(',') || '-'} action ${q.intent.action ?? '-'} frame ${[...q.intent.frame].join(',')} names ${[...q.names].join(',')} evidence ${v?.evidence.toFixed(2) ?? '-'} matched ${v?.matched.join(',') ?? ''}`);
    q.content.forEach((w, k) => console.log(`    ${w.word.padEnd(14)} rank ${String(w.rank).padStart(6)} id ${w.id ?? '-'} df ${v?.df[k] ?? 0}`));
  }
}
void main();
