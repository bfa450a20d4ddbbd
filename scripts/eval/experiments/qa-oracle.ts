// Session 9 scratch: upper bounds on the development halves — top-1 if a perfect chooser could pick between the
// first sentence and its neighbours in the same paragraph (the "answer after the restatement" class), and the share
// of questions whose gold sentence shares no content word with the question (the vocabulary class).
import { loadAllLanguages } from '../../../core/text/index.js';
import { pageAnswerers } from './page-answerers.js';
import { pageItems, squadItems } from '../qa-data.js';
import { containsAny } from '../qa-metrics.js';
await loadAllLanguages();
for (const [name, items] of [['real pages dev', await pageItems('dev')], ['SQuAD tune', squadItems('tune')]] as const) {
  const answererFor = pageAnswerers();
  let r1 = 0, nb = 0, none = 0, n = 0;
  for (const it of items) {
    const r = answererFor(it).ranker;
    const sents = r.retriever.corpus.sentences;
    const q = r.retriever.analyze(it.question);
    const top = r.rank(q, 1)[0];
    n++;
    if (!top) continue;
    const ok = (i: number): boolean => i >= 0 && i < sents.length && sents[i]!.paragraph === sents[top.sentence]!.paragraph && containsAny(sents[i]!.text, it.answers);
    if (containsAny(top.text, it.answers)) { r1++; nb++; continue; }
    if (ok(top.sentence - 1) || ok(top.sentence + 1)) nb++;
    const golds = sents.map((s, i) => (containsAny(s.text, it.answers) ? i : -1)).filter((i) => i >= 0);
    const qt = new Set(q.terms);
    if (golds.length > 0 && golds.every((g) => !Array.from(sents[g]!.terms).some((t) => qt.has(t)))) none++;
  }
  console.log(`${name}: ranked top-1 ${(r1 / n).toFixed(3)}; with a perfect choice between it and its paragraph neighbours ${(nb / n).toFixed(3)}; misses whose every gold sentence shares no question term ${none} of ${n - r1}`);
}
