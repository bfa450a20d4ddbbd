/**
 * The QA evaluation loop shared by `npm run eval -- qa`, `scripts/eval/qa-report.ts` and the QA guard in
 * `npm test`: each question is answered by the product's extractive answerer (core/retrieval) and scored with
 * token containment (scripts/eval/qa-metrics.ts).
 *
 * Two paths, both the product's own code:
 * - `page`: the whole page is the corpus (the SDK's local fallback answers a one-page corpus of this shape);
 * - `sources`: as a visitor meets it without KIT_INFERENCE_URL: the SDK ranks the page's passages and sends the
 *   best (`selectSources`, 6 passages, 12,000 characters, as sdk/runtime.ts), and the server's extractive engine
 *   answers over those passages alone (a new corpus for each question, as the server builds one per request).
 */
import type { SourcePage } from '../../core/sources.js';
import { createAnswerer, createRetriever, selectSources, type AnswerOptions, type AnswerOutcome, type Answerer, type RankingOptions, type RetrieverOptions } from '../../core/retrieval/index.js';
import { buildCorpus, detectPagesLanguage, loadLanguage } from '../../core/text/index.js';
import { containsAny, containsAnySubstring, exactMatch, tokenF1 } from './qa-metrics.js';

/** One question: the page (its text, or a page with url and title), the gold answers. */
export interface QaItem {
  readonly page: string | SourcePage;
  readonly question: string;
  readonly answers: readonly string[];
}

/** Limits the SDK applies when it selects sources (sdk/runtime.ts MAX_SOURCES, MAX_SOURCE_CHARS). */
export const SDK_SOURCE_LIMITS = Object.freeze({ maxSources: 6, maxChars: 12_000 });

export type QaPath = 'page' | 'sources';

/** The figures of one run. Rates are over all questions. */
export interface QaFigures {
  readonly n: number;
  /** Answered, and the answering sentence contains a gold answer (a `not_found` counts as a miss). */
  readonly top1: number;
  /** One of the first three ranked sentences contains a gold answer (answered or not). */
  readonly top3: number;
  /** The first ranked sentence contains a gold answer, whether or not the answerer declined. */
  readonly rankedTop1: number;
  /** Share answered (not `not_found`). */
  readonly answered: number;
  /** Answered, and the text the visitor reads (answer and its context sentence) contains no gold answer. */
  readonly wrong: number;
  /** Answered, and the visitor's text contains a gold answer (the context sentence may hold it). */
  readonly shownCorrect: number;
  /** Not answered, but the closest sentence offered (`nearest`, "the closest it comes: …"). */
  readonly hedged: number;
  /** Not answered, and the closest sentence offered (with its context) contains a gold answer. */
  readonly hedgedRight: number;
  /** Not answered, and one of the closest passages it cites as sources contains a gold answer. */
  readonly closestRight: number;
  /** SQuAD exact match and token F1 of the first ranked sentence against the gold answers. */
  readonly em: number;
  readonly f1: number;
  /** The former metric: the first ranked sentence contains a gold answer as a substring (not whole tokens). */
  readonly substringTop1: number;
  /** CPU ms per question: indexing amortised over a page's questions (per question on the sources path), plus answering. */
  readonly msPerQuestion: number;
  /** CPU µs per question spent answering alone (index built). */
  readonly answerUs: number;
  readonly pages: number;
}

/** Per question: the outcome and its scoring, for reports that break figures down. */
export interface QaTrace {
  readonly item: QaItem;
  readonly outcome: AnswerOutcome;
  readonly top1: boolean;
  readonly top3: boolean;
  readonly rankedTop1: boolean;
  readonly wrong: boolean;
}

export interface QaRunOptions {
  readonly path?: QaPath;
  readonly answer?: AnswerOptions & RankingOptions;
  readonly retriever?: RetrieverOptions;
  /** Called with every question's trace. */
  readonly onTrace?: (t: QaTrace) => void;
}

/** Answers every item and returns the figures. Language packs are loaded first and left out of the timing. */
export async function runQa(items: readonly QaItem[], options: QaRunOptions = {}): Promise<QaFigures> {
  const path = options.path ?? 'page';
  const answerers = new Map<string, Answerer>();
  const pageOf = (p: string | SourcePage): SourcePage => (typeof p === 'string' ? { url: 'eval:page', title: '', text: p } : p);
  const keyOf = (p: string | SourcePage): string => (typeof p === 'string' ? p : `${p.url}\n${p.title}\n${p.text}`);
  let top1 = 0, top3 = 0, ranked1 = 0, answered = 0, wrong = 0, shown = 0, em = 0, f1 = 0, sub1 = 0, hedged = 0, hedgedRight = 0, closestRight = 0;
  let buildMs = 0, answerMs = 0;
  for (const item of items) {
    const key = keyOf(item.page);
    let a = answerers.get(key);
    if (!a) {
      const pages = [pageOf(item.page)];
      await loadLanguage(detectPagesLanguage(pages));
      const t0 = cpuMs();
      a = createAnswerer(createRetriever(buildCorpus(pages), options.retriever), options.answer);
      buildMs += cpuMs() - t0;
      answerers.set(key, a);
    }
    let outcome: AnswerOutcome;
    if (path === 'page') {
      const t = cpuMs();
      outcome = a.answer(item.question);
      answerMs += cpuMs() - t;
    } else {
      const t = cpuMs();
      const sources = selectSources(a.ranker.retriever, item.question, SDK_SOURCE_LIMITS);
      const server = createAnswerer(createRetriever(buildCorpus(sources), options.retriever), options.answer);
      const t1 = cpuMs();
      outcome = server.answer(item.question);
      const t2 = cpuMs();
      buildMs += t1 - t;
      answerMs += t2 - t1;
    }
    const ranked = outcome.ok ? outcome.value.sentences : outcome.sentences;
    const first = ranked[0]?.text ?? '';
    const r1 = first !== '' && containsAny(first, item.answers);
    const t1 = outcome.ok && containsAny(outcome.value.answer.text, item.answers);
    const t3 = ranked.slice(0, 3).some((s) => containsAny(s.text, item.answers));
    const shownOk = outcome.ok && containsAny(outcome.value.text, item.answers);
    const w = outcome.ok && !shownOk;
    if (r1) ranked1++;
    if (t1) top1++;
    if (t3) top3++;
    if (outcome.ok) answered++;
    if (shownOk) shown++;
    if (w) wrong++;
    if (!outcome.ok && outcome.closest.some((p) => containsAny(p.text, item.answers))) closestRight++;
    if (!outcome.ok && outcome.nearest) {
      hedged++;
      if (containsAny(outcome.nearest.text, item.answers)) hedgedRight++;
    }
    if (first !== '') {
      em += exactMatch(first, item.answers);
      f1 += tokenF1(first, item.answers);
      if (containsAnySubstring(first, item.answers)) sub1++;
    }
    options.onTrace?.({ item, outcome, top1: t1, top3: t3, rankedTop1: r1, wrong: w });
  }
  const n = items.length || 1;
  return {
    n: items.length,
    top1: top1 / n,
    top3: top3 / n,
    rankedTop1: ranked1 / n,
    answered: answered / n,
    wrong: wrong / n,
    shownCorrect: shown / n,
    hedged: hedged / n,
    hedgedRight: hedgedRight / n,
    closestRight: closestRight / n,
    em: em / n,
    f1: f1 / n,
    substringTop1: sub1 / n,
    msPerQuestion: (buildMs + answerMs) / n,
    answerUs: (answerMs * 1000) / n,
    pages: answerers.size,
  };
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
