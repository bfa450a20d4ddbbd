/**
 * `npx tsx scripts/eval/qa-report.ts [--no-baselines]`: every QA figure of docs/eval.md and docs/inference.md, printed
 * from the sources (SQuAD in ../shared/eval/squad, the real-page questions in eval/pages): Kit's extractive
 * answerer on the held-out and development halves of both sets, on the whole page and on the path a visitor meets
 * without KIT_INFERENCE_URL (the SDK's selected passages answered by the server's engine), the baselines at their
 * best settings (chosen on the development halves), and how often a question the page cannot answer still gets an
 * answer. Matching: whole tokens after SQuAD's normalisation (scripts/eval/qa-metrics.ts). Times: process CPU.
 */
import { checkGrounding } from '../../core/grounding/index.js';
import { loadAllLanguages, type Corpus } from '../../core/text/index.js';

import {
  BEST_BM25, BEST_MINISEARCH, BM25_GRID, MINISEARCH_GRID, bestSettings, corporaOf, miniSearch, miniSearchIndex, plainBm25, scoreRanking, textOf,
  type MiniSearchSettings,
} from './qa-baselines.js';
import { pageItems, squadItems, unanswerableItems, type LabelledItem } from './qa-data.js';
import { runQa, type QaFigures } from './qa-run.js';
import type MiniSearch from 'minisearch';

const f3 = (x: number): string => x.toFixed(3);

function kitRow(name: string, f: QaFigures): string {
  return `| ${name} | ${f.n} | ${f3(f.rankedTop1)} | ${f3(f.top3)} | ${f3(f.top1)} | ${f3(f.wrong)} | ${f3(f.answered)} | ${f3(f.shownCorrect)} | ${f3(f.hedged)} / ${f3(f.hedgedRight)} | ${f3(f.em)} / ${f3(f.f1)} | ${f3(f.substringTop1)} | ${f.msPerQuestion.toFixed(2)} |`;
}

/** Share of unanswerable questions that pass the grounding gate, and of those, the share the answerer still answers. */
async function unanswered(items: readonly LabelledItem[]): Promise<{ n: number; passed: number; answered: number }> {
  const corpora = await corporaOf(items);
  const passing = items.filter((it) => checkGrounding(corpora.get(textOf(it))!, it.question).grounded);
  let answered = 0;
  await runQa(passing, { onTrace: (t) => { if (t.outcome.ok) answered++; } });
  return { n: items.length, passed: passing.length, answered };
}

async function main(): Promise<void> {
  const baselines = !process.argv.includes('--no-baselines');
  await loadAllLanguages();
  const sets: Record<string, LabelledItem[]> = {
    'real pages, held-out': await pageItems('heldout'),
    'real pages, dev': await pageItems('dev'),
    'SQuAD, held-out': squadItems('heldout'),
    'SQuAD, tune': squadItems('tune'),
  };
  sets['real pages, all'] = [...sets['real pages, held-out']!, ...sets['real pages, dev']!];
  sets['SQuAD, all'] = [...sets['SQuAD, held-out']!, ...sets['SQuAD, tune']!];

  console.log('## Kit\'s extractive answerer (default options)\n');
  console.log('ranked top-1 / top-3: the first / one of the first three ranked sentences holds a gold answer (the ranking alone);');
  console.log('answered top-1: answered, and the answering sentence holds it (a "couldn\'t find" is a miss); wrong: answered, and the');
  console.log('text shown (answer + context sentence) holds no gold answer; shown right: answered and the shown text holds it;');
  console.log('closest offered: not answered, the closest sentence quoted as such ("I couldn\'t find a direct answer… The closest it comes:"),');
  console.log('and the share where that quote holds a gold answer.\n');
  console.log('| set | n | ranked top-1 | top-3 | answered top-1 | wrong | answered | shown right | closest offered / holds it | best sentence EM / F1 | substring top-1 | ms / question (CPU) |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  const figures: Record<string, QaFigures> = {};
  for (const [name, items] of Object.entries(sets)) {
    figures[name] = await runQa(items);
    console.log(kitRow(name, figures[name]!));
  }
  for (const name of ['real pages, held-out', 'real pages, dev']) {
    console.log(kitRow(`${name}, via the SDK's sources`, await runQa(sets[name]!, { path: 'sources' })));
  }
  console.log('\nNot answered (closest sentence offered or not): share of all questions where one of the closest passages cited as sources holds a gold answer:');
  for (const [name, f] of Object.entries(figures)) console.log(`- ${name}: ${f3(f.closestRight)} of ${f3(1 - f.answered)} not answered`);
  console.log(`\nanswering alone (index built): ${figures['real pages, all']!.answerUs.toFixed(0)} µs CPU per real-page question, ${figures['SQuAD, all']!.answerUs.toFixed(0)} µs per SQuAD question`);

  console.log('\n## Questions the page cannot answer\n');
  console.log('| set | n | pass the grounding gate | of those, answered anyway |\n|---|---|---|---|');
  for (const [name, items] of [
    ['real pages, held-out: near-miss', await unanswerableItems('pages', 'heldout')],
    ['real pages, dev: near-miss', await unanswerableItems('pages', 'dev')],
    ['SQuAD 2.0, held-out: unanswerable', await unanswerableItems('squad', 'heldout')],
    ['SQuAD 2.0, tune: unanswerable', await unanswerableItems('squad', 'tune')],
  ] as const) {
    const u = await unanswered(items);
    console.log(`| ${name} | ${u.n} | ${u.passed} | ${u.answered} (${f3(u.passed ? u.answered / u.passed : 0)}) |`);
  }

  if (!baselines) return;
  console.log('\n## Baselines at their best settings (same tokenizer, stemmer, stopwords and sentences as Kit)\n');
  const all = Object.values(sets).flat();
  const corpora = await corporaOf(all);
  const minis = new Map<Corpus, MiniSearch>();
  const miniOf = (c: Corpus): MiniSearch => { let m = minis.get(c); if (!m) { m = miniSearchIndex(c); minis.set(c, m); } return m; };
  const dev = [sets['real pages, dev']!, sets['SQuAD, tune']!];
  const bm25 = bestSettings(BM25_GRID, dev, corpora, (s) => (c) => plainBm25(c, s));
  const mini = bestSettings<MiniSearchSettings>(MINISEARCH_GRID, dev, corpora, (s) => (c) => miniSearch(c, miniOf(c), s));
  console.log(`chosen on the development halves: BM25 k1 ${bm25.settings.k1}, b ${bm25.settings.b}; MiniSearch BM25+ k ${mini.settings.k}, b ${mini.settings.b}, d ${mini.settings.d}, fuzzy ${mini.settings.fuzzy}, prefix ${mini.settings.prefix}`);
  if (JSON.stringify(bm25.settings) !== JSON.stringify(BEST_BM25) || JSON.stringify(mini.settings) !== JSON.stringify(BEST_MINISEARCH)) {
    console.log('NOTE: these differ from BEST_BM25 / BEST_MINISEARCH in scripts/eval/qa-baselines.ts, which the retrieval benchmark uses: update them.');
  }
  const defaults = { k: 1.2, b: 0.7, d: 0.5, fuzzy: 0, prefix: false };
  console.log('\n| set | Kit top-1 / top-3 | BM25 (best) | MiniSearch (best) | MiniSearch (defaults) | Kit − best baseline, top-1 / top-3 (points) |\n|---|---|---|---|---|---|');
  for (const [name, items] of Object.entries(sets)) {
    const k = figures[name]!;
    const b = scoreRanking(items, corpora, (c) => plainBm25(c, bm25.settings));
    const m = scoreRanking(items, corpora, (c) => miniSearch(c, miniOf(c), mini.settings));
    const md = scoreRanking(items, corpora, (c) => miniSearch(c, miniOf(c), defaults));
    const best1 = Math.max(b.top1, m.top1);
    const best3 = Math.max(b.top3, m.top3);
    console.log(`| ${name} | ${f3(k.rankedTop1)} / ${f3(k.top3)} | ${f3(b.top1)} / ${f3(b.top3)} | ${f3(m.top1)} / ${f3(m.top3)} | ${f3(md.top1)} / ${f3(md.top3)} | ${((k.rankedTop1 - best1) * 100).toFixed(1)} / ${((k.top3 - best3) * 100).toFixed(1)} |`);
  }
}



if (process.argv[1]?.endsWith('qa-report.ts')) await main();
