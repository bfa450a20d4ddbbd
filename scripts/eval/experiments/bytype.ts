import { loadAllLanguages } from '../../../core/text/index.js';
import { pageItems, squadItems } from '../qa-data.js';
import { runQa } from '../qa-run.js';
import { expectedAnswer } from '../../../core/retrieval/answer-type.js';
import { tokenize } from '../../../core/text/index.js';
await loadAllLanguages();
for (const [n, items] of [['dev', await pageItems('dev')], ['tune', squadItems('tune')]] as const) {
  const by: Record<string, [number, number, number]> = {};
  await runQa(items, { answer: { minConfidence: 0 }, onTrace: (t) => {
    const w = tokenize(t.item.question);
    const k = expectedAnswer(w)?.type ?? (w[0] ?? '?') + '?';
    const key = expectedAnswer(w) ? k : `untyped:${['what', 'which', 'how', 'why'].includes(w[0]!) ? w[0] : 'other'}`;
    by[key] ??= [0, 0, 0]; by[key][2]++; if (t.rankedTop1) by[key][0]++; if (t.top3) by[key][1]++;
  } });
  console.log(n, Object.entries(by).sort((a, b) => b[1][2] - a[1][2]).map(([k, [a, b, c]]) => `${k} ${c}: ${(a / c).toFixed(2)}/${(b / c).toFixed(2)}`).join(' | '));
}
