/**
 * Grounding gate: decision time on a 100-page corpus (the 646 SQuAD paragraphs grouped into 100 pages, 540 kB),
 * Kit's checkGrounding beside (a) a plain word-overlap gate — a Set of the pages' lower-cased words minus English
 * stopwords, pass on ≥ 1 shared word (the shared data's reference baseline) — and (b) a MiniSearch query over the
 * same pages (pass when it returns a hit). Quality on the eval's setting in the same run: each article one page, its
 * answerable questions expected to pass, the same questions against every other article expected to be refused.
 * Times are process CPU time: the minimum over repeated passes within a round, rounds interleaved (Kit, the
 * references, the corpus build, then again), reported as the median and the range over the rounds with the
 * machine's load average, because re-runs on a shared machine vary. Also the gate's time per decision on the
 * real-page set (eval/pages, one-page corpora as the SDK builds them).
 * Run: npm run bench -- grounding  (BENCH_ROUNDS, default 7; writes .tmp/bench-core-text-grounding.md)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { pageCases } from '../scripts/eval/grounding-report.js';
import MiniSearch from 'minisearch';
import { stopwords } from '@orama/stopwords/english';
import { loadSquad } from '../scripts/eval/build-squad-cases.js';
import { buildCorpus, loadAllLanguages, type Corpus } from '../core/text/index.js';
import { checkGrounding } from '../core/grounding/index.js';
import { minCpuPass } from './support/cpu-time.js';

// A Node host: every language pack up front, so buildCorpus never meets a language in its fallback.
await loadAllLanguages();
const SHARED = resolve(process.env.KIT_SHARED_EVAL ?? '../shared/eval');
const file = join(SHARED, 'squad', 'dev-v2.0.cs224n-half.json');
const articles = loadSquad(file);
const raw = JSON.parse(readFileSync(file, 'utf8')) as { data: { title: string; paragraphs: { context: string }[] }[] };
const paragraphs = raw.data.flatMap((a) => a.paragraphs.map((p) => ({ title: a.title.replace(/_/g, ' '), text: p.context })));
const pages = Array.from({ length: 100 }, (_, i) => {
  const part = paragraphs.filter((_, k) => k % 100 === i);
  return { url: `https://wiki.example/page/${i}`, title: part[0]!.title, text: part.map((p) => p.text).join('\n\n') };
});
const questions = articles.flatMap((a) => a.questions.map((q) => q.question));

const minPass = (fn: () => void, budget = 2_000): number => minCpuPass(fn, budget);

// (a) The reference word-overlap gate.
const STOP = new Set(stopwords);
const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const overlapGate = (vocab: ReadonlySet<string>) => (q: string): boolean => words(q).some((w) => !STOP.has(w) && vocab.has(w));

const corpus = buildCorpus(pages);
const vocab = new Set(pages.flatMap((p) => words(p.title + ' ' + p.text)));
const gate = overlapGate(vocab);
const mini = new MiniSearch({ fields: ['title', 'text'] });
mini.addAll(pages.map((p, id) => ({ id, ...p })));

const perDecision = (fn: (q: string) => unknown, budget = 500): number => (minPass(() => { for (const q of questions) fn(q); }, budget) * 1000) / questions.length;
const real = [...await pageCases('dev'), ...await pageCases('heldout')];
const loadBefore = loadavg();
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 7));
const runs: Record<'kit' | 'overlap' | 'mini' | 'build' | 'real', number[]> = { kit: [], overlap: [], mini: [], build: [], real: [] };
for (let r = 0; r < rounds; r++) {
  runs.kit.push(perDecision((q) => checkGrounding(corpus, q)));
  runs.overlap.push(perDecision(gate, 200));
  runs.mini.push(perDecision((q) => mini.search(q).length > 0, 1_000));
  runs.build.push(minPass(() => { buildCorpus(pages); }, 500));
  runs.real.push((minPass(() => { for (const c of real) checkGrounding(c.corpus, c.question); }, 300) * 1000) / real.length);
}
const loadAfter = loadavg();
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };
const range = (xs: number[], d: number): string => `${f(median(xs), d)} (${f(Math.min(...xs), d)}–${f(Math.max(...xs), d)})`;
const usKit = median(runs.kit), usOverlap = median(runs.overlap), usMini = median(runs.mini);

// Quality, eval setting: every (question, article) pair.
const corpora: Corpus[] = articles.map((a) => buildCorpus([{ url: a.title, title: '', text: a.page }]));
const vocabs = articles.map((a) => new Set(words(a.page)));
function rates(pass: (article: number, q: string) => boolean): { ba: number; frr: number; far: number } {
  let on = 0, fr = 0, off = 0, fa = 0;
  articles.forEach((a, i) => {
    for (const { question } of a.questions) {
      for (let j = 0; j < articles.length; j++) {
        const ok = pass(j, question);
        if (i === j) { on++; if (!ok) fr++; } else { off++; if (ok) fa++; }
      }
    }
  });
  return { ba: 1 - (fr / on + fa / off) / 2, frr: fr / on, far: fa / off };
}
const qKit = rates((j, q) => checkGrounding(corpora[j]!, q).grounded);
const qOverlap = rates((j, q) => overlapGate(vocabs[j]!)(q));

const f = (x: number, d = 1): string => x.toFixed(d);
const pct = (x: number): string => `${f(x * 100)} %`;
const rows = [
  '| metric | Kit | reference | ratio |',
  '|---|---|---|---|',
  `| decision time, 100-page corpus, µs CPU per question (${questions.length}), median (range) of ${rounds} rounds | ${range(runs.kit, 1)} | word-overlap Set ${range(runs.overlap, 2)} / MiniSearch query ${range(runs.mini, 0)} | ${f(usKit / usOverlap, 1)}× slower / ${f(usMini / usKit, 1)}× faster |`,
  `| decision time, real pages (one-page corpora, ${real.length} questions of eval/pages), µs CPU per question | ${range(runs.real, 1)} | — | — |`,
  `| corpus build for the gate, 100 pages (540 kB), ms CPU | ${range(runs.build, 1)} | — | — |`,
  `| machine load average (1 min) before / after | ${f(loadBefore[0]!, 2)} / ${f(loadAfter[0]!, 2)} (2 cores) | — | — |`,
  `| balanced accuracy, min_matches 1, all ${articles.length * articles.length - articles.length} off-topic pairings | ${f(qKit.ba, 4)} | word-overlap ${f(qOverlap.ba, 4)} | +${f((qKit.ba - qOverlap.ba) * 100)} points |`,
  `| false refusals | ${pct(qKit.frr)} | ${pct(qOverlap.frr)} | — |`,
  `| off-topic accepted | ${pct(qKit.far)} | ${pct(qOverlap.far)} | — |`,
];
console.log(rows.join('\n'));
mkdirSync('.tmp', { recursive: true });
writeFileSync(join('.tmp', 'bench-core-text-grounding.md'), rows.join('\n') + '\n');
