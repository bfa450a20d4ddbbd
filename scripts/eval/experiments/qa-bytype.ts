// Session 9 scratch: ranked top-1 / top-3 by the question's expected answer kind (development halves only).
import { expectedAnswer } from '../../../core/retrieval/answer-type.js';
import { loadAllLanguages, tokenize } from '../../../core/text/index.js';
import { pageItems, squadItems } from '../qa-data.js';
import { runQa } from '../qa-run.js';
await loadAllLanguages();
const opts = JSON.parse(process.argv[2] ?? '{}') as Record<string, unknown>;
for (const [name, items] of [['real pages dev', await pageItems('dev')], ['SQuAD tune', squadItems('tune')]] as const) {
  const by = new Map<string, { n: number; r1: number; t3: number }>();
  await runQa(items, {
    answer: { ...opts, minConfidence: 0 },
    onTrace: (t) => {
      const k = expectedAnswer(tokenize(t.item.question))?.type ?? 'untyped';
      const e = by.get(k) ?? { n: 0, r1: 0, t3: 0 };
      e.n++; if (t.rankedTop1) e.r1++; if (t.top3) e.t3++;
      by.set(k, e);
    },
  });
  console.log(name, [...by].sort((a, b) => b[1].n - a[1].n).map(([k, e]) => `${k} ${e.n}: ${(e.r1 / e.n).toFixed(2)}/${(e.t3 / e.n).toFixed(2)}`).join(' · '));
}
