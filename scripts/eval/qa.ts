/**
 * `npm run eval -- qa <file.jsonl>` (CONTRACT §9): each case `{ page, question, answers }` is answered by the
 * product's extractive answerer (core/retrieval) over the corpus of its page. Metrics: n, top1_accuracy (the
 * answer's first sentence contains a gold answer), top3_recall (one of its first three ranked sentences does),
 * ms_per_question (index building amortised over the page's questions, plus answering; process CPU time, so
 * that other processes on a shared machine do not inflate it), containment after SQuAD's normalisation.
 * A not-found outcome counts as a miss.
 */
import { answerQuestion, createRetriever, type Retriever } from '../../core/retrieval/index.js';
import { buildCorpus, detectPagesLanguage, loadLanguage } from '../../core/text/index.js';
import { CaseError, requireObject, requireString, type EvalSuite } from './suite.js';

export interface QaCase {
  readonly page: string;
  readonly question: string;
  readonly answers: readonly string[];
}

/** SQuAD's answer normalisation: lower case, no ASCII punctuation, no articles, single spaces. */
export function normalizeAnswer(s: string): string {
  return s.toLowerCase()
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export const qaSuite: EvalSuite<QaCase> = {
  parseCase(value) {
    const o = requireObject(value);
    const page = requireString(o, 'page');
    const question = requireString(o, 'question');
    const answers = o['answers'];
    if (!Array.isArray(answers) || answers.length === 0 || !answers.every((a) => typeof a === 'string')) {
      throw new CaseError('"answers" must be a non-empty array of strings');
    }
    return { page, question, answers: answers as string[] };
  },

  async run(cases, { log }) {
    const retrievers = new Map<string, Retriever>();
    let top1 = 0, top3 = 0, notFound = 0;
    let buildMs = 0, answerMs = 0;
    for (const c of cases) {
      let r = retrievers.get(c.page);
      if (!r) {
        const pages = [{ url: 'eval:page', title: '', text: c.page }];
        // As prepareCorpus does for the engines, with the one-off module load left out of the timing.
        await loadLanguage(detectPagesLanguage(pages));
        const t0 = cpuMs();
        r = createRetriever(buildCorpus(pages));
        buildMs += cpuMs() - t0;
        retrievers.set(c.page, r);
      }
      const t2 = cpuMs();
      const outcome = answerQuestion(r, c.question);
      answerMs += cpuMs() - t2;
      if (!outcome.ok) { notFound++; continue; }
      const gold = c.answers.map(normalizeAnswer).filter((g) => g !== '');
      const has = (text: string): boolean => { const t = normalizeAnswer(text); return gold.some((g) => t.includes(g)); };
      if (has(outcome.value.sentences[0]!.text)) top1++;
      if (outcome.value.sentences.slice(0, 3).some((s) => has(s.text))) top3++;
    }
    const n = cases.length;
    log(`qa: ${n} questions, ${retrievers.size} pages (${(buildMs / retrievers.size).toFixed(1)} ms to index a page), ` +
      `${((answerMs * 1000) / n).toFixed(0)} µs to answer (CPU), ${notFound} not found`);
    return {
      n,
      top1_accuracy: round(top1 / n),
      top3_recall: round(top3 / n),
      ms_per_question: round((buildMs + answerMs) / n),
    };
  },
};

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
