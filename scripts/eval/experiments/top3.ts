import { createAnswerer, createRetriever } from '../../../core/retrieval/index.js';
import { buildCorpus, loadAllLanguages } from '../../../core/text/index.js';
import { pageItems, squadItems } from '../qa-data.js';
import { containsAny } from '../qa-metrics.js';
await loadAllLanguages();
const opts = JSON.parse(process.argv[2] ?? '{}');
for (const which of ['dev', 'tune']) {
  const items = which === 'dev' ? await pageItems('dev') : squadItems('tune');
  const cache = new Map<string, ReturnType<typeof createAnswerer>>();
  const hits = [0, 0, 0, 0, 0];
  for (const it of items) {
    const page = typeof it.page === 'string' ? { url: 'x', title: '', text: it.page } : it.page;
    let a = cache.get(page.url + page.text.length);
    if (!a) { a = createAnswerer(createRetriever(buildCorpus([page])), opts); cache.set(page.url + page.text.length, a); }
    const r = a.ranker; const sents = r.retriever.corpus.sentences;
    const q = r.retriever.analyze(it.question);
    const cands = r.candidates(q, 30).map((c) => c.sentence);
    if (!cands.length) continue;
    const ok = (s: number) => s >= 0 && s < sents.length && containsAny(sents[s]!.text, it.answers);
    const top = cands[0]!;
    const isAns = (s: number) => s >= 0 && s < sents.length && (r.roles[s] === 'sentence' || r.roles[s] === 'row') && sents[s]!.paragraph === sents[top]!.paragraph;
    const nb = [top + 1, top - 1].filter(isAns);
    const v0 = cands.slice(0, 3);
    const v1 = [...new Set([top, cands[1], ...nb.slice(0, 1), ...cands.slice(2)])].filter((x) => x !== undefined).slice(0, 3) as number[];
    const v2 = [...new Set([top, ...nb.slice(0, 1), ...cands.slice(1)])].slice(0, 3);
    const v3 = cands.slice(0, 4);
    const v4 = [...new Set([top, cands[1]!, ...nb, ...cands.slice(2)])].filter((x) => x !== undefined).slice(0, 4) as number[];
    [v0, v1, v2, v3, v4].forEach((v, i) => { if (v.some(ok)) hits[i]!++; });
  }
  console.log(which, hits.map((h) => (h / items.length).toFixed(3)).join(' '), '(top3, top2+next, top1+next+top2, top4, top2+both nb)');
}
