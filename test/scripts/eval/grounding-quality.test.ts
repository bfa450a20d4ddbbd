import { SHARED_EVAL } from '../../../scripts/eval/qa-data.js';
import { existsSync } from 'node:fs';
import { expect } from 'chai';
import { checkGrounding } from '../../../core/grounding/index.js';
import { loadAllLanguages } from '../../../core/text/index.js';
import { loadPageCases, parseQuestions } from '../../../scripts/eval/build-pages-cases.js';
import { extraCases, extra2Cases, pageCases, rates, remoteVerdicts, squadCases, type GateCase } from '../../../scripts/eval/grounding-report.js';
import { validCases } from '../../../scripts/eval/experiments/gate-valid.js';

// The grounding eval guarded in CI (issue 16.6): the product gate on the held-out halves of the real-page set
// (eval/pages, 259 questions over 27 pages) and of SQuAD 2.0 (3,222 decisions over 8 articles), a few seconds.
// SQuAD's floors are the goals of docs/grounding.md (balanced accuracy ≥ 0.92, false refusals ≤ 4 %, off-topic
// accepted ≤ 12 %). On real pages held-out the goals are NOT met (docs/grounding.md: 0.883 / 7.3 % / 16.0 % when the
// floors were first set; 0.902 / 7.3 % / 12.3 % whole page and 0.914 / 6.2 % / 11.1 % via the sources in session 9,
// when balanced accuracy's floor was raised 0.86 → 0.88 and off-topic accepted's 18 → 16 %): the floors there are the
// measured level less a margin of about two points (two questions), so that a change making the gate worse on real
// pages fails here. The development half (the gate was tuned on it, so its figures are no quality claim) is held
// to the goals as a regression guard.
const GOAL = { balanced: 0.92, frr: 0.04, far: 0.12 };
const REAL_PAGES_FLOOR = { balanced: 0.88, frr: 0.095, far: 0.16 };

describe('grounding quality (held-out halves)', function () {
  // The third-party evaluation data lives beside the project (../shared/eval, or KIT_SHARED_EVAL), not in it: a clone
  // without it skips these suites and says so, as the redaction suites do.
  before(function () {
    if (!existsSync(SHARED_EVAL)) {
      console.log(`      skipped: no evaluation data at ${SHARED_EVAL}`);
      this.skip();
    }
  });

  this.timeout(60_000);
  let pages: GateCase[];
  let dev: GateCase[];
  let squad: GateCase[];
  before(async () => {
    await loadAllLanguages();
    pages = await pageCases('heldout');
    dev = await pageCases('dev');
    squad = await squadCases('heldout');
  });

  it(`meets the goals on SQuAD 2.0 held-out: balanced accuracy ≥ ${GOAL.balanced}, false refusals ≤ 4 %, off-topic accepted ≤ 12 %`, () => {
    const r = rates(squad, (c) => checkGrounding(c.corpus, c.question).grounded);
    expect(r.n).to.equal(3222);
    expect(r.balanced).to.be.at.least(GOAL.balanced);
    expect(r.frr).to.be.at.most(GOAL.frr);
    expect(r.far).to.be.at.most(GOAL.far);
  });

  it('holds its measured level on real pages held-out (below the goals: see docs/grounding.md)', () => {
    const r = rates(pages, (c) => checkGrounding(c.corpus, c.question).grounded);
    expect(r.n).to.equal(259);
    expect(r.balanced).to.be.at.least(REAL_PAGES_FLOOR.balanced);
    expect(r.frr).to.be.at.most(REAL_PAGES_FLOOR.frr);
    expect(r.far).to.be.at.most(REAL_PAGES_FLOOR.far);
    // Far off-topic questions are refused on every page.
    expect(r.byKind['far']).to.be.at.most(0.05);
  });

  // The default remote path: the SDK's selected sources (6 passages, 12,000 characters) gated by POST /v1/chat over
  // those sources alone (scripts/eval/remote-gate.ts). Each posted source is a one-passage page on the server; before
  // centrality skipped one-passage pages, SQuAD held-out refused 8.7 % of answerable questions here.
  it(`meets the goals on SQuAD 2.0 held-out as the remote path decides (the SDK's sources, gated by the server)`, async () => {
    const remote = await remoteVerdicts(squad);
    const r = rates(squad, (c) => remote.get(c)!);
    expect(r.balanced).to.be.at.least(GOAL.balanced);
    expect(r.frr).to.be.at.most(GOAL.frr);
    expect(r.far).to.be.at.most(GOAL.far);
  });

  it('holds the real pages\' measured level on held-out as the remote path decides', async () => {
    const remote = await remoteVerdicts(pages);
    const r = rates(pages, (c) => remote.get(c)!);
    expect(r.balanced).to.be.at.least(REAL_PAGES_FLOOR.balanced);
    expect(r.frr).to.be.at.most(REAL_PAGES_FLOOR.frr);
    expect(r.far).to.be.at.most(REAL_PAGES_FLOOR.far);
    expect(r.byKind['far']).to.be.at.most(0.05);
  });

  // Session 9's extra development questions (128 over 14 pages questions.txt does not use; written before any gate
  // ran on them, then used to choose session 9's rules, so no quality claim either): measured 0.870 / 11.6 % / 14.3 %
  // whole page and 0.911 / 5.8 % / 11.9 % via the sources when set; the floors are about two points below.
  it('holds the extra development questions\' measured level, whole page and via the sources (a regression guard)', async () => {
    // Raised in session 10 (measured 0.894 / 9.3 % / 11.9 % whole page after its rules): 0.85 → 0.87, 14 → 12 %.
    await holdsFloors(await extraCases(), 128, { balanced: 0.87, frr: 0.12, far: 0.17 }, { balanced: 0.89, frr: 0.085, far: 0.145 });
  });

  // Session 10's second batch (89 questions over 9 more unused pages, committed before any gate ran on them; its
  // failures then read to choose session 10's rules, so no quality claim): measured 0.910 / 3.2 % / 14.8 % whole page
  // and 0.904 / 8.1 % / 11.1 % via the sources; the floors are about two questions below. Raised in session 12 (its
  // page-self words: 0.918 / 1.6 % / 14.8 % whole page, 0.912 / 6.5 % / 11.1 % via the sources): false refusals 6.5 →
  // 5 % whole page, 11.5 → 10 % via the sources.
  it('holds the second batch of extra development questions\' measured level, whole page and via the sources (a regression guard)', async () => {
    await holdsFloors(await extra2Cases(), 89, { balanced: 0.87, frr: 0.05, far: 0.225 }, { balanced: 0.86, frr: 0.10, far: 0.19 });
  });

  // Session 11's validation batch (115 questions over 11 more unused pages, committed before any gate ran on them and
  // scored once, unchanged, as the out-of-sample estimate; no rule was chosen on it): measured 0.848 / 12.2 % / 18.2 %
  // whole page and 0.882 / 8.5 % / 15.2 % via the sources; the floors are about two questions below. Not a goal: the
  // level a change must not fall under on questions it was not written for.
  it('holds the validation batch\'s measured level, whole page and via the sources (a regression guard)', async () => {
    await holdsFloors(await validCases(), 115, { balanced: 0.83, frr: 0.145, far: 0.22 }, { balanced: 0.86, frr: 0.11, far: 0.19 });
  });

  it('meets the goals on the real pages\' development half (tuned there: a regression guard, not a quality figure)', () => {
    const r = rates(dev, (c) => checkGrounding(c.corpus, c.question).grounded);
    expect(r.n).to.equal(264);
    expect(r.balanced).to.be.at.least(GOAL.balanced);
    expect(r.frr).to.be.at.most(GOAL.frr);
    expect(r.far).to.be.at.most(GOAL.far);
  });
});

describe('real-page question file', () => {
  // The third-party evaluation data lives beside the project (../shared/eval, or KIT_SHARED_EVAL), not in it: a clone
  // without it skips these suites and says so, as the redaction suites do.
  before(function () {
    if (!existsSync(SHARED_EVAL)) {
      console.log(`      skipped: no evaluation data at ${SHARED_EVAL}`);
      this.skip();
    }
  });

  it('parses kinds and gold answers, and rejects off-topic questions with answers', () => {
    const pages = parseQuestions('@ p\na: How much? => $5 || five dollars\ns: Who wrote it?\nn: Opening hours?\nf: Weather?\n');
    expect(pages[0]!.questions.map((q) => q.kind)).to.deep.equal(['answerable', 'page', 'near_miss', 'far']);
    expect(pages[0]!.questions[0]!.answers).to.deep.equal(['$5', 'five dollars']);
    expect(() => parseQuestions('@ p\nn: Opening hours? => 9am\n')).to.throw(/off-topic/);
    expect(() => parseQuestions('@ p\na: How much?\n')).to.throw(/gold answer/);
  });

  it('builds 523 questions over 55 pages, every gold answer found in its page', () => {
    const cases = loadPageCases('../shared/eval/pages', 'eval/pages/questions.txt');
    expect(cases).to.have.length(523);
    expect(new Set(cases.map((c) => c.case)).size).to.equal(55);
    expect(cases.filter((c) => c.split === 'dev')).to.have.length(264);
  });
});

interface Floors { readonly balanced: number; readonly frr: number; readonly far: number }

/** A development batch's regression guard: its size, then its floors whole page and via the sources (remote path). */
async function holdsFloors(cases: readonly GateCase[], count: number, whole: Floors, sent: Floors): Promise<void> {
  expect(cases.length).to.equal(count);
  const remote = await remoteVerdicts(cases);
  const paths: [string, Floors, ReturnType<typeof rates>][] = [
    ['whole page', whole, rates(cases, (c) => checkGrounding(c.corpus, c.question).grounded)],
    ['via the sources', sent, rates(cases, (c) => remote.get(c)!)],
  ];
  for (const [path, floor, measured] of paths) {
    expect(measured.balanced, `${path} balanced accuracy`).to.be.at.least(floor.balanced);
    expect(measured.frr, `${path} false refusals`).to.be.at.most(floor.frr);
    expect(measured.far, `${path} off-topic accepted`).to.be.at.most(floor.far);
  }
}
