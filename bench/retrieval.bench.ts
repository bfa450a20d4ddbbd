/**
 * Retrieval (issue 16.4): Kit's index build and extractive answering beside plain BM25 and MiniSearch 7, both given
 * Kit's tokenizer, stemmer and stopwords and Kit's sentences, at their best settings (the grid search of
 * scripts/eval/qa-report.ts on the development halves; BEST_BM25 / BEST_MINISEARCH).
 *
 * Index build, on pages never seen before: the 130 real pages of ../shared/eval/pages (Readability's reference
 * text, all languages), each built once per pass, never the same page twice within a pass:
 * - cold: every word and stem forgotten before each page (clearTextCaches), as for the first page a visitor opens;
 * - site order: forgotten once per pass, then page after page, so a page meets the words of *other* pages before it
 *   (the lexicon is shared by a language's corpora), as on a visitor's next page of a site — never its own words;
 * - Kit's page-load index (buildCorpus + createRetriever: what the SDK builds for every page) and the extractive
 *   engine's full index (+ createAnswerer: the sentence index, roles and headings);
 * - MiniSearch (one index per page; it has no cache across indexes): Kit's analysis (its stem cache forgotten before
 *   each page too), and its own default analysis.
 * - where the cold build's time goes: the corpus alone (buildCorpus, caches forgotten before each page) and the
 *   passage BM25 index alone over the corpora already built.
 * Query: CPU per question over the real-page set's 303 answerable questions and SQuAD's 2,910 (each page built
 * once, untimed). Quality: the held-out halves (token matching), as scripts/eval/qa-report.ts prints them.
 * Times are process CPU time: the minimum over passes within a round; rounds interleave Kit and the references and
 * are reported as the median (range) with the machine's load average, because re-runs on a shared machine vary.
 * Run: npm run bench -- retrieval  (BENCH_ROUNDS, default 5; writes .tmp/bench-core-text-retrieval.md)
 */
import { mkdirSync, readdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import MiniSearch from 'minisearch';
import { buildCorpus, clearTextCaches, loadAllLanguages, type Corpus } from '../core/text/index.js';
import { createAnswerer, createRetriever, type Answerer } from '../core/retrieval/index.js';
import { createBm25Index } from '../core/retrieval/bm25-index.js';
import type { SourcePage } from '../core/sources.js';
import { htmlToText } from '../scripts/eval/extraction.js';
import { BEST_BM25, BEST_MINISEARCH, corporaOf, miniSearch, miniSearchIndex, plainBm25, scoreRanking, textOf } from '../scripts/eval/qa-baselines.js';
import { SHARED_EVAL, pageItems, squadItems } from '../scripts/eval/qa-data.js';
import { runQa } from '../scripts/eval/qa-run.js';
import { minCpuPass } from './support/cpu-time.js';

// A Node host: every language pack up front, so buildCorpus never meets a language in its fallback.
await loadAllLanguages();
const dir = join(SHARED_EVAL, 'pages');
const pages: SourcePage[] = readdirSync(dir).filter((d) => existsSync(join(dir, d, 'expected.html'))).map((d) => {
  const meta = JSON.parse(readFileSync(join(dir, d, 'expected-metadata.json'), 'utf8')) as { title?: string | null };
  return { url: `https://pages.example/${d}`, title: (meta.title ?? '').trim(), text: htmlToText(readFileSync(join(dir, d, 'expected.html'), 'utf8')) };
}).filter((p) => p.text.trim() !== '');
const kb = pages.reduce((n, p) => n + Buffer.byteLength(p.text), 0) / 1e3;
// MiniSearch indexes Kit's sentences (split beforehand, not timed) with Kit's analysis of the page's language.
const analysed = pages.map((p) => buildCorpus([p]));
const sentencesOf = analysed.map((c) => c.sentences.map((s) => s.text));

const minPass = (fn: () => void, budget: number): number => minCpuPass(fn, budget, { gc: true });
const buildCold = (full: boolean) => (): void => {
  for (const p of pages) { clearTextCaches(); const r = createRetriever(buildCorpus([p])); if (full) createAnswerer(r); }
};
const buildSite = (full: boolean) => (): void => {
  clearTextCaches();
  for (const p of pages) { const r = createRetriever(buildCorpus([p])); if (full) createAnswerer(r); }
};
// Where the cold build's time goes: the corpus alone (core/text: sentences, tokens, stems, lexicon) and the passage
// BM25 index alone over corpora already built (core/retrieval/bm25-index.ts, as createRetriever calls it).
const corpusOnly = (): void => { for (const p of pages) { clearTextCaches(); buildCorpus([p]); } };
const passageTermsOf = analysed.map((c) => c.passages.map((_, i) => c.passageTerms(i)));
const bm25Only = (): void => { analysed.forEach((c, i) => createBm25Index(c, passageTermsOf[i]!, { k1: 0.6, b: 0.5 })); };
const buildMini = (kitAnalysis: boolean) => (): void => {
  pages.forEach((_, i) => {
    const c = analysed[i]!;
    // Cold like Kit's: the stem cache Kit's analysis shares is forgotten before each page.
    if (kitAnalysis) clearTextCaches();
    const mini = kitAnalysis ? miniSearchIndex(c) : new MiniSearch({ fields: ['text'] });
    if (!kitAnalysis) mini.addAll(sentencesOf[i]!.map((text, id) => ({ id, text })));
  });
};

// Query time and quality: the answerable questions, each page indexed once.
const questions = [...await pageItems('all'), ...squadItems('all')];
const corpora = await corporaOf(questions);
const answerers = new Map<string, Answerer>();
const minis = new Map<Corpus, MiniSearch>();
const bm25s = new Map<Corpus, ReturnType<typeof plainBm25>>();
for (const [text, c] of corpora) {
  answerers.set(text, createAnswerer(createRetriever(c)));
  minis.set(c, miniSearchIndex(c));
  bm25s.set(c, plainBm25(c, BEST_BM25));
}
const miniRank = new Map<Corpus, ReturnType<typeof miniSearch>>([...minis].map(([c, m]) => [c, miniSearch(c, m, BEST_MINISEARCH)]));
const perQuestion = (fn: (text: string, q: string) => unknown): number =>
  (minPass(() => { for (const it of questions) fn(textOf(it), it.question); }, 1_500) * 1000) / questions.length;

const load = [loadavg()[0]!];
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const runs: Record<string, number[]> = { cold: [], site: [], coldFull: [], siteFull: [], mini: [], miniDefault: [], qKit: [], qMini: [], qBm25: [], corpusOnly: [], bm25Only: [] };
for (let r = 0; r < rounds; r++) {
  runs.cold!.push(minPass(buildCold(false), 1_500));
  runs.mini!.push(minPass(buildMini(true), 1_500));
  runs.site!.push(minPass(buildSite(false), 1_500));
  runs.miniDefault!.push(minPass(buildMini(false), 1_500));
  runs.corpusOnly!.push(minPass(corpusOnly, 1_000));
  runs.bm25Only!.push(minPass(bm25Only, 500));
  runs.coldFull!.push(minPass(buildCold(true), 1_500));
  runs.siteFull!.push(minPass(buildSite(true), 1_500));
  runs.qKit!.push(perQuestion((text, q) => answerers.get(text)!.answer(q)));
  runs.qMini!.push(perQuestion((text, q) => miniRank.get(corpora.get(text)!)!(q, 3)));
  runs.qBm25!.push(perQuestion((text, q) => bm25s.get(corpora.get(text)!)!(q, 3)));
  load.push(loadavg()[0]!);
}
const median = (xs: readonly number[]): number => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };
const range = (xs: readonly number[], d = 1): string => `${median(xs).toFixed(d)} (${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`;
const ratio = (a: readonly number[], b: readonly number[]): string => (median(a) / median(b)).toFixed(2);

// Quality on the held-out halves, with the benchmark's settings.
const held = { pages: await pageItems('heldout'), squad: squadItems('heldout') };
const quality = async (items: typeof held.pages) => {
  const kit = await runQa(items);
  const b = scoreRanking(items, corpora, (c) => bm25s.get(c) ?? plainBm25(c, BEST_BM25));
  const m = scoreRanking(items, corpora, (c) => miniRank.get(c)!);
  return { kit, b, m };
};
const qp = await quality(held.pages);
const qs = await quality(held.squad);
const f3 = (x: number): string => x.toFixed(3);

const rows = [
  `Pages never seen before: ${pages.length} real pages (${kb.toFixed(0)} kB of text). ${rounds} rounds; load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)} (2 cores).`,
  '',
  '| metric | Kit | reference | ratio |',
  '|---|---|---|---|',
  `| index build, all pages, ms CPU, cold (words forgotten before each page) | ${range(runs.cold!)} | MiniSearch, Kit's analysis ${range(runs.mini!)} | ${ratio(runs.mini!, runs.cold!)}× faster |`,
  `| index build, site order (each page new, words of other pages known) | ${range(runs.site!)} | MiniSearch, Kit's analysis ${range(runs.mini!)} | ${ratio(runs.mini!, runs.site!)}× faster |`,
  `| extractive engine's full index (+ sentences, roles, headings), cold / site order | ${range(runs.coldFull!)} / ${range(runs.siteFull!)} | MiniSearch, its default analysis ${range(runs.miniDefault!)} | ${ratio(runs.miniDefault!, runs.coldFull!)}× / ${ratio(runs.miniDefault!, runs.siteFull!)}× faster |`,
  `| of the cold page-load index: the corpus alone (core/text, cold) / the passage BM25 index alone (corpora built), ms CPU | ${range(runs.corpusOnly!)} / ${range(runs.bm25Only!, 2)} (${((100 * median(runs.bm25Only!)) / median(runs.cold!)).toFixed(1)} % of the cold build) | | |`,
  `| per page, cold: page-load index / full index, ms CPU | ${(median(runs.cold!) / pages.length).toFixed(2)} / ${(median(runs.coldFull!) / pages.length).toFixed(2)} | MiniSearch ${(median(runs.mini!) / pages.length).toFixed(2)} | |`,
  `| query, µs CPU per question (${questions.length}: real pages + SQuAD), Kit = full answer (ranking, kind, context, confidence) | ${range(runs.qKit!, 0)} | MiniSearch (best) ${range(runs.qMini!, 0)} / BM25 (best) ${range(runs.qBm25!, 0)} | ${ratio(runs.qMini!, runs.qKit!)}× / ${ratio(runs.qBm25!, runs.qKit!)}× |`,
  `| real pages held-out (${qp.kit.n}): top-1 / top-3, ranking alone | ${f3(qp.kit.rankedTop1)} / ${f3(qp.kit.top3)} | BM25 ${f3(qp.b.top1)} / ${f3(qp.b.top3)}; MiniSearch ${f3(qp.m.top1)} / ${f3(qp.m.top3)} | ${((qp.kit.rankedTop1 - Math.max(qp.b.top1, qp.m.top1)) * 100).toFixed(1)} / ${((qp.kit.top3 - Math.max(qp.b.top3, qp.m.top3)) * 100).toFixed(1)} points |`,
  `| SQuAD held-out (${qs.kit.n}): top-1 / top-3, ranking alone | ${f3(qs.kit.rankedTop1)} / ${f3(qs.kit.top3)} | BM25 ${f3(qs.b.top1)} / ${f3(qs.b.top3)}; MiniSearch ${f3(qs.m.top1)} / ${f3(qs.m.top3)} | ${((qs.kit.rankedTop1 - Math.max(qs.b.top1, qs.m.top1)) * 100).toFixed(1)} / ${((qs.kit.top3 - Math.max(qs.b.top3, qs.m.top3)) * 100).toFixed(1)} points |`,
  '',
  `Settings: BM25 k1 ${BEST_BM25.k1}, b ${BEST_BM25.b}; MiniSearch BM25+ k ${BEST_MINISEARCH.k}, b ${BEST_MINISEARCH.b}, d ${BEST_MINISEARCH.d}, fuzzy ${BEST_MINISEARCH.fuzzy}, prefix ${BEST_MINISEARCH.prefix}.`,
];
console.log(rows.join('\n'));
mkdirSync('.tmp', { recursive: true });
writeFileSync(join('.tmp', 'bench-core-text-retrieval.md'), rows.join('\n') + '\n');
