/**
 * The retrieval baselines of the QA evaluation (issue 16.4), given the same analysis as Kit — its tokenizer, its
 * stemmer and stopwords of the page's language — and the same sentences (Kit's corpus split) to rank:
 *
 * - plain BM25 over sentences (Kit's own index code, every question word weighted by IDF alone);
 * - MiniSearch 7 (BM25+ over sentences, with its fuzzy and prefix matching).
 *
 * Each at its best settings: a grid searched on the development halves only (real pages' `dev`, SQuAD's `tune`),
 * maximising the mean of top-1 and top-3 over the two sets; the held-out halves are then reported with the chosen
 * settings (scripts/eval/qa-report.ts).
 */
import MiniSearch, { type SearchOptions } from 'minisearch';
import { createBm25Index } from '../../core/retrieval/bm25-index.js';
import { buildCorpus, detectPagesLanguage, loadLanguage, tokenize, type Corpus } from '../../core/text/index.js';
import type { SourcePage } from '../../core/sources.js';
import { containsAny } from './qa-metrics.js';
import type { QaItem } from './qa-run.js';

/** Ranks a page's sentences for a question: sentence texts, best first. */
export type SentenceRanking = (question: string, k: number) => string[];

export interface Bm25Settings { readonly k1: number; readonly b: number }
export interface MiniSearchSettings { readonly k: number; readonly b: number; readonly d: number; readonly fuzzy: number; readonly prefix: boolean }

/** Plain BM25 over a corpus's sentences with the corpus's own analysis. */
export function plainBm25(corpus: Corpus, settings: Bm25Settings): SentenceRanking {
  const index = createBm25Index(corpus, corpus.sentences.map((s) => s.terms), settings);
  const scores = new Float64Array(corpus.sentences.length);
  return (question, k) => {
    const { words, terms } = corpus.analyze(question);
    const ids: number[] = [];
    for (let i = 0; i < words.length; i++) {
      if (corpus.resources.isStopword(words[i]!)) continue;
      const id = corpus.vocabulary.get(terms[i]!);
      if (id !== undefined && !ids.includes(id)) ids.push(id);
    }
    const touched = index.accumulate(ids, scores);
    const ranked = touched.map((s) => ({ s, v: scores[s]! })).sort((a, b) => b.v - a.v || a.s - b.s).slice(0, k);
    for (const s of touched) scores[s] = 0;
    return ranked.map((r) => corpus.sentences[r.s]!.text);
  };
}

/** A MiniSearch index of a corpus's sentences, analysed with the corpus's tokenizer, stemmer and stopwords. */
export function miniSearchIndex(corpus: Corpus): MiniSearch {
  const res = corpus.resources;
  const mini = new MiniSearch({
    fields: ['text'],
    tokenize: (text: string) => tokenize(text),
    processTerm: (term: string) => (res.isStopword(term) ? null : res.stem(term)),
  });
  mini.addAll(corpus.sentences.map((s, id) => ({ id, text: s.text })));
  return mini;
}

export function miniSearch(corpus: Corpus, mini: MiniSearch, settings: MiniSearchSettings): SentenceRanking {
  const options: SearchOptions = {
    bm25: { k: settings.k, b: settings.b, d: settings.d },
    fuzzy: settings.fuzzy > 0 ? settings.fuzzy : false,
    prefix: settings.prefix,
    combineWith: 'OR',
  };
  return (question, k) => mini.search(question, options).slice(0, k).map((r) => corpus.sentences[r.id as number]!.text);
}

/**
 * The best settings found by the grid search of scripts/eval/qa-report.ts (which searches again on every run and
 * says so when its choice differs from these): used by the retrieval benchmark, which has no time for the search.
 */
export const BEST_BM25: Bm25Settings = Object.freeze({ k1: 0.3, b: 0 });
export const BEST_MINISEARCH: MiniSearchSettings = Object.freeze({ k: 1.2, b: 0.75, d: 0.5, fuzzy: 0.2, prefix: true });

/** Top-1 and top-3 (a gold answer among the first one / three sentences, whole tokens) of a ranking. */
export interface RankingFigures { readonly n: number; readonly top1: number; readonly top3: number }

/** The pages of `items` as corpora, built once (language packs loaded first). */
export async function corporaOf(items: readonly QaItem[]): Promise<Map<string, Corpus>> {
  const out = new Map<string, Corpus>();
  for (const it of items) {
    const page: SourcePage = typeof it.page === 'string' ? { url: 'eval:page', title: '', text: it.page } : it.page;
    if (out.has(page.text)) continue;
    await loadLanguage(detectPagesLanguage([page]));
    out.set(page.text, buildCorpus([page]));
  }
  return out;
}

export function textOf(item: QaItem): string {
  return typeof item.page === 'string' ? item.page : item.page.text;
}

/** Scores a ranking function (built per page by `make`) over `items`. */
export function scoreRanking(items: readonly QaItem[], corpora: ReadonlyMap<string, Corpus>, make: (corpus: Corpus, text: string) => SentenceRanking): RankingFigures {
  const rankers = new Map<string, SentenceRanking>();
  let top1 = 0, top3 = 0;
  for (const it of items) {
    const text = textOf(it);
    let r = rankers.get(text);
    if (!r) { r = make(corpora.get(text)!, text); rankers.set(text, r); }
    const ranked = r(it.question, 3);
    if (ranked[0] !== undefined && containsAny(ranked[0], it.answers)) top1++;
    if (ranked.some((s) => containsAny(s, it.answers))) top3++;
  }
  const n = items.length || 1;
  return { n: items.length, top1: top1 / n, top3: top3 / n };
}

/** The grids searched for each baseline's best settings. */
export const BM25_GRID: readonly Bm25Settings[] = [0.3, 0.6, 0.9, 1.2, 1.5, 2].flatMap((k1) => [0, 0.25, 0.5, 0.75, 1].map((b) => ({ k1, b })));
export const MINISEARCH_GRID: readonly MiniSearchSettings[] = [0.6, 0.9, 1.2, 1.5].flatMap((k) => [0.3, 0.5, 0.75, 0.9].flatMap((b) =>
  [0, 0.5].flatMap((d) => [0, 0.2].flatMap((fuzzy) => [false, true].map((prefix) => ({ k, b, d, fuzzy, prefix }))))));

/**
 * The settings of a grid that maximise the mean of top-1 and top-3 over the development sets (each set counts
 * equally, whatever its size). Ties keep the earlier setting.
 */
export function bestSettings<S>(grid: readonly S[], sets: readonly (readonly QaItem[])[], corpora: ReadonlyMap<string, Corpus>, make: (s: S) => (corpus: Corpus, text: string) => SentenceRanking): { settings: S; score: number } {
  let best: { settings: S; score: number } | null = null;
  for (const s of grid) {
    let score = 0;
    for (const set of sets) { const f = scoreRanking(set, corpora, make(s)); score += (f.top1 + f.top3) / 2 / sets.length; }
    if (!best || score > best.score + 1e-12) best = { settings: s, score };
  }
  return best!;
}
