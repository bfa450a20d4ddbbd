import { createAnswerer, createRetriever } from '../../../core/retrieval/index.js';
import { buildCorpus, loadAllLanguages } from '../../../core/text/index.js';
import { pageItems, squadItems } from '../qa-data.js';
import { containsAny } from '../qa-metrics.js';
import { expectedAnswer } from '../../../core/retrieval/answer-type.js';
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
    const top = cands[0]!.sentence;
    const ok = (s: number) => s >= 0 && s < sents.length && containsAny(sents[s]!.text, it.answers);
    const typed = expectedAnswer(q.words) ? 'typed' : 'untyped';
    const topOk = ok(top);
    const nextOk = ok(top + 1) && sents[top + 1]!.paragraph === sents[top]!.paragraph;
    const prevOk = ok(top - 1) && sents[top - 1]!.paragraph === sents[top]!.paragraph;
    inc(`${typed} top ${topOk ? 'ok' : 'bad'}${!topOk && nextOk ? ' next-ok' : ''}${!topOk && prevOk ? ' prev-ok' : ''}${topOk && nextOk ? ' (next also ok)' : ''}`);
    if (!topOk && !nextOk && !prevOk) {
      // is top+1 a candidate and what is its rank
    }
  }
  console.log(which, c);
}
