import { createAnswerer, createRetriever } from '../../../core/retrieval/index.js';
import { buildCorpus, loadAllLanguages } from '../../../core/text/index.js';
import { pageItems, squadItems } from '../qa-data.js';
import { containsAny } from '../qa-metrics.js';
import { expectedAnswer, answerMatches } from '../../../core/retrieval/answer-type.js';
await loadAllLanguages();
for (const which of ['dev', 'tune']) {
  const items = which === 'dev' ? await pageItems('dev') : squadItems('tune');
  const cache = new Map<string, ReturnType<typeof createAnswerer>>();
  const c: Record<string, number> = {};
  const inc = (k: string) => { c[k] = (c[k] ?? 0) + 1; };
  for (const it of items) {
    const page = typeof it.page === 'string' ? { url: 'x', title: '', text: it.page } : it.page;
    let a = cache.get(page.url + page.text.length);
    if (!a) { a = createAnswerer(createRetriever(buildCorpus([page]))); cache.set(page.url + page.text.length, a); }
    const r = a.ranker; const sents = r.retriever.corpus.sentences;
    const q = r.retriever.analyze(it.question);
    const cands = r.candidates(q, 30);
    if (!cands.length) continue;
    const intent = expectedAnswer(q.words);
    if (!intent || intent.type === 'yesno') continue;
    const top = cands[0]!.sentence;
    const ok = (s: number) => s >= 0 && s < sents.length && containsAny(sents[s]!.text, it.answers);
    const tm = (s: number) => s >= 0 && s < sents.length && sents[s]!.paragraph === sents[top]!.paragraph && answerMatches(intent, sents[s]!.text, q.words);
    const key = `${ok(top) ? 'TOPOK' : ok(top + 1) ? 'NEXTOK' : ok(top - 1) ? 'PREVOK' : 'other'} topType=${+tm(top)} prevType=${+tm(top - 1)} nextType=${+tm(top + 1)}`;
    inc(key);
  }
  console.log(which, Object.entries(c).sort());
}
