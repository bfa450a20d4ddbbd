import { SHARED_EVAL } from '../../../scripts/eval/qa-data.js';
import { existsSync } from 'node:fs';
import { expect } from 'chai';
import { loadAllLanguages } from '../../../core/text/index.js';
import { containsAny, containsAnswer, exactMatch, tokenF1 } from '../../../scripts/eval/qa-metrics.js';
import { pageItems, squadItems, type LabelledItem } from '../../../scripts/eval/qa-data.js';
import { runQa } from '../../../scripts/eval/qa-run.js';

// The QA eval guarded in CI (issue 16.6): the product's extractive answerer on the held-out halves of SQuAD 2.0
// (1,611 questions over 8 articles) and of the real-page set (eval/pages, 151 questions over 27 pages), a few
// seconds. SQuAD's ranking floors are the goals of docs/eval.md (top-1 ≥ 0.78, top-3 ≥ 0.92). Everything else is
// NOT at its goal yet (docs/eval.md): those floors are the measured held-out level less a small margin, so that a
// change making the answerer worse fails here. `ranked` is the ranking alone; `answered top-1` counts a "couldn't
// find" (and a closest sentence offered as such) as a miss; `wrong` is a stated answer whose shown text holds no gold
// answer. The goal of wrong ≤ 5 % is met on SQuAD held-out (guarded at it) and not on real pages held-out (0.079
// measured in session 9, 0.073 before; guarded at its level). Answered top-1 is low by design since the confidence keeps wrong answers ≤ 5 % on
// the development halves (docs/inference.md).
const SQUAD_GOAL = { rankedTop1: 0.78, top3: 0.92, wrong: 0.05 };
const SQUAD_FLOOR = { answeredTop1: 0.39 };
const PAGES_FLOOR = { rankedTop1: 0.6, top3: 0.78, answeredTop1: 0.39, wrong: 0.09 };

describe('QA quality (held-out halves)', function () {
  // The third-party evaluation data lives beside the project (../shared/eval, or KIT_SHARED_EVAL), not in it: a clone
  // without it skips these suites and says so, as the redaction suites do.
  before(function () {
    if (!existsSync(SHARED_EVAL)) {
      console.log(`      skipped: no evaluation data at ${SHARED_EVAL}`);
      this.skip();
    }
  });

  this.timeout(120_000);
  let squad: LabelledItem[];
  let pages: LabelledItem[];
  before(async () => {
    await loadAllLanguages();
    squad = squadItems('heldout');
    pages = await pageItems('heldout');
  });

  it(`meets the ranking goals on SQuAD 2.0 held-out: top-1 ≥ ${SQUAD_GOAL.rankedTop1}, top-3 ≥ ${SQUAD_GOAL.top3} (whole tokens), wrong ≤ ${SQUAD_GOAL.wrong}`, async () => {
    const f = await runQa(squad);
    expect(f.n).to.equal(1611);
    expect(f.rankedTop1).to.be.at.least(SQUAD_GOAL.rankedTop1);
    expect(f.top3).to.be.at.least(SQUAD_GOAL.top3);
    expect(f.top1).to.be.at.least(SQUAD_FLOOR.answeredTop1);
    expect(f.wrong).to.be.at.most(SQUAD_GOAL.wrong);
  });

  it('holds its measured level on real pages held-out, on the page and through the SDK\'s sources (below the goals)', async () => {
    for (const path of ['page', 'sources'] as const) {
      const f = await runQa(pages, { path });
      expect(f.n).to.equal(151);
      expect(f.rankedTop1, path).to.be.at.least(PAGES_FLOOR.rankedTop1);
      expect(f.top3, path).to.be.at.least(PAGES_FLOOR.top3);
      expect(f.top1, path).to.be.at.least(PAGES_FLOOR.answeredTop1);
      expect(f.wrong, path).to.be.at.most(PAGES_FLOOR.wrong);
    }
  });
});

describe('QA abstention on the development half (where the threshold was chosen)', function () {
  before(function () {
    if (!existsSync(SHARED_EVAL)) this.skip();
  });
  this.timeout(120_000);

  it('states a wrong answer for at most 5 % of the real pages\' development questions (issue 16), and offers the closest sentence for others', async () => {
    await loadAllLanguages();
    const f = await runQa(await pageItems('dev'));
    expect(f.n).to.equal(152);
    expect(f.wrong).to.be.at.most(0.05);
    expect(f.top1).to.be.at.least(0.36);
    expect(f.hedged).to.be.greaterThan(0.2);
  });
});

describe('QA answer matching', () => {
  it('finds a gold answer only as whole tokens, after SQuAD normalisation and without Unicode punctuation', () => {
    expect(containsAnswer('It was built in 1712 by the abbey.', '1712')).to.equal(true);
    expect(containsAnswer('It was built in 17123.', '1712')).to.equal(false);
    expect(containsAnswer('The party started.', 'art')).to.equal(false);
    expect(containsAnswer('He said “Han shot first” twice.', 'Han shot first')).to.equal(true);
    expect(containsAnswer('The Ngātiwai tribe.', 'the Ngātiwai')).to.equal(true);
    expect(containsAny('No gold here.', ['', 'gold there'])).to.equal(false);
    // Unspaced scripts have no word boundaries: a string match.
    expect(containsAnswer('高さは333メートルで、1958年に完成しました。', '333メートル')).to.equal(true);
  });

  it('computes SQuAD exact match and token F1 against the best gold answer', () => {
    expect(exactMatch('The Normans', ['Normans', 'Vikings'])).to.equal(1);
    expect(exactMatch('in 1066 the Normans', ['Normans'])).to.equal(0);
    expect(tokenF1('the Normans came', ['Normans'])).to.be.closeTo(2 / 3, 1e-9);
    expect(tokenF1('nothing', ['Normans'])).to.equal(0);
  });
});
