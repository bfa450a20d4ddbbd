/**
 * `npx tsx scripts/eval/qa-fit.ts [--cost C] [--unanswerable-weight W] [--no-runner-up] [--runner-up-any-kind] [--neutral-cues]`: fits the extractive answerer's confidence (ANSWER_DEFAULTS in
 * core/retrieval/answer.ts) on the development halves only — the real-page questions' `dev` split and SQuAD's
 * `tune` half (weighted 0.1, so that 1,299 Wikipedia questions do not outvote 152 visitors' ones), each with the
 * questions those pages cannot answer (the real pages' near-miss questions weighted W, default 0.2, SQuAD 2.0's
 * unanswerable ones W/10: the confidence learns what a question the page does not answer looks like, without
 * outweighing the answerable ones) — and prints the weights, the threshold (chosen on the answerable questions),
 * and the trade-off curve it was chosen from.
 *
 * The label: the text a visitor would be shown (the answer sentence and its context) contains a gold answer; for
 * an unanswerable question, never. The
 * model: logistic regression over ANSWER_SIGNALS (L2 0.01, 4,000 full-batch steps, deterministic). The threshold:
 * the one that maximises right answers minus `cost` (default 2) × wrong ones — a wrong answer stated with a
 * citation costs a visitor more than "I couldn't find that on this page" with the closest passages cited.
 *
 * `--no-runner-up` / `--runner-up-any-kind` / `--neutral-cues` fit with the answerer's `runnerUpContext` off / its
 * `runnerUpKinds` every kind of fact / `neutralCues` on (AnswerOptions):
 * what each idea does once the confidence is refitted for it (docs/eval.md).
 */
import { ANSWER_SIGNALS } from '../../core/retrieval/index.js';
import { loadAllLanguages } from '../../core/text/index.js';
import { pageItems, squadItems, unanswerableItems } from './qa-data.js';
import { runQa, type QaItem } from './qa-run.js';

// `x` null: the answerer declined before weighing any signal (a yes/no question about what the pages never name).
interface Row { x: number[] | null; y: number; top1: number; wt: number }

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

// The answerer's ideas toggled from the command line (defaults otherwise).
const IDEAS = {
  ...(process.argv.includes('--no-runner-up') ? { runnerUpContext: false } : {}),
  ...(process.argv.includes('--runner-up-any-kind') ? { runnerUpKinds: ['time', 'number', 'person', 'place', 'entity', 'money', 'quantity', 'duration', 'contact'] as const } : {}),
  ...(process.argv.includes('--neutral-cues') ? { neutralCues: true } : {}),
};

async function collect(items: readonly QaItem[], wt: number): Promise<Row[]> {
  const rows: Row[] = [];
  await runQa(items, {
    answer: { ...IDEAS, minConfidence: 0 },
    onTrace: (t) => {
      const o = t.outcome;
      const x = o.ok ? o.value.signals : o.signals;
      // An unanswerable question (no gold answer): any answer is wrong.
      rows.push({ x: x ? [...x] : null, y: t.item.answers.length === 0 || t.wrong ? 0 : 1, top1: t.top1 ? 1 : 0, wt });
    },
  });
  return rows;
}

/**
 * The direction each signal may push, by design (1 up, -1 down, 0 either): more coverage, a lead over the next
 * sentence, the kind asked for, the question's key word in the answer can only raise the confidence; the kind
 * asked for being impossible, or the key word absent from the pages, can only lower it. The fit learns sizes.
 */
const SIGNS = [1, -1, 0, 0, 1, 1, -1, 1, 1, 1, 1, 1, 1, 1, 1, -1];

/** Projected gradient descent on the weighted log loss with L2, signs held to SIGNS: deterministic, no library. */
export function fitLogistic(all: readonly Row[], steps = 4_000, rate = 0.3, l2 = 0.01): number[] {
  const rows = all.filter((r): r is Row & { x: number[] } => r.x !== null);
  const d = rows[0]?.x.length ?? 0;
  const w = new Array<number>(d + 1).fill(0);
  const total = rows.reduce((a, r) => a + r.wt, 0);
  for (let step = 0; step < steps; step++) {
    const g = new Array<number>(d + 1).fill(0);
    for (const r of rows) {
      const e = (predict(w, r.x) - r.y) * r.wt;
      for (let i = 0; i < d; i++) g[i]! += e * r.x[i]!;
      g[d]! += e;
    }
    for (let i = 0; i <= d; i++) {
      w[i]! -= rate * (g[i]! / total + (i < d ? l2 * w[i]! : 0));
      if (i < d && SIGNS[i]! * w[i]! < 0) w[i] = 0;
    }
  }
  return w;
}

function predict(w: readonly number[], x: readonly number[] | null): number {
  if (x === null) return -1;
  let z = w[x.length]!;
  for (let i = 0; i < x.length; i++) z += w[i]! * x[i]!;
  return 1 / (1 + Math.exp(-z));
}

async function main(): Promise<void> {
  const cost = Number(arg('--cost', '2'));
  await loadAllLanguages();
  const pages = await collect(await pageItems('dev'), 1);
  const squad = await collect(squadItems('tune'), 0.1);
  const noWeight = Number(arg('--unanswerable-weight', '0.2'));
  const pagesNo = await collect(await unanswerableItems('pages', 'dev'), noWeight);
  const squadNo = await collect(await unanswerableItems('squad', 'tune'), noWeight / 10);
  const rows = [...pages, ...squad];
  const fitRows = noWeight > 0 ? [...rows, ...pagesNo, ...squadNo] : rows;
  const w = fitLogistic(fitRows).map((v) => Math.round(v * 100) / 100);
  const curve = (set: readonly Row[], t: number) => {
    let answered = 0, right = 0, wrong = 0, top1 = 0;
    for (const r of set) {
      if (predict(w, r.x) < t) continue;
      answered++;
      if (r.y) right++; else wrong++;
      top1 += r.top1;
    }
    return { answered: answered / set.length, top1: top1 / set.length, wrong: wrong / set.length, right, wrongN: wrong };
  };
  let best = { t: 0, u: -Infinity };
  for (let t = 0; t <= 0.95; t = Math.round((t + 0.01) * 100) / 100) {
    let u = 0;
    for (const r of rows) if (predict(w, r.x) >= t) u += r.wt * (r.y ? 1 : -cost);
    if (u > best.u + 1e-9) best = { t, u };
  }
  console.log(`signals: ${ANSWER_SIGNALS.join(', ')}, bias`);
  console.log(`confidenceWeights: [${w.join(', ')}]`);
  console.log(`minConfidence: ${best.t} (maximises right − ${cost} × wrong on the development halves)`);
  console.log('\n| threshold | real pages dev: answered / top-1 / wrong | near-miss answered | SQuAD tune: answered / top-1 / wrong | unanswerable answered |\n|---|---|---|---|---|');
  for (const t of [...new Set([0, 0.4, 0.5, 0.6, best.t, 0.7, 0.8])].sort((a, b) => a - b)) {
    const f = (c: { answered: number; top1: number; wrong: number }) => `${c.answered.toFixed(3)} / ${c.top1.toFixed(3)} / ${c.wrong.toFixed(3)}`;
    console.log(`| ${t.toFixed(2)}${t === best.t ? ' (chosen)' : ''} | ${f(curve(pages, t))} | ${curve(pagesNo, t).answered.toFixed(3)} | ${f(curve(squad, t))} | ${curve(squadNo, t).answered.toFixed(3)} |`);
  }
  // The abstention goal read off the curve: the lowest threshold with at most 5 % wrong answers.
  let goal = 0;
  for (const [name, set] of [['real pages dev', pages], ['SQuAD tune', squad]] as const) {
    let at = 1;
    for (let t = 0; t <= 1; t = Math.round((t + 0.01) * 100) / 100) if (curve(set, t).wrong <= 0.05) { at = t; break; }
    const c = curve(set, at);
    goal = Math.max(goal, at);
    console.log(`${name}: wrong ≤ 5 % from threshold ${at.toFixed(2)}: answered ${c.answered.toFixed(3)}, top-1 ${c.top1.toFixed(3)}, wrong ${c.wrong.toFixed(3)}`);
  }
  // Session 9's rule for minConfidence: the lowest threshold at which both development halves state ≤ 5 % wrong
  // answers (the cost rule above may land where one of them states more); hedgeConfidence: right − wrong.
  let hedge = { t: 0, u: -Infinity };
  for (let t = 0; t <= 0.95; t = Math.round((t + 0.01) * 100) / 100) {
    let u = 0;
    for (const r of rows) if (predict(w, r.x) >= t) u += r.wt * (r.y ? 1 : -1);
    if (u > hedge.u + 1e-9) hedge = { t, u };
  }
  const f = (c: { answered: number; top1: number; wrong: number }) => `${c.answered.toFixed(3)} / ${c.top1.toFixed(3)} / ${c.wrong.toFixed(3)}`;
  console.log(`minConfidence by the goal (≤ 5 % wrong on both development halves): ${goal.toFixed(2)} — real pages dev ${f(curve(pages, goal))}, SQuAD tune ${f(curve(squad, goal))}`);
  console.log(`hedgeConfidence (maximises right − wrong): ${hedge.t.toFixed(2)} — real pages dev ${f(curve(pages, hedge.t))}, SQuAD tune ${f(curve(squad, hedge.t))}`);
}

if (process.argv[1]?.endsWith('qa-fit.ts')) await main();
