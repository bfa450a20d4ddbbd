/**
 * `npx tsx scripts/eval/grounding-report.ts [--quick]` prints the grounding gate's figures of docs/grounding.md:
 * the product gate and each idea switched off (ablations) on the real-page set (development and held-out halves,
 * eval/pages) and on SQuAD 2.0 (tuning and held-out halves, as scripts/eval/build-squad-cases.ts pairs them), and
 * the naive word-overlap baseline of ../shared/eval/README.md ("≥ k shared content words, ignoring words in ≥ p %
 * of documents") at its best settings — chosen on the development/tuning half, reported on the held-out half.
 * Everything is computed in-process from the shared data; nothing is read from earlier runs. `--quick` skips
 * the baseline sweep. `--remote` prints instead the product gate as the default remote path decides it (the SDK's
 * selected sources, gated by the server: scripts/eval/remote-gate.ts) beside the gate over whole pages, on the
 * four halves; `--remote --without a,b` adds each named idea (a GroundingOptions flag) switched off, whole page and
 * remote path, and all of them off together.
 */
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkGrounding, type GroundingOptions } from '../../core/grounding/index.js';
import { loadAllLanguages, prepareCorpus, resourcesFor, tokenize, type Corpus } from '../../core/text/index.js';
import { loadPageCases } from './build-pages-cases.js';
import { loadSquad } from './build-squad-cases.js';
import { remoteGate } from './remote-gate.js';
import { rng } from './rng.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shared = join(root, '..', 'shared', 'eval');

export interface GateCase { readonly corpus: Corpus; readonly text: string; readonly question: string; readonly expect: 'answer' | 'refuse'; readonly kind: string }

export interface Rates { n: number; balanced: number; frr: number; far: number; byKind: Record<string, number> }

export function rates(cases: readonly GateCase[], decide: (c: GateCase) => boolean): Rates {
  let an = 0, ar = 0, rn = 0, ra = 0;
  const kinds: Record<string, [number, number]> = {};
  for (const c of cases) {
    const pass = decide(c);
    const k = (kinds[c.kind] ??= [0, 0]);
    k[0]++; if (pass) k[1]++;
    if (c.expect === 'answer') { an++; if (!pass) ar++; } else { rn++; if (pass) ra++; }
  }
  const frr = an ? ar / an : 0, far = rn ? ra / rn : 0;
  return { n: cases.length, balanced: 1 - (frr + far) / 2, frr, far, byKind: Object.fromEntries(Object.entries(kinds).map(([k, [n, p]]) => [k, p / n])) };
}

/** Gate cases from a questions file on the shared pages, each page a one-page corpus (as the SDK builds it). */
export async function casesFrom(questions: string, split?: 'dev' | 'heldout'): Promise<GateCase[]> {
  const cs = loadPageCases(join(shared, 'pages'), questions).filter((c) => split === undefined || c.split === split);
  const corpora = new Map<string, Corpus>();
  const out: GateCase[] = [];
  for (const c of cs) {
    let corpus = corpora.get(c.case);
    if (!corpus) { corpus = await prepareCorpus([{ url: `eval:${c.case}`, title: c.title, text: c.page }]); corpora.set(c.case, corpus); }
    out.push({ corpus, text: `${c.title}\n\n${c.page}`, question: c.question, expect: c.kind === 'answerable' || c.kind === 'page' ? 'answer' : 'refuse', kind: c.kind });
  }
  return out;
}

/** The real-page cases of one half. */
export function pageCases(split: 'dev' | 'heldout'): Promise<GateCase[]> {
  return casesFrom(join(root, 'eval', 'pages', 'questions.txt'), split);
}

/**
 * Session 9's extra development questions (scripts/eval/experiments/gate-extra-questions.txt: 128 questions over 14
 * Readability pages that eval/pages/questions.txt does not use). Development only.
 */
export function extraCases(): Promise<GateCase[]> {
  return casesFrom(join(root, 'scripts', 'eval', 'experiments', 'gate-extra-questions.txt'));
}

/**
 * Session 10's second batch (scripts/eval/experiments/gate-extra2-questions.txt: 89 questions over 9 more unused
 * Readability pages, committed before any gate ran on them). Development only.
 */
export function extra2Cases(): Promise<GateCase[]> {
  return casesFrom(join(root, 'scripts', 'eval', 'experiments', 'gate-extra2-questions.txt'));
}

/** SQuAD's cases of one half: each answerable question against its article, and against one other (fixed seed). */
export async function squadCases(half: 'tune' | 'heldout'): Promise<GateCase[]> {
  const arts = loadSquad(join(shared, 'squad', 'dev-v2.0.cs224n-half.json')).filter((_, i) => i % 2 === (half === 'tune' ? 0 : 1));
  const corpora = await Promise.all(arts.map((a) => prepareCorpus([{ url: 'eval:page', title: '', text: a.page }])));
  const rnd = rng(20240601); // as build-squad-cases.ts
  const out: GateCase[] = [];
  arts.forEach((a, i) => {
    for (const q of a.questions) {
      out.push({ corpus: corpora[i]!, text: a.page, question: q.question, expect: 'answer', kind: 'own article' });
      const others = arts.map((_, j) => j).filter((j) => j !== i);
      const j = others.splice(Math.floor(rnd() * others.length), 1)[0]!;
      out.push({ corpus: corpora[j]!, text: arts[j]!.page, question: q.question, expect: 'refuse', kind: 'other article' });
    }
  });
  return out;
}

/**
 * The naive gate of ../shared/eval/README.md: the question's content words (Kit's tokeniser, the page language's
 * stopwords and question words, no stemming) found in the page; words in at least `maxDf` of the documents (the
 * set's paragraphs, or its pages/articles — counted over `docs`, by default the cases' own pages; the report counts
 * them over both halves, as the README counts them over all its articles: no labels are read) are ignored; passes
 * with at least `k` shared words.
 */
export function naiveGate(cases: readonly GateCase[], k: number, maxDf: number, unit: 'paragraph' | 'page' = 'paragraph', docs: readonly GateCase[] = cases): (c: GateCase) => boolean {
  const paragraphs = new Set<string>();
  for (const c of docs) {
    if (unit === 'page') paragraphs.add(c.text);
    else for (const p of c.text.split(/\n\s*\n/)) if (p.trim()) paragraphs.add(p);
  }
  const df = new Map<string, number>();
  for (const p of paragraphs) for (const w of new Set(tokenize(p))) df.set(w, (df.get(w) ?? 0) + 1);
  const limit = maxDf * paragraphs.size;
  const vocab = new Map<string, Set<string>>();
  return (c) => {
    let v = vocab.get(c.text);
    if (!v) { v = new Set(tokenize(c.text)); vocab.set(c.text, v); }
    const stop = resourcesFor(c.corpus.language);
    let shared = 0;
    for (const w of new Set(tokenize(c.question))) {
      if (stop.isStopword(w) || (df.get(w) ?? 0) >= limit) continue;
      if (v.has(w)) shared++;
    }
    return shared >= k;
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
const row = (name: string, r: Rates): string => `| ${name} | ${r.balanced.toFixed(3)} | ${pct(r.frr)} | ${pct(r.far)} | ${Object.entries(r.byKind).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(' · ')} |`;

export const VARIANTS: Record<string, GroundingOptions> = {
  'Kit gate (default)': {},
  '− page-self phrasings': { selfPhrasings: false },
  '− answerability (types + coverage)': { answerability: false, minCoverage: 0 },
  '− coverage (answer types only)': { minCoverage: 0 },
  '− centrality (coverage by rarity alone)': { centralityPower: 0 },
  '− two-passage window': { window: 1 },
  '− how-to action in a sentence with the question\'s words': { actionInSentence: false },
  '− model numbers ("Quest 3" needs "Quest 3" on the page; "PS5" on it)': { modelNumbers: false },
  '− things asked for (recipe, tickets, visa) written where the words meet': { askedThings: false },
  '− the present / the next occurrence ("right now", "next game") spoken of': { currentTime: false },
  '− phrasal verbs ("turn off" = "disable")': { phrasalVerbs: false },
  '− definition questions ("what does the word X mean")': { definitions: false },
  '− a visitor\'s how-to answered by instructions (you / steps / the imperative; English)': { instructions: false },
  '− names in a mostly capitalised question with a lower-case word ("Who captured Fort Beausejour?")': { titleCase: false },
  '− a whole question of common words met in one window passes on weak evidence (contact questions only)': { wholeQuestion: false },
  'session 8\'s gate (session 9\'s three options off; the why-question, measure-word and about-verb corrections stay)': { shortQuestions: false, instructionSentence: false, mannerNotPrice: false, pageDeictic: false, lightVerbs: false, kindInSentence: false },
  '− a word pointing at the page with one common word ("what is being advertised here?"; session 9)': { pageDeictic: false },
  '− a how-to\'s light verb only frames it ("how do I get my bookmarks"; session 9)': { lightVerbs: false },
  '− a price or opening hours asked for in a sentence with a question word (session 9)': { kindInSentence: false },
  'session 9\'s gate (session 10\'s three options off)': { shortQuestions: false, instructionSentence: false, mannerNotPrice: false },
  '− a short question of common words needs two words\' worth of evidence, 4 nats (session 10)': { shortQuestions: false },
  '− a how-to\'s action in a sentence that reads as instructions or gives a method (session 10)': { instructionSentence: false },
  '− "how do people pay?" asks for a manner, not a price (session 10)': { mannerNotPrice: false },
  'previous gate (none of the above)': { shortQuestions: false, instructionSentence: false, mannerNotPrice: false, pageDeictic: false, lightVerbs: false, kindInSentence: false, selfPhrasings: false, answerability: false, minCoverage: 0, modelNumbers: false, askedThings: false, currentTime: false, phrasalVerbs: false, definitions: false, instructions: false, titleCase: false, wholeQuestion: false },
};

/** The verdicts of the remote path (the SDK's selected sources gated by the server), one per case. */
export async function remoteVerdicts(cases: readonly GateCase[], options: GroundingOptions = {}): Promise<Map<GateCase, boolean>> {
  const gate = remoteGate();
  const out = new Map<GateCase, boolean>();
  for (const c of cases) out.set(c, (await gate.check(c.corpus, c.question, options)).grounded);
  return out;
}

async function remoteReport(): Promise<void> {
  const halves: [string, GateCase[]][] = [
    ['real pages, development', await pageCases('dev')],
    ['real pages, held-out', await pageCases('heldout')],
    ['SQuAD 2.0, tuning', await squadCases('tune')],
    ['SQuAD 2.0, held-out', await squadCases('heldout')],
  ];
  console.log('| set | gate over | balanced accuracy | false refusals | off-topic accepted | passed, by kind |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, cases] of halves) {
    const whole = rates(cases, (c) => checkGrounding(c.corpus, c.question).grounded);
    const remote = await remoteVerdicts(cases);
    const sent = rates(cases, (c) => remote.get(c)!);
    console.log(row(`${name} (${cases.length}) | whole page (local gate)`, whole));
    console.log(row(`${name} (${cases.length}) | selected sources (remote: POST /v1/chat)`, sent));
    // `--without a,b`: each named idea (a boolean GroundingOptions key) switched off, whole page and remote path;
    // then all of them off together.
    const sets: [string, GroundingOptions][] = without.map((idea) => [idea, { [idea]: false } as GroundingOptions]);
    if (without.length > 1) sets.push([without.join(' + '), Object.fromEntries(without.map((i) => [i, false])) as GroundingOptions]);
    for (const [label, opts] of sets) {
      console.log(row(`${name} (${cases.length}) | whole page, − ${label}`, rates(cases, (c) => checkGrounding(c.corpus, c.question, opts).grounded)));
      const off = await remoteVerdicts(cases, opts);
      console.log(row(`${name} (${cases.length}) | selected sources, − ${label}`, rates(cases, (c) => off.get(c)!)));
    }
  }
}
const without = (() => { const i = process.argv.indexOf('--without'); return i < 0 ? [] : (process.argv[i + 1] ?? '').split(',').filter(Boolean); })();

async function main(): Promise<void> {
  await loadAllLanguages();
  if (process.argv.includes('--remote')) return remoteReport();
  const sets: [string, GateCase[], GateCase[]][] = [
    ['real pages', await pageCases('dev'), await pageCases('heldout')],
    ['SQuAD 2.0', await squadCases('tune'), await squadCases('heldout')],
  ];
  for (const [name, dev, held] of sets) {
    const devName = name === 'SQuAD 2.0' ? 'tuning' : 'development';
    console.log(`\n### ${name}: held-out half (${held.length} cases), then ${devName} half (${dev.length})\n`);
    console.log('| gate | balanced accuracy | false refusals | off-topic accepted | passed, by kind |');
    console.log('|---|---|---|---|---|');
    for (const [label, opts] of Object.entries(VARIANTS)) console.log(row(`${label} — held-out`, rates(held, (c) => checkGrounding(c.corpus, c.question, opts).grounded)));
    for (const [label, opts] of Object.entries(VARIANTS)) console.log(row(`${label} — ${devName}`, rates(dev, (c) => checkGrounding(c.corpus, c.question, opts).grounded)));
    if (process.argv.includes('--quick')) continue;
    // Baseline at its best settings on the development half.
    const all = [...dev, ...held];
    let best: { k: number; p: number; unit: 'paragraph' | 'page'; r: Rates } | null = null;
    for (const unit of ['paragraph', 'page'] as const) for (const k of [1, 2, 3, 4]) for (const p of [0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 1.01]) {
      const r = rates(dev, naiveGate(dev, k, p, unit, all));
      if (best === null || r.balanced > best.r.balanced) best = { k, p, unit, r };
    }
    const readme = rates(held, naiveGate(held, 2, 0.1, 'page', all));
    const unitName = best!.unit === 'page' ? (name === 'SQuAD 2.0' ? 'articles' : 'pages') : 'paragraphs';
    console.log(row(`naive overlap, best on ${devName} (≥ ${best!.k} words, ignoring words in ≥ ${Math.round(best!.p * 100)} % of ${unitName}) — held-out`, rates(held, naiveGate(held, best!.k, best!.p, best!.unit, all))));
    console.log(row(`same — ${devName}`, best!.r));
    console.log(row(`naive overlap, README setting (≥ 2, ignoring words in ≥ 10 % of ${name === 'SQuAD 2.0' ? 'articles' : 'pages'}) — held-out`, readme));
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
