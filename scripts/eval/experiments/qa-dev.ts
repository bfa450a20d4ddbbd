// Session 9 scratch: qa-report's columns on the development halves only (real pages dev, SQuAD tune), with the
// answerer's defaults or the options given as JSON; near-miss questions answered.
import { loadAllLanguages } from '../../../core/text/index.js';
import { pageItems, squadItems, unanswerableItems } from '../qa-data.js';
import { runQa } from '../qa-run.js';
await loadAllLanguages();
const opts = JSON.parse(process.argv[2] ?? '{}') as Record<string, unknown>;
for (const [name, items, no] of [['real pages dev', await pageItems('dev'), await unanswerableItems('pages', 'dev')],
  ['SQuAD tune', squadItems('tune'), await unanswerableItems('squad', 'tune')]] as const) {
  const f = await runQa(items, { answer: opts });
  const u = await runQa(no, { answer: opts });
  console.log(`${name}: ranked top-1 ${f.rankedTop1.toFixed(3)} top-3 ${f.top3.toFixed(3)} answered top-1 ${f.top1.toFixed(3)} wrong ${f.wrong.toFixed(3)} answered ${f.answered.toFixed(3)} hedged ${f.hedged.toFixed(3)} / ${f.hedgedRight.toFixed(3)} · unanswerable answered ${u.answered.toFixed(3)} (${Math.round(u.answered * u.n)} of ${u.n})`);
}
