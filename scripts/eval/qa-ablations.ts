/**
 * `npx tsx scripts/eval/qa-ablations.ts`: what each of the extractive answerer's ideas does, on the development
 * halves only (real pages' `dev`, SQuAD's `tune`) — the figures of docs/eval.md's "What was tried". Each row switches
 * one idea off (or changes one setting) against the defaults. Columns: ranked top-1 / top-3 (the ranking alone) and
 * the share of wrong answers when the answerer always answers (minConfidence 0), so that the confidence does not
 * hide what the ranking and the context sentence do.
 */
import type { AnswerOptions, RankingOptions, RetrieverOptions } from '../../core/retrieval/index.js';
import { loadAllLanguages } from '../../core/text/index.js';
import { pageItems, squadItems } from './qa-data.js';
import { runQa, type QaItem } from './qa-run.js';

const VARIANTS: readonly [string, AnswerOptions & RankingOptions, RetrieverOptions?][] = [
  ['defaults', {}],
  ['no heading / FAQ-question score for the sentences under it (headingWeight 0)', { headingWeight: 0 }],
  ['no switch to a lower sentence of the asked kind', { switchToAnswerType: false }],
  ['no answer-kind bonus in the ranking (answerTypeBonus 0)', { answerTypeBonus: 0, possibleTypeBonus: 0 }],
  ['no neighbour quoted as context (only the context an answer leans on)', { neighbourContext: false }],
  ['the earlier weights (passage 0.3, previous 0.15, next 0, rarest word 0)', { passageWeight: 0.3, previousWeight: 0.15, nextWeight: 0, rarestBonus: 0 }],
  ['sentence BM25 k1 0.3, b 0 (the best plain BM25 setting)', { k1: 0.3, b: 0 }],
  ['sentence BM25 k1 1.2, b 0.75 (the textbook setting)', { k1: 1.2, b: 0.75 }],
  ['no rarity bonus (specificityWeight 0)', {}, { specificityWeight: 0 }],
  ['no bonus for the answer next to a question word (answerNearBonus 0)', { answerNearBonus: 0 }],
  ['no bonus for a sentence defining what "what is X?" asks (definitionBonus 0)', { definitionBonus: 0 }],
  ['neither (the ranking before 2026-11-27 evening)', { answerNearBonus: 0, definitionBonus: 0 }],
  ['answer next to a question word within 2 words (answerNearWords 2)', { answerNearWords: 2 }],
  ['answer next to a question word within 5 words (answerNearWords 5)', { answerNearWords: 5 }],
  ['answerNearBonus 0.05', { answerNearBonus: 0.05 }],
  ['answerNearBonus 0.2', { answerNearBonus: 0.2 }],
];

async function main(): Promise<void> {
  await loadAllLanguages();
  const sets: [string, QaItem[]][] = [['real pages dev', await pageItems('dev')], ['SQuAD tune', squadItems('tune')]];
  console.log(`| variant | ${sets.map(([n]) => `${n}: ranked top-1 / top-3 / wrong (always answering)`).join(' | ')} |`);
  console.log(`|---|${sets.map(() => '---').join('|')}|`);
  for (const [name, options, retriever] of VARIANTS) {
    const cells: string[] = [];
    for (const [, items] of sets) {
      const f = await runQa(items, { answer: { ...options, minConfidence: 0 }, retriever });
      cells.push(`${f.rankedTop1.toFixed(3)} / ${f.top3.toFixed(3)} / ${f.wrong.toFixed(3)}`);
    }
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  }
  // The rule "decline when the question's most specific word is absent from the pages", kept only for yes/no
  // questions: how often it would fire on answerable questions, and how many of those answers are right.
  console.log('\n| set | answerable questions whose most specific word the page lacks | of those, answered right (always answering) |\n|---|---|---|');
  for (const [name, items] of sets) {
    let fired = 0, right = 0;
    await runQa(items, {
      answer: { minConfidence: 0 },
      onTrace: (t) => {
        const x = t.outcome.ok ? t.outcome.value.signals : t.outcome.signals;
        if (!x || x[6] !== 1) return;
        fired++;
        if (t.outcome.ok && !t.wrong) right++;
      },
    });
    console.log(`| ${name} | ${fired} | ${right} |`);
  }
}

if (process.argv[1]?.endsWith('qa-ablations.ts')) await main();
