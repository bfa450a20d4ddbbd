/**
 * Scratch (issue 16, session 10): why the REMOTE path (the SDK's selected sources, gated by the server) decides the
 * DEVELOPMENT questions it gets wrong — reason counts per development set, and with `--list` each wrong question's
 * reason and per-source evidence. `npx tsx scripts/eval/experiments/gate-remote-why.ts '{…options…}' [--list]`
 */
import { checkGrounding, type GroundingOptions } from '../../../core/grounding/index.js';
import { analyzeQuestion } from '../../../core/grounding/question.js';
import { pageVerdicts } from '../../../core/grounding/evidence.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { extraCases, extra2Cases, pageCases, squadCases } from '../grounding-report.js';
import { remoteGate } from '../remote-gate.js';

async function main(): Promise<void> {
  await loadAllLanguages();
  const opts: GroundingOptions = JSON.parse(process.argv.slice(2).find((a) => a.startsWith('{')) ?? '{}');
  const list = process.argv.includes('--list');
  const gate = remoteGate();
  for (const [name, cs] of [['dev', await pageCases('dev')], ['extra', await extraCases()], ['extra2', await extra2Cases()], ['squad', await squadCases('tune')]] as const) {
    const count: Record<string, number> = {};
    for (const c of cs) {
      const corpus = await gate.corpus(c.corpus, c.question);
      const r = checkGrounding(corpus, c.question, opts);
      if (r.grounded === (c.expect === 'answer')) continue;
      const k = `${c.expect}:${r.reason}`; count[k] = (count[k] ?? 0) + 1;
      if (list && name !== 'squad') {
        const q = analyzeQuestion(corpus, c.question, opts);
        const vs = pageVerdicts(corpus, q.content, q.names).sort((a, b) => b.evidence - a.evidence);
        console.log(`${name} ${c.kind} ${r.reason} :: ${c.question}  [${corpus.pages.length} sources] content ${q.content.map((w) => `${w.word}/${w.rank}`).join(' ')}`);
        for (const v of vs.slice(0, 3)) console.log(`    src ${v.page} ev ${v.evidence.toFixed(2)} matched ${v.matched.join(',')} df ${[...v.df].join(',')}`);
      }
    }
    console.log(name, JSON.stringify(count));
  }
}
void main();
