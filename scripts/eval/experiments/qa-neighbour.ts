// Session 9 scratch: a learned choice between the ranker's first sentence and its neighbours in the same paragraph
// (the "answer after the restatement" class), validated across the development halves only: fitted on SQuAD tune and
// scored on real pages dev, and the reverse. Logistic regression (listwise softmax over the 1–3 choices).
import { answerMatches, expectedAnswer } from '../../../core/retrieval/answer-type.js';
import { isAnswerRole, leansBack } from '../../../core/retrieval/sentence-roles.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { pageAnswerers } from './page-answerers.js';
import { pageItems, squadItems, type LabelledItem } from '../qa-data.js';
import { containsAny } from '../qa-metrics.js';

type Group = { x: number[][]; y: number[] };

async function groups(items: readonly LabelledItem[]): Promise<Group[]> {
  const answererFor = pageAnswerers();
  const out: Group[] = [];
  for (const it of items) {
    const r = answererFor(it).ranker;
    const sents = r.retriever.corpus.sentences;
    const q = r.retriever.analyze(it.question);
    const cands = r.candidates(q, 30);
    const top = cands[0];
    if (!top) { out.push({ x: [], y: [] }); continue; }
    const scores = r.sentenceScores(q);
    const intent = expectedAnswer(q.words);
    const qt = new Set(q.terms);
    const cover = (i: number): number => { const own = new Set(sents[i]!.terms); let c = 0; for (const t of qt) if (own.has(t)) c++; return qt.size ? c / qt.size : 0; };
    const fresh = (i: number): number => { let c = 0; for (const t of new Set(sents[i]!.terms)) if (!qt.has(t)) c++; return Math.min(1, c / 10); };
    const choices = [top.sentence];
    for (const i of [top.sentence - 1, top.sentence + 1]) {
      if (i >= 0 && i < sents.length && sents[i]!.paragraph === sents[top.sentence]!.paragraph && isAnswerRole(r.roles[i]!)) choices.push(i);
    }
    const x: number[][] = [];
    const y: number[] = [];
    const topScore = top.score || 1;
    for (const i of choices) {
      const c = cands.find((k) => k.sentence === i);
      const typed = intent !== null && intent.type !== 'yesno';
      x.push([
        i === top.sentence ? 1 : 0,
        i === top.sentence - 1 ? 1 : 0,
        i === top.sentence + 1 ? 1 : 0,
        c ? c.score / topScore : 0,
        (scores[i] ?? 0) / ((scores[top.sentence] ?? 0) || 1),
        typed && answerMatches(intent!, sents[i]!.text, q.words) ? 1 : 0,
        cover(i),
        cover(i) - cover(top.sentence),
        fresh(i),
        leansBack(sents[i]!.text) ? 1 : 0,
        intent === null ? 1 : 0,
        i !== top.sentence && intent === null ? 1 : 0,
        i !== top.sentence && leansBack(sents[i]!.text) && i === top.sentence + 1 ? 1 : 0,
      ]);
      y.push(containsAny(sents[i]!.text, it.answers) ? 1 : 0);
    }
    out.push({ x, y });
  }
  return out;
}

function fit(gs: readonly Group[], steps = 3000, rate = 0.5, l2 = 0.01): number[] {
  const d = gs.find((g) => g.x.length)!.x[0]!.length;
  const w = new Array<number>(d).fill(0);
  const use = gs.filter((g) => g.y.some((v) => v === 1) && g.x.length > 1);
  for (let s = 0; s < steps; s++) {
    const g = new Array<number>(d).fill(0);
    for (const G of use) {
      const z = G.x.map((x) => x.reduce((a, v, i) => a + v * w[i]!, 0));
      const m = Math.max(...z);
      const e = z.map((v) => Math.exp(v - m));
      const sum = e.reduce((a, b) => a + b, 0);
      const target = G.y.map((v) => v / G.y.reduce((a, b) => a + b, 0));
      for (let k = 0; k < G.x.length; k++) for (let i = 0; i < d; i++) g[i]! += (e[k]! / sum - target[k]!) * G.x[k]![i]!;
    }
    for (let i = 0; i < d; i++) w[i]! -= rate * (g[i]! / use.length + l2 * w[i]!);
  }
  return w;
}

function score(gs: readonly Group[], w: readonly number[]): number {
  let right = 0;
  for (const G of gs) {
    if (G.x.length === 0) continue;
    let best = 0, bz = -Infinity;
    G.x.forEach((x, k) => { const z = x.reduce((a, v, i) => a + v * w[i]!, 0); if (z > bz) { bz = z; best = k; } });
    right += G.y[best]!;
  }
  return right / gs.length;
}

await loadAllLanguages();
const dev = await groups(await pageItems('dev'));
const tune = await groups(squadItems('tune'));
const first = (gs: readonly Group[]): number => gs.filter((g) => g.y[0] === 1).length / gs.length;
const wT = fit(tune);
const wD = fit(dev);
console.log(`first sentence: dev ${first(dev).toFixed(3)}, tune ${first(tune).toFixed(3)}`);
console.log(`fitted on tune → dev ${score(dev, wT).toFixed(3)} (tune itself ${score(tune, wT).toFixed(3)}); weights ${wT.map((v) => v.toFixed(2)).join(' ')}`);
console.log(`fitted on dev → tune ${score(tune, wD).toFixed(3)} (dev itself ${score(dev, wD).toFixed(3)}); weights ${wD.map((v) => v.toFixed(2)).join(' ')}`);
