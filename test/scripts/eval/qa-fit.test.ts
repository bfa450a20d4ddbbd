import { expect } from 'chai';
import { goalThreshold, outOfFold, pageFolds, type Row } from '../../../scripts/eval/qa-fit.js';

// The confidence's threshold is chosen on out-of-fold scores (session 11, docs/eval.md "qa"): a question is scored by
// weights fitted without its page, so the threshold prices in what the fit learnt of the development pages themselves.
describe('qa-fit: the threshold chosen on pages the weights never saw', () => {
  // Two signals; pages p0…p5 (real pages) and s0…s5 (SQuAD), six questions each, deterministic.
  const rows: Row[] = [];
  for (const [set, prefix] of [['pages', 'page:p'], ['squad', 'squad:s']] as const) {
    for (let g = 0; g < 6; g++) {
      for (let q = 0; q < 6; q++) {
        const a = ((g * 7 + q * 3) % 10) / 10;
        const b = ((g * 3 + q * 5) % 10) / 10;
        rows.push({ x: [a, b], y: a + 0.5 * b > 0.6 ? 1 : 0, top1: a > 0.5 ? 1 : 0, wt: 1, g: `${prefix}${g}`, set });
      }
    }
  }

  it('keeps every page in one fold and uses every fold', () => {
    const groups = rows.map((r) => r.g);
    for (const seed of [0, 1, 2]) {
      const folds = pageFolds(groups, 4, seed);
      expect(folds.size).to.equal(12);
      expect(new Set(folds.values())).to.deep.equal(new Set([0, 1, 2, 3]));
    }
    expect([...pageFolds(groups, 4, 1).entries()]).not.to.deep.equal([...pageFolds(groups, 4, 0).entries()]);
  });

  it('scores a page by weights fitted without it: its own labels do not move its scores', () => {
    const before = outOfFold(rows, 3, 1);
    const flipped = rows.map((r) => (r.g === 'page:p2' ? { ...r, y: 1 - r.y } : r));
    const after = outOfFold(flipped, 3, 1);
    rows.forEach((r, i) => {
      if (r.g === 'page:p2') expect(after[i]).to.be.closeTo(before[i]!, 1e-12);
    });
    // …and moves the others' (the flipped page is in their training folds).
    expect(rows.some((r, i) => r.g !== 'page:p2' && Math.abs(after[i]! - before[i]!) > 1e-6)).to.equal(true);
  });

  it('picks the lowest threshold at which both development halves state at most the target share of wrong answers', () => {
    const p = rows.map((r) => (r.y ? 0.8 : r.set === 'pages' ? 0.55 : 0.45));
    // Wrong answers of real pages stop at 0.56, SQuAD's at 0.46: the stricter half decides.
    expect(goalThreshold(rows, p, 0.05)).to.equal(0.56);
    expect(goalThreshold(rows.filter((r) => r.set === 'squad'), p.filter((_, i) => rows[i]!.set === 'squad'), 0.05)).to.equal(0.46);
  });
});
