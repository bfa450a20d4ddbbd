/**
 * `npm run eval -- qa <file.jsonl>` (CONTRACT §9): each case `{ page, question, answers }` is answered by the
 * product's extractive answerer (core/retrieval) over the corpus of its page (scripts/eval/qa-run.ts). Matching is
 * token containment after SQuAD's normalisation (scripts/eval/qa-metrics.ts): the gold answer's words, whole.
 *
 * Metrics: `n`; `top1_accuracy` (answered, and the answering sentence contains a gold answer; a `not_found` is a
 * miss); `top3_recall` (one of the first three ranked sentences does); `ms_per_question` (process CPU time of
 * indexing, amortised over the page's questions, plus answering); and beside them `ranked_top1` (the first ranked
 * sentence, answered or not), `answered_rate`, `wrong_answer_rate` (answered, but the text shown — the sentence and
 * its context — holds no gold answer), `best_sentence_em` / `best_sentence_f1` (SQuAD EM/F1 of the first ranked
 * sentence), `substring_top1` (the former substring metric), and `via_sources`: the same figures on the path a
 * visitor meets without KIT_INFERENCE_URL (the SDK's selected passages answered by the server's engine).
 * Optional case fields (Kit extensions): `title`, the page's title, given to the corpus as the SDK gives
 * `document.title`; `split`: figures are also given per split.
 */
import { runQa, type QaFigures, type QaItem } from './qa-run.js';
import { CaseError, requireObject, requireString, type EvalSuite } from './suite.js';

export { normalizeAnswer } from './qa-metrics.js';

export interface QaCase extends QaItem {
  readonly page: string | { url: string; title: string; text: string };
  readonly split?: string;
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
    const split = o['split'];
    if (split !== undefined && typeof split !== 'string') throw new CaseError('"split" must be a string when given');
    // Kit extension: the page's title, given to the corpus as the SDK gives document.title.
    const title = o['title'];
    if (title !== undefined && typeof title !== 'string') throw new CaseError('"title" must be a string when given');
    return { page: title === undefined ? page : { url: 'eval:page', title, text: page }, question, answers: answers as string[], ...(split === undefined ? {} : { split }) };
  },

  async run(cases, { log }) {
    const page = await runQa(cases);
    const sources = await runQa(cases, { path: 'sources' });
    log(`qa: ${page.n} questions, ${page.pages} pages, ${page.answerUs.toFixed(0)} µs to answer (CPU), ${((1 - page.answered) * page.n).toFixed(0)} not found`);
    const splits = [...new Set(cases.map((c) => c.split).filter((s): s is string => s !== undefined))].sort();
    const bySplit: Record<string, Record<string, number>> = {};
    for (const s of splits) bySplit[s] = metrics(await runQa(cases.filter((c) => c.split === s)));
    return { ...metrics(page), via_sources: metrics(sources), ...(splits.length > 0 ? { by_split: bySplit } : {}) };
  },
};

/** The printed metrics of one run. */
export function metrics(f: QaFigures): Record<string, number> {
  return {
    n: f.n,
    top1_accuracy: round(f.top1),
    top3_recall: round(f.top3),
    ms_per_question: round(f.msPerQuestion),
    ranked_top1: round(f.rankedTop1),
    answered_rate: round(f.answered),
    wrong_answer_rate: round(f.wrong),
    best_sentence_em: round(f.em),
    best_sentence_f1: round(f.f1),
    substring_top1: round(f.substringTop1),
  };
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
