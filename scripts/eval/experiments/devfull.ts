import { loadAllLanguages } from '../../../core/text/index.js';
import { pageItems, squadItems } from '../qa-data.js';
import { runQa } from '../qa-run.js';
await loadAllLanguages();
const sets = [['dev', await pageItems('dev')], ['tune', squadItems('tune')]] as const;
for (const arg of process.argv.slice(2)) for (const path of ['page', 'sources'] as const) for (const [n, items] of sets) {
  const f = await runQa(items, { path, answer: JSON.parse(arg) });
  console.log(arg, path, n, `ranked ${f.rankedTop1.toFixed(3)} top3 ${f.top3.toFixed(3)} answeredTop1 ${f.top1.toFixed(3)} wrong ${f.wrong.toFixed(3)} answered ${f.answered.toFixed(3)} hedged ${f.hedged.toFixed(3)}/${f.hedgedRight.toFixed(3)}`);
}
