import { loadAllLanguages } from '../../../core/text/index.js';
import { squadItems, pageItems } from '../qa-data.js';
import { runQa } from '../qa-run.js';
await loadAllLanguages();
const items = [...squadItems('tune'), ...(await pageItems('dev'))];
for (let r = 0; r < 3; r++) for (const arg of process.argv.slice(2)) {
  const f = await runQa(items, { answer: JSON.parse(arg) });
  console.log(arg, 'answer µs', f.answerUs.toFixed(0), 'ms/q', f.msPerQuestion.toFixed(3));
}
