/**
 * Scratch (issue 16, session 8): the gate's figures on the DEVELOPMENT halves only (real pages dev, SQuAD tuning),
 * whole page and remote path, for options given as JSON; `--fail` lists the development pages' failures;
 * `--cv` splits the development pages in two (by page, alternating) and prints each half.
 * `--extra` adds session 9's extra development questions (gate-extra-questions.txt), `--extra2` session 10's
 * second batch (gate-extra2-questions.txt), `--valid` session 11's validation batch (gate-valid-questions.txt; its
 * failures listed by `--fail-valid` only).
 * `npx tsx scripts/eval/experiments/gate-dev.ts '{"minCoverage":0.3}' [--fail] [--cv] [--extra] [--no-squad] [--no-remote]`
 */
import { checkGrounding, type GroundingOptions } from '../../../core/grounding/index.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { validCases } from './gate-valid.js';
import { extraCases, extra2Cases, pageCases, squadCases, rates, remoteVerdicts, type GateCase, type Rates } from '../grounding-report.js';

const fmt = (r: Rates): string => `${r.balanced.toFixed(4)} / ${(100 * r.frr).toFixed(2)} % / ${(100 * r.far).toFixed(2)} %  ${Object.entries(r.byKind).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(' · ')}`;

async function main(): Promise<void> {
  await loadAllLanguages();
  const opts: GroundingOptions = JSON.parse(process.argv.slice(2).find((a) => a.startsWith('{')) ?? '{}');
  const has = (f: string): boolean => process.argv.includes(f);
  const dev = await pageCases('dev');
  const whole = (c: GateCase): boolean => checkGrounding(c.corpus, c.question, opts).grounded;
  console.log(`pages dev whole   ${fmt(rates(dev, whole))}`);
  if (has('--cv')) {
    const order = [...new Set(dev.map((c) => c.corpus))];
    for (const h of [0, 1]) console.log(`  cv half ${h}       ${fmt(rates(dev.filter((c) => order.indexOf(c.corpus) % 2 === h), whole))}`);
  }
  if (!has('--no-remote')) { const rv = await remoteVerdicts(dev, opts); console.log(`pages dev remote  ${fmt(rates(dev, (c) => rv.get(c)!))}`); }
  if (has('--fail')) for (const c of dev) { const r = checkGrounding(c.corpus, c.question, opts); if (r.grounded !== (c.expect === 'answer')) console.log(`  FAIL ${c.kind} ${r.reason} :: ${c.question} :: [${c.text.slice(0, 60).replace(/\n/g, ' ')}]`); }
  for (const [flag, load, tag] of [['--extra', extraCases, ''], ['--extra2', extra2Cases, '2'], ['--valid', validCases, 'V']] as const) {
    if (!has(flag)) continue;
    const ex = await load();
    const label = (path: string) => (tag === 'V' ? `valid ${path}` : `extra${tag} dev ${path}`).padEnd(18);
    console.log(`${label('whole')}${fmt(rates(ex, whole))}`);
    if (!has('--no-remote')) {
      const rv = await remoteVerdicts(ex, opts);
      console.log(`${label('remote')}${fmt(rates(ex, (c) => rv.get(c)!))}`);
      if (has(tag === 'V' ? '--fail-valid' : '--fail')) for (const c of ex) if (rv.get(c) !== (c.expect === 'answer')) console.log(`  REMOTE FAIL${tag} ${c.kind} :: ${c.question}`);
    }
    if (has(tag === 'V' ? '--fail-valid' : '--fail')) for (const c of ex) { const r = checkGrounding(c.corpus, c.question, opts); if (r.grounded !== (c.expect === 'answer')) console.log(`  FAIL${tag} ${c.kind} ${r.reason} :: ${c.question} :: [${c.text.slice(0, 50).replace(/\n/g, ' ')}]`); }
  }
  if (!has('--no-squad')) {
    const sq = await squadCases('tune');
    console.log(`squad tune whole  ${fmt(rates(sq, whole))}`);
    if (!has('--no-remote')) { const rv = await remoteVerdicts(sq, opts); console.log(`squad tune remote ${fmt(rates(sq, (c) => rv.get(c)!))}`); }
  }
}
void main();
