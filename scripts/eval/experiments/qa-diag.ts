// Session 9 scratch: dev failures of the ranking (real pages dev only; SQuAD tune).
import { detectPagesLanguage, loadAllLanguages } from '../../../core/text/index.js';
import { pageAnswerers } from './page-answerers.js';
import { pageItems, squadItems } from '../qa-data.js';
import { containsAny } from '../qa-metrics.js';
await loadAllLanguages();
const which = process.argv[2] ?? 'dev';
const items = which === 'dev' ? await pageItems('dev') : squadItems('tune');
const answererFor = pageAnswerers(JSON.parse(process.env.RET ?? "{}"), JSON.parse(process.env.OPTS ?? "{}"));
const hist: Record<string, number> = {};
let shown = 0;
for (const it of items) {
  const r = answererFor(it).ranker;
  const q = r.retriever.analyze(it.question);
  const cands = r.candidates(q, 400);
  const sents = r.retriever.corpus.sentences;
  const goldIdx = sents.map((s, i) => (containsAny(s.text, it.answers) ? i : -1)).filter((i) => i >= 0);
  const rank = cands.findIndex((c) => containsAny(sents[c.sentence]!.text, it.answers));
  const key = goldIdx.length === 0 ? 'no-sentence' : rank < 0 ? 'not-cand' : rank === 0 ? '1' : rank < 3 ? '2-3' : rank < 10 ? '4-10' : '>10';
  hist[key] = (hist[key] ?? 0) + 1;
  if (rank !== 0 && shown < 400 && process.argv[3] !== 'quiet') {
    shown++;
    console.log(`\n[${key}] ${it.source} Q: ${it.question}  || gold: ${it.answers.join(' | ')}`);
    console.log(`  qterms: ${q.terms.map((t, i) => `${r.retriever.corpus.terms?.[t] ?? t}:${q.weights[i]!.toFixed(2)}`).join(' ')} words=${q.words.join(' ')}`);
    for (const c of cands.slice(0, 2)) console.log(`  TOP ${c.score.toFixed(2)} [${r.roles[c.sentence]}] ${sents[c.sentence]!.text.slice(0, 220)}`);
    for (const g of goldIdx.slice(0, 2)) {
      const c = cands.find((x) => x.sentence === g);
      console.log(`  GOLD rank=${c ? cands.indexOf(c) : -1} ${c ? c.score.toFixed(2) + ' f=' + c.first.map((x) => x.toFixed(1)).join(',') + ' s=' + c.second.map((x) => x.toFixed(2)).join(',') : ''} [${r.roles[g]}] ${sents[g]!.text.slice(0, 300)}`);
      if (g > 0) console.log(`     prev: ${sents[g - 1]!.text.slice(0, 160)}`);
    }
  }
}
console.log(hist, items.length);
