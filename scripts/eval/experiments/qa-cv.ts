/**
 * Session 11 (qa3): the confidence's abstention, cross-validated over the development pages (never the held-out
 * halves). `npx tsx scripts/eval/experiments/qa-cv.ts [--collect]` answers every development question once with
 * `minConfidence` 0 (real pages dev and SQuAD tune, with the questions their pages cannot answer), caches the
 * signals in .tmp/qa-cv-rows.json, then runs the whole fitting procedure (weights by logistic regression, threshold
 * by its rule) inside K folds grouped by page (real pages) and article (SQuAD): each fold is scored by a model that
 * never saw its pages. Prints, per model (a subset of ANSWER_SIGNALS) and threshold rule, the pooled out-of-fold
 * answered / answered top-1 / wrong on the real pages' development half, near-miss questions answered, and SQuAD
 * tune's, beside the in-sample figures of the same procedure. The functions (`crossValidate`, `nestedCv` — the
 * threshold chosen inside each outer fold on inner out-of-fold scores) are what session 11's comparisons of signal
 * subsets and L2 used (docs/eval.md, "Session 11"; scripts/eval/experiments/README.md has the commands).
 * `CACHE=… --collect` re-collects, e.g. after adding a signal to the answerer.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { ANSWER_SIGNALS } from '../../../core/retrieval/index.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { pageItems, squadItems, unanswerableItems, type LabelledItem } from '../qa-data.js';
import { runQa } from '../qa-run.js';

export interface CvRow { g: string; set: 'dev' | 'devNo' | 'tune' | 'tuneNo'; x: number[] | null; y: number; top1: number; wt: number }

const CACHE = process.env.CACHE ?? ".tmp/qa-cv-rows.json";

async function collect(items: readonly LabelledItem[], set: CvRow['set'], wt: number, opts: Record<string, unknown>): Promise<CvRow[]> {
  const rows: CvRow[] = [];
  let i = 0;
  await runQa(items, {
    answer: { ...opts, minConfidence: 0 },
    onTrace: (t) => {
      const item = items[i++]!;
      const o = t.outcome;
      const x = o.ok ? o.value.signals : o.signals;
      rows.push({ g: `${set.startsWith('dev') ? 'p' : 's'}:${item.source}`, set, x: x ? [...x] : null,
        y: t.item.answers.length === 0 || t.wrong ? 0 : 1, top1: t.top1 ? 1 : 0, wt });
    },
  });
  return rows;
}

export async function loadRows(opts: Record<string, unknown> = {}, cache = CACHE): Promise<CvRow[]> {
  if (existsSync(cache) && !process.argv.includes('--collect')) return JSON.parse(readFileSync(cache, 'utf8')) as CvRow[];
  await loadAllLanguages();
  const rows = [
    ...await collect(await pageItems('dev'), 'dev', 1, opts),
    ...await collect(squadItems('tune'), 'tune', 0.1, opts),
    ...await collect(await unanswerableItems('pages', 'dev'), 'devNo', 0.2, opts),
    ...await collect(await unanswerableItems('squad', 'tune'), 'tuneNo', 0.02, opts),
  ];
  mkdirSync('.tmp', { recursive: true });
  writeFileSync(cache, JSON.stringify(rows));
  return rows;
}

type Fitted = { w: number[]; cols: number[] };

const SIGNS = [1, -1, 0, 0, 1, 1, -1, 1, 1, 1, 1, 1, 1, 1, 1, -1];

export function fit(rows: readonly CvRow[], cols: readonly number[], signs: readonly number[] = SIGNS, l2 = 0.01, steps = 3_000, rate = 0.3): Fitted {
  const rs = rows.filter((r) => r.x !== null);
  const d = cols.length;
  const w = new Array<number>(d + 1).fill(0);
  const X = rs.map((r) => cols.map((c) => r.x![c]!));
  const total = rs.reduce((a, r) => a + r.wt, 0);
  for (let step = 0; step < steps; step++) {
    const g = new Array<number>(d + 1).fill(0);
    for (let k = 0; k < rs.length; k++) {
      const x = X[k]!;
      let z = w[d]!;
      for (let i = 0; i < d; i++) z += w[i]! * x[i]!;
      const e = (1 / (1 + Math.exp(-z)) - rs[k]!.y) * rs[k]!.wt;
      for (let i = 0; i < d; i++) g[i]! += e * x[i]!;
      g[d]! += e;
    }
    for (let i = 0; i <= d; i++) {
      w[i]! -= rate * (g[i]! / total + (i < d ? l2 * w[i]! : 0));
      const s = signs[cols[i]!] ?? 0;
      if (i < d && s * w[i]! < 0) w[i] = 0;
    }
  }
  return { w, cols: [...cols] };
}

export function score(f: Fitted, x: readonly number[] | null): number {
  if (x === null) return -1;
  let z = f.w[f.cols.length]!;
  for (let i = 0; i < f.cols.length; i++) z += f.w[i]! * x[f.cols[i]!]!;
  return 1 / (1 + Math.exp(-z));
}

export interface Stat { answered: number; top1: number; wrong: number; n: number }
export function stat(rows: readonly CvRow[], p: readonly number[], t: number): Stat {
  // top1: the answer sentence itself holds a gold answer; wrong: the shown text (with its context) holds none (y 0).
  let a = 0, w = 0, top1 = 0;
  rows.forEach((row, i) => { if (p[i]! >= t) { a++; top1 += row.top1; if (!row.y) w++; } });
  const n = rows.length || 1;
  return { answered: a / n, top1: top1 / n, wrong: w / n, n: rows.length };
}

/** Threshold rules: the lowest threshold at which both development halves state ≤ `target` wrong (session 9's, target 0.05). */
export function goalThreshold(rows: readonly CvRow[], p: readonly number[], target: number, sets: readonly CvRow['set'][] = ['dev', 'tune']): number {
  let goal = 0;
  for (const set of sets) {
    const idx = rows.map((r, i) => (r.set === set ? i : -1)).filter((i) => i >= 0);
    const rs = idx.map((i) => rows[i]!);
    const ps = idx.map((i) => p[i]!);
    let at = 1;
    for (let t = 0; t <= 1; t = Math.round((t + 0.01) * 100) / 100) if (stat(rs, ps, t).wrong <= target) { at = t; break; }
    goal = Math.max(goal, at);
  }
  return goal;
}

function folds(rows: readonly CvRow[], k: number, seed = 0): number[] {
  // Groups dealt to folds in a fixed order (sorted names, shuffled by `seed`, round robin): deterministic.
  const groups = [...new Set(rows.map((r) => r.g))].sort();
  let st = seed * 2654435761 + 1;
  const rnd = () => { st = (st * 1103515245 + 12345) % 2147483648; return st / 2147483648; };
  if (seed > 0) for (let i = groups.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [groups[i], groups[j]] = [groups[j]!, groups[i]!]; }
  const fold = new Map(groups.map((g, i) => [g, i % k]));
  return rows.map((r) => fold.get(r.g)!);
}

export interface CvResult { dev: Stat; devNo: Stat; tune: Stat; tuneNo: Stat; thresholds: number[] }

/** Out-of-fold figures of the whole procedure: fit the weights and choose the threshold on K−1 folds, apply to the K-th. */
export function crossValidate(rows: readonly CvRow[], cols: readonly number[], rule: (train: readonly CvRow[], p: readonly number[]) => number, k = 7, l2 = 0.01, repeats = Number(process.env.REPEATS ?? 1)): CvResult {
  const runs: CvResult[] = [];
  for (let rep = 0; rep < repeats; rep++) runs.push(crossValidateOnce(rows, cols, rule, k, l2, rep));
  const avg = (pick: (r: CvResult) => Stat): Stat => ({
    answered: runs.reduce((a, r) => a + pick(r).answered, 0) / runs.length,
    top1: runs.reduce((a, r) => a + pick(r).top1, 0) / runs.length,
    wrong: runs.reduce((a, r) => a + pick(r).wrong, 0) / runs.length,
    n: pick(runs[0]!).n,
  });
  return { dev: avg((r) => r.dev), devNo: avg((r) => r.devNo), tune: avg((r) => r.tune), tuneNo: avg((r) => r.tuneNo), thresholds: runs[0]!.thresholds };
}

/** Each set's figures from per-row scores `p` and threshold `t`. */
function bySet(rows: readonly CvRow[], p: readonly number[], t: number): Pick<CvResult, 'dev' | 'devNo' | 'tune' | 'tuneNo'> {
  const part = (set: CvRow['set']) => {
    const idx = rows.map((r, i) => (r.set === set ? i : -1)).filter((i) => i >= 0);
    return stat(idx.map((i) => rows[i]!), idx.map((i) => p[i]!), t);
  };
  return { dev: part('dev'), devNo: part('devNo'), tune: part('tune'), tuneNo: part('tuneNo') };
}

function crossValidateOnce(rows: readonly CvRow[], cols: readonly number[], rule: (train: readonly CvRow[], p: readonly number[]) => number, k: number, l2: number, seed: number): CvResult {
  const fi = folds(rows, k, seed);
  const p = new Array<number>(rows.length).fill(0);
  const ts: number[] = [];
  for (let f = 0; f < k; f++) {
    const train = rows.filter((_, i) => fi[i] !== f);
    const m = fit(train, cols, SIGNS, l2);
    const t = rule(train, train.map((r) => score(m, r.x)));
    ts.push(t);
    rows.forEach((r, i) => { if (fi[i] === f) p[i] = score(m, r.x) - t; });
  }
  return { ...bySet(rows, p, 0), thresholds: ts };
}

export function inSample(rows: readonly CvRow[], cols: readonly number[], rule: (train: readonly CvRow[], p: readonly number[]) => number, l2 = 0.01): CvResult & { w: number[] } {
  const m = fit(rows, cols, SIGNS, l2);
  const p = rows.map((r) => score(m, r.x));
  const t = rule(rows, p);
  return { ...bySet(rows, p, t), thresholds: [t], w: m.w.map((v) => Math.round(v * 100) / 100) };
}

const fmt = (s: Stat) => `${s.answered.toFixed(3)} / ${s.top1.toFixed(3)} / ${s.wrong.toFixed(3)}`;
export function line(name: string, r: CvResult): string {
  return `${name.padEnd(44)} dev ${fmt(r.dev)} nm ${r.devNo.answered.toFixed(3)} | tune ${fmt(r.tune)} unans ${r.tuneNo.answered.toFixed(3)} | t ${r.thresholds.map((t) => t.toFixed(2)).join(',')}`;
}

if (process.argv[1]?.endsWith('qa-cv.ts')) {
  // Arguments: signal subsets (comma-separated names, or `all`), each printed; `--l2 X`; `--nested` adds the
  // nested estimate (seeds 0 and 1); REPEATS=n averages the plain CV over n fold assignments.
  const rows = await loadRows();
  const all = ANSWER_SIGNALS.map((_, i) => i);
  const l2 = Number(process.argv[process.argv.indexOf('--l2') + 1] ?? 0.01) || 0.01;
  const subsets = process.argv.slice(2).filter((a, i, xs) => !a.startsWith('--') && xs[i - 1] !== '--l2');
  const K = Number(process.env.K ?? 7);
  const rule = (target: number) => (tr: readonly CvRow[], p: readonly number[]) => goalThreshold(tr, p, target);
  if (subsets.length === 0) {
    console.log(`rows: ${rows.length}; signals ${ANSWER_SIGNALS.join(', ')}`);
    for (const target of [0.05, 0.04, 0.03]) {
      console.log(line(`all16 in-sample, target ${target}`, inSample(rows, all, rule(target))));
      console.log(line(`all16 CV${K}, target ${target}`, crossValidate(rows, all, rule(target), K)));
    }
  }
  for (const sub of subsets) {
    const cols = sub === 'all' ? all : sub.split(',').map((n) => ANSWER_SIGNALS.indexOf(n as never));
    if (cols.some((c) => c < 0)) throw new Error(`unknown signal in ${sub}`);
    console.log(line(`${sub.slice(0, 30)} in-sample`, inSample(rows, cols, rule(0.05), l2)));
    console.log(line(`${sub.slice(0, 30)} CV${K}`, crossValidate(rows, cols, rule(0.05), K, l2)));
    if (process.argv.includes('--nested')) for (const seed of [0, 1]) console.log(line(`${sub.slice(0, 30)} nested s${seed}`, nestedCv(rows, cols, 0.05, K, l2, 5, seed)));
  }
}

/**
 * Out-of-fold scores of a model (fitted on the other folds), averaged over `repeats` fold assignments: what each
 * question's confidence would be under a model that never saw its page.
 */
export function outOfFold(rows: readonly CvRow[], cols: readonly number[], k = 7, l2 = 0.01, repeats = 3): number[] {
  const p = new Array<number>(rows.length).fill(0);
  for (let rep = 0; rep < repeats; rep++) {
    const fi = folds(rows, k, rep);
    for (let f = 0; f < k; f++) {
      const m = fit(rows.filter((_, i) => fi[i] !== f), cols, SIGNS, l2);
      rows.forEach((r, i) => { if (fi[i] === f) p[i]! += score(m, r.x) / repeats; });
    }
  }
  return p;
}

/** The threshold rule on out-of-fold scores: the lowest with ≤ `target` wrong on both development halves, scored by models that never saw the page. */
export function cvThreshold(rows: readonly CvRow[], cols: readonly number[], target: number, k = 7, l2 = 0.01, repeats = 3): number {
  return goalThreshold(rows, outOfFold(rows, cols, k, l2, repeats), target);
}

/** Nested: the outer folds' questions scored by a model and a CV-chosen threshold that never saw their pages. */
export function nestedCv(rows: readonly CvRow[], cols: readonly number[], target: number, k = 7, l2 = 0.01, inner = 5, seed = 0): CvResult {
  return crossValidateOnce(rows, cols, (train) => goalThreshold(train, outOfFold(train, cols, inner, l2, 1), target), k, l2, seed + 11);
}
