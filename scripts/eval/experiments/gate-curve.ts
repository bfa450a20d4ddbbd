/**
 * Scratch (issue 16, session 10): how one threshold trades false refusals against off-topic accepted on the
 * DEVELOPMENT data only — real pages' development half, session 9's and session 10's extra questions (pooled), SQuAD
 * tuning — whole page and remote path. `npx tsx scripts/eval/experiments/gate-curve.ts minEvidence 2,4,6,8 ['{…base…}']`
 */
import { checkGrounding, type GroundingOptions } from '../../../core/grounding/index.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { extraCases, extra2Cases, pageCases, rates, remoteVerdicts, squadCases, type GateCase, type Rates } from '../grounding-report.js';

const f = (r: Rates): string => `${r.balanced.toFixed(4)} ${(100 * r.frr).toFixed(2).padStart(5)} % ${(100 * r.far).toFixed(2).padStart(5)} %`;

async function main(): Promise<void> {
  await loadAllLanguages();
  const [key, values, base] = [process.argv[2]!, process.argv[3]!.split(',').map((x) => JSON.parse(x) as unknown), JSON.parse(process.argv[4] ?? '{}') as GroundingOptions];
  const pages: GateCase[] = [...await pageCases('dev'), ...await extraCases(), ...await extra2Cases()];
  const squad = await squadCases('tune');
  console.log(`${key} | real pages dev+extra+extra2 (${pages.length}) whole | remote | SQuAD tuning (${squad.length}) whole | remote   (balanced, false refusals, off-topic accepted)`);
  for (const v of values) {
    const o = { ...base, [key]: v } as GroundingOptions;
    const w = (c: GateCase): boolean => checkGrounding(c.corpus, c.question, o).grounded;
    const rp = await remoteVerdicts(pages, o), rs = await remoteVerdicts(squad, o);
    console.log(`${String(v).padStart(6)} | ${f(rates(pages, w))} | ${f(rates(pages, (c) => rp.get(c)!))} | ${f(rates(squad, w))} | ${f(rates(squad, (c) => rs.get(c)!))}`);
  }
}
void main();
