// Session 9 scratch: the stated answers that are wrong at the default threshold (real pages dev only), with their signals.
import { ANSWER_SIGNALS } from '../../../core/retrieval/index.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { pageItems, unanswerableItems } from '../qa-data.js';
import { runQa } from '../qa-run.js';
await loadAllLanguages();
const opts = JSON.parse(process.argv[2] ?? '{}') as Record<string, unknown>;
for (const items of [await pageItems('dev'), await unanswerableItems('pages', 'dev')]) {
  await runQa(items, {
    answer: opts,
    onTrace: (t) => {
      if (!t.wrong) return;
      const o = t.outcome;
      if (!o.ok) return;
      console.log(`\nQ: ${t.item.question} || gold: ${t.item.answers.join(' | ')}\n  A (${o.value.confidence.toFixed(2)}): ${o.value.text.slice(0, 300)}`);
      console.log('  ' + ANSWER_SIGNALS.map((n, i) => `${n}=${o.value.signals[i]!.toFixed(2)}`).join(' '));
    },
  });
}
