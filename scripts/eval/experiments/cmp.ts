import { loadAllLanguages } from '../../../core/text/index.js';
import { pageItems } from '../qa-data.js';
import { runQa, type QaTrace } from '../qa-run.js';
await loadAllLanguages();
const items = await pageItems('dev');
const run = async (o: object) => { const t: QaTrace[] = []; await runQa(items, { answer: o, onTrace: (x) => t.push(x) }); return t; };
const a = await run(JSON.parse(process.argv[2]!)); const b = await run(JSON.parse(process.argv[3]!));
for (let i = 0; i < a.length; i++) {
  const x = a[i]!, y = b[i]!;
  const sx = `${x.rankedTop1 ? 'R' : '-'}${x.top1 ? 'T' : '-'}${x.wrong ? 'W' : '-'}${x.outcome.ok ? 'A' : '-'}`;
  const sy = `${y.rankedTop1 ? 'R' : '-'}${y.top1 ? 'T' : '-'}${y.wrong ? 'W' : '-'}${y.outcome.ok ? 'A' : '-'}`;
  if (sx !== sy) {
    const conf = (o: QaTrace['outcome']) => (o.ok ? o.value.confidence : o.confidence ?? 0).toFixed(2);
    console.log(`${sx} -> ${sy} conf ${conf(x.outcome)} -> ${conf(y.outcome)} | ${x.item.question} | gold ${x.item.answers[0]}`);
    console.log(`   before: ${(x.outcome.ok ? x.outcome.value.text : x.outcome.sentences[0]?.text ?? '').slice(0, 200)}`);
    console.log(`   after:  ${(y.outcome.ok ? y.outcome.value.text : y.outcome.sentences[0]?.text ?? '').slice(0, 200)}`);
  }
}
