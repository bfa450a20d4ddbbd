/**
 * Retrieval: Kit's index build (buildCorpus + createRetriever) and extractive answering beside MiniSearch 7 on
 * the same corpus — the 16 SQuAD 2.0 articles of ../shared/eval/squad, each article one page, every answerable
 * question asked of its own article. MiniSearch indexes the same sentences (split by Kit beforehand, not timed)
 * with its default analysis, and again with the same Porter stemmer Kit uses (equal analysis). Top-1/top-3: the
 * first / one of the first three sentences contains a gold answer after SQuAD normalisation. Times are process
 * CPU time (one core; a busy shared machine cannot inflate them), the minimum over repeated passes.
 * Run: npm run bench -- retrieval   (writes .tmp/bench-core-text-retrieval.md)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import MiniSearch from 'minisearch';
import { stemmer } from '@orama/stemmers/english';
import { loadSquad } from '../scripts/eval/build-squad-cases.js';
import { normalizeAnswer } from '../scripts/eval/qa.js';
import { buildCorpus, clearTextCaches, loadAllLanguages, splitSentences } from '../core/text/index.js';
import { answerQuestion, createRetriever, type Retriever } from '../core/retrieval/index.js';
import { minCpuPass } from './support/cpu-time.js';

// A Node host: every language pack up front, so buildCorpus never meets a language in its fallback.
await loadAllLanguages();
const SHARED = resolve(process.env.KIT_SHARED_EVAL ?? '../shared/eval');
const articles = loadSquad(join(SHARED, 'squad', 'dev-v2.0.cs224n-half.json'));
const kb = articles.reduce((n, a) => n + Buffer.byteLength(a.page), 0) / 1e3;
const questions = articles.flatMap((a, i) => a.questions.map((q) => ({ article: i, ...q })));
const sentencesOf = articles.map((a) => splitSentences(a.page));

const minPass = (fn: () => void, budget = 3_000): number => minCpuPass(fn, budget, { gc: true });

const kitBuild = (): Retriever[] => articles.map((a) => createRetriever(buildCorpus([{ url: a.title, title: '', text: a.page }])));
const msBuild = (stem: boolean): MiniSearch[] => sentencesOf.map((ss) => {
  const m = new MiniSearch({ fields: ['text'], ...(stem ? { processTerm: (t: string) => stemmer(t.toLowerCase()) } : {}) });
  m.addAll(ss.map((text, id) => ({ id, text })));
  return m;
});

// Cold: every word and stem forgotten before each pass, as for the first page a visitor opens; warm: the words of
// earlier pages known (the lexicon is shared by every corpus of a language, as on the next page of a site).
const buildKit = minPass(() => { clearTextCaches(); kitBuild(); });
const buildKitWarm = minPass(() => { kitBuild(); });
const buildMs = minPass(() => { msBuild(false); });
const buildMsStem = minPass(() => { msBuild(true); });

const kit = kitBuild();
const ms = msBuild(false);
const msStem = msBuild(true);
const has = (answers: readonly string[], text: string | undefined): boolean => {
  if (text === undefined) return false;
  const t = normalizeAnswer(text);
  return answers.some((a) => { const g = normalizeAnswer(a); return g !== '' && t.includes(g); });
};
function quality(rank: (q: (typeof questions)[number]) => string[]): { top1: number; top3: number } {
  let top1 = 0;
  let top3 = 0;
  for (const q of questions) {
    const r = rank(q);
    if (has(q.answers, r[0])) top1++;
    if (r.slice(0, 3).some((t) => has(q.answers, t))) top3++;
  }
  return { top1: top1 / questions.length, top3: top3 / questions.length };
}
const kitRank = (q: (typeof questions)[number]): string[] => { const o = answerQuestion(kit[q.article]!, q.question); return o.ok ? o.value.sentences.map((s) => s.text) : []; };
const msRank = (idx: MiniSearch[]) => (q: (typeof questions)[number]): string[] =>
  idx[q.article]!.search(q.question).slice(0, 3).map((r) => sentencesOf[q.article]![r.id as number]!);
const qKit = quality(kitRank);
const qMs = quality(msRank(ms));
const qMsStem = quality(msRank(msStem));
const perQ = (fn: () => void): number => (minPass(fn, 2_000) * 1000) / questions.length;
const queryKit = perQ(() => { for (const q of questions) answerQuestion(kit[q.article]!, q.question); });
const queryMs = perQ(() => { for (const q of questions) ms[q.article]!.search(q.question); });
const queryMsStem = perQ(() => { for (const q of questions) msStem[q.article]!.search(q.question); });

const f = (x: number, d = 1): string => x.toFixed(d);
const rows = [
  '| metric | Kit | reference | ratio |',
  '|---|---|---|---|',
  `| index build, 16 SQuAD articles (${f(kb, 0)} kB), ms CPU, cold | ${f(buildKit)} | MiniSearch ${f(buildMs)} | ${f(buildMs / buildKit, 2)}× faster |`,
  `| index build, words of earlier pages known (warm) | ${f(buildKitWarm)} | MiniSearch ${f(buildMs)} | ${f(buildMs / buildKitWarm, 2)}× faster |`,
  `| index build, equal analysis (Porter stemming), ms CPU, cold | ${f(buildKit)} | MiniSearch+stemmer ${f(buildMsStem)} | ${f(buildMsStem / buildKit, 2)}× faster |`,
  `| query, µs CPU per question (${questions.length}) | ${f(queryKit)} | MiniSearch ${f(queryMs)} / +stemmer ${f(queryMsStem)} | ${f(queryMs / queryKit, 2)}× / ${f(queryMsStem / queryKit, 2)}× |`,
  `| top-1 sentence contains a gold answer | ${f(qKit.top1, 4)} | MiniSearch ${f(qMs.top1, 4)} / +stemmer ${f(qMsStem.top1, 4)} | +${f((qKit.top1 - qMs.top1) * 100)} / +${f((qKit.top1 - qMsStem.top1) * 100)} points |`,
  `| top-3 sentences contain a gold answer | ${f(qKit.top3, 4)} | MiniSearch ${f(qMs.top3, 4)} / +stemmer ${f(qMsStem.top3, 4)} | +${f((qKit.top3 - qMs.top3) * 100)} / +${f((qKit.top3 - qMsStem.top3) * 100)} points |`,
];
console.log(rows.join('\n'));
mkdirSync('.tmp', { recursive: true });
writeFileSync(join('.tmp', 'bench-core-text-retrieval.md'), rows.join('\n') + '\n');
