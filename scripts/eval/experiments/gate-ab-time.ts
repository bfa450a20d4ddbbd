/**
 * Scratch (session 12): the gate's CPU time per decision for two source trees in ONE process, rounds alternating
 * (A B A B …), so the machine's load falls on both alike. Development questions only (real pages' development half,
 * the extra batches, SQuAD tuning), each tree deciding on corpora it built itself.
 * `npx tsx scripts/eval/experiments/gate-ab-time.ts /path/to/treeA /path/to/treeB [rounds]`
 */
import { cpuUsage } from 'node:process';

interface Tree { name: string; check: (c: unknown, q: string) => unknown; cases: { corpus: unknown; question: string }[] }

async function load(dir: string): Promise<Tree> {
  const text = await import(`${dir}/core/text/index.ts`);
  const gate = await import(`${dir}/core/grounding/index.ts`);
  const rep = await import(`${dir}/scripts/eval/grounding-report.ts`);
  await text.loadAllLanguages();
  const cases = [...await rep.pageCases('dev'), ...await rep.extraCases(), ...await rep.extra2Cases(), ...await rep.squadCases('tune')];
  return { name: dir, check: gate.checkGrounding, cases };
}

function round(t: Tree): number {
  const start = cpuUsage();
  for (const c of t.cases) t.check(c.corpus, c.question);
  const u = cpuUsage(start);
  return (u.user + u.system) / t.cases.length;
}

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]!; };

async function main(): Promise<void> {
  const [a, b] = [await load(process.argv[2]!), await load(process.argv[3]!)];
  const rounds = Number(process.argv[4] ?? 15);
  for (const t of [a, b]) { round(t); round(t); } // warm-up
  const ta: number[] = [], tb: number[] = [];
  for (let i = 0; i < rounds; i++) { ta.push(round(a)); tb.push(round(b)); }
  const f = (xs: number[]): string => `${median(xs).toFixed(1)} µs (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;
  console.log(`${a.cases.length} decisions a round, ${rounds} rounds each, alternating`);
  console.log(`A ${a.name}: ${f(ta)}`);
  console.log(`B ${b.name}: ${f(tb)}`);
}
void main();
