/**
 * Scratch (issue 16, session 9): the DEVELOPMENT questions whose verdict changes between two option sets.
 * `npx tsx scripts/eval/experiments/gate-diff.ts '{…before…}' '{…after…}' [squad|dev|extra] [max] [--remote]` (SQuAD tuning
 * half, real pages' development half, session 9's extra development questions).
 */
import { checkGrounding } from '../../../core/grounding/index.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { squadCases, pageCases } from '../grounding-report.js';
import { extraCases } from '../grounding-report.js';
import { remoteGate } from '../remote-gate.js';

async function main(): Promise<void> {
  await loadAllLanguages();
  const a = JSON.parse(process.argv[2]!), b = JSON.parse(process.argv[3]!);
  const which = process.argv[4] ?? 'squad';
  const cs = which === 'squad' ? await squadCases('tune') : which === 'dev' ? await pageCases('dev') : await extraCases();
  let n = 0;
  const remote = process.argv.includes('--remote') ? remoteGate() : null;
  for (const c of cs) {
    const x = remote ? await remote.check(c.corpus, c.question, a) : checkGrounding(c.corpus, c.question, a);
    const y = remote ? await remote.check(c.corpus, c.question, b) : checkGrounding(c.corpus, c.question, b);
    if (x.grounded === y.grounded) continue;
    if (++n <= Number(process.argv[5] ?? 40)) console.log(`${c.expect} ${x.grounded ? 'P' : 'R'}->${y.grounded ? 'P' : 'R'} ${x.reason}->${y.reason} :: ${c.question} :: [${c.text.slice(0, 40).replace(/\n/g, ' ')}]`);
  }
  console.log('changed', n);
}
void main();
