import { loadAllLanguages, detectPagesLanguage } from '../../../core/text/index.js';
import { pageItems } from '../qa-data.js';
import { runQa } from '../qa-run.js';
await loadAllLanguages();
const items = await pageItems('dev');
const by: Record<string, [number, number]> = {};
const opts = JSON.parse(process.argv[2] ?? '{}');
await runQa(items, { retriever: JSON.parse(process.argv[3] ?? '{}'), answer: { ...opts, minConfidence: 0 }, onTrace: (t) => {
  const p = typeof t.item.page === 'string' ? { url: '', title: '', text: t.item.page } : t.item.page;
  const l = detectPagesLanguage([p]);
  by[l] ??= [0, 0]; by[l][1]++; if (t.rankedTop1) by[l][0]++;
} });
console.log(by);
