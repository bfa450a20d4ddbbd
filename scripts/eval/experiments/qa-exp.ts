// Session 9 scratch: ranked top-1 / top-3 / wrong(always answering) on real pages dev and SQuAD tune for option variants given as JSON.
import { loadAllLanguages } from '../../../core/text/index.js';
import { pageItems, squadItems } from '../qa-data.js';
import { runQa } from '../qa-run.js';
await loadAllLanguages();
const sets = [['dev', await pageItems('dev')], ['tune', squadItems('tune')]] as const;
for (const arg of process.argv.slice(2)) {
  const [opts, ret] = JSON.parse(arg) as [Record<string, unknown>, Record<string, unknown>?];
  const cells: string[] = [];
  for (const [, items] of sets) {
    const f = await runQa(items, { answer: { ...opts, minConfidence: 0 }, retriever: ret });
    cells.push(`${f.rankedTop1.toFixed(3)} / ${f.top3.toFixed(3)} / ${f.wrong.toFixed(3)}`);
  }
  console.log(`${arg.padEnd(50)} dev ${cells[0]} | tune ${cells[1]}`);
}
