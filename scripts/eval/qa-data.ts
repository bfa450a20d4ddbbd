/**
 * The QA questions of the evaluation, straight from their sources (no case files needed): SQuAD 2.0's answerable
 * questions, each article a page, split by article (tune = even positions, held-out = odd, as
 * build-squad-cases.ts), and the visitors' questions on real pages (eval/pages, split by page as
 * build-pages-cases.ts: dev / held-out).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadPageCases, type PageCase } from './build-pages-cases.js';
import { loadSquad } from './build-squad-cases.js';
import type { QaItem } from './qa-run.js';

export const SHARED_EVAL = resolve(process.env.KIT_SHARED_EVAL ?? '../shared/eval');
const ROOT = resolve(import.meta.dirname, '..', '..');

/** A question with where it comes from. */
export interface LabelledItem extends QaItem {
  /** Page case or article title. */
  readonly source: string;
}

/** SQuAD's answerable questions of one half: `tune` (even articles) or `heldout` (odd). */
export function squadItems(split: 'tune' | 'heldout' | 'all'): LabelledItem[] {
  const articles = loadSquad(join(SHARED_EVAL, 'squad', 'dev-v2.0.cs224n-half.json'));
  return articles.flatMap((a, i) => (split === 'all' || (i % 2 === 0) === (split === 'tune')
    ? a.questions.map((q) => ({ page: { url: `squad:${a.title}`, title: '', text: a.page }, question: q.question, answers: q.answers, source: a.title }))
    : []));
}

/**
 * Questions the pages cannot answer, asked of them: the real pages' near-miss off-topic questions (they reuse names
 * the page mentions and ask what it does not hold) and SQuAD 2.0's unanswerable questions (written to look
 * answerable from their article). Any answer to them is wrong; they teach the answerer's confidence what a
 * question the page does not answer looks like.
 */
export async function unanswerableItems(source: 'pages' | 'squad', split: 'dev' | 'tune' | 'heldout'): Promise<LabelledItem[]> {
  if (source === 'squad') {
    const data = JSON.parse(readFileSync(join(SHARED_EVAL, 'squad', 'dev-v2.0.cs224n-half.json'), 'utf8')) as {
      data: { title: string; paragraphs: { context: string; qas: { question: string; is_impossible?: boolean }[] }[] }[];
    };
    return data.data.flatMap((a, i) => {
      if ((i % 2 === 0) !== (split === 'tune')) return [];
      const title = a.title.replace(/_/g, ' ');
      const page = [title, ...a.paragraphs.map((p) => p.context.trim())].join('\n\n');
      return a.paragraphs.flatMap((p) => p.qas.filter((q) => q.is_impossible).map((q) => ({
        page: { url: `squad:${title}`, title: '', text: page }, question: q.question.trim(), answers: [], source: title,
      })));
    });
  }
  return pageCases().filter((c) => c.kind === 'near_miss' && c.split === split)
    .map((c) => ({ page: { url: `page:${c.case}`, title: c.title, text: c.page }, question: c.question, answers: [], source: c.case }));
}

let cached: PageCase[] | null = null;
// The real-page questions joined with their pages' text (build-pages-cases.ts), read once per process.
function pageCases(): PageCase[] {
  cached ??= loadPageCases(join(SHARED_EVAL, 'pages'), join(ROOT, 'eval', 'pages', 'questions.txt'));
  return cached;
}

/** The answerable visitors' questions on real pages of one split (eval/pages/questions.txt with the pages' text). */
export async function pageItems(split: 'dev' | 'heldout' | 'all'): Promise<LabelledItem[]> {
  return pageCases().filter((c) => c.kind === 'answerable' && (split === 'all' || c.split === split))
    .map((c) => ({ page: { url: `page:${c.case}`, title: c.title, text: c.page }, question: c.question, answers: c.answers, source: c.case }));
}
