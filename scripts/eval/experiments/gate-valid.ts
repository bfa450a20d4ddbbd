/**
 * Session 11's validation batch for the gate (gate-valid-questions.txt: 115 questions over 11 unused Readability
 * pages, committed before any gate ran on them), as grounding-report.ts builds its cases: each page a one-page corpus.
 */
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareCorpus, type Corpus } from '../../../core/text/index.js';
import { loadPageCases } from '../build-pages-cases.js';
import type { GateCase } from '../grounding-report.js';

const here = dirname(fileURLToPath(import.meta.url));

export async function validCases(): Promise<GateCase[]> {
  const cs = loadPageCases(resolve(here, '..', '..', '..', '..', 'shared', 'eval', 'pages'), join(here, 'gate-valid-questions.txt'));
  const corpora = new Map<string, Corpus>();
  const out: GateCase[] = [];
  for (const c of cs) {
    let corpus = corpora.get(c.case);
    if (!corpus) { corpus = await prepareCorpus([{ url: `eval:${c.case}`, title: c.title, text: c.page }]); corpora.set(c.case, corpus); }
    out.push({ corpus, text: `${c.title}\n\n${c.page}`, question: c.question, expect: c.kind === 'answerable' || c.kind === 'page' ? 'answer' : 'refuse', kind: c.kind });
  }
  return out;
}

