/**
 * Scratch (issue 16, session 9): refusal reasons of answerable and acceptance of off-topic DEVELOPMENT questions
 * (SQuAD tuning, real pages' development half, the extra development questions), for options given as JSON.
 */
import { checkGrounding } from '../../../core/grounding/index.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { squadCases, pageCases } from '../grounding-report.js';
import { extraCases, extra2Cases } from '../grounding-report.js';

async function main(): Promise<void> {
  await loadAllLanguages();
  const o = JSON.parse(process.argv[2] ?? '{}');
  for (const [name, cs] of [['squad', await squadCases('tune')], ['dev', await pageCases('dev')], ['extra', await extraCases()], ['extra2', await extra2Cases()]] as const) {
    const count: Record<string, number> = {};
    for (const c of cs) { const r = checkGrounding(c.corpus, c.question, o); if (r.grounded !== (c.expect === 'answer')) { const k = `${c.expect}:${r.reason}`; count[k] = (count[k] ?? 0) + 1; } }
    console.log(name, JSON.stringify(count));
  }
}
void main();
