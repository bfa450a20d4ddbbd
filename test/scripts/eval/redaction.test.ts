import { expect } from 'chai';
import { emptyTally, metricsOf, redactionSuite, RuleTally, scoreCase } from '../../../scripts/eval/redaction.js';

describe('redactionSuite scoring', () => {
  const text = 'mail a@b.co or call +44 20 7946 0958 now';
  const email = { start: 5, end: 11, kind: 'email' as const };
  const phone = { start: 20, end: 36, kind: 'phone' as const };

  it('counts a span as found only when every character is masked', () => {
    const t = emptyTally();
    scoreCase({ text, spans: [email, phone], otherSpans: [] }, [{ start: 5, end: 11, kind: 'email' }, { start: 21, end: 36, kind: 'phone' }], t);
    const m = metricsOf(t);
    expect(m.recall).to.equal(0.5);
    expect(m.per_kind.email!.recall).to.equal(1);
    expect(m.per_kind.phone!.recall).to.equal(0);
    expect(m.precision).to.equal(1);
  });

  it('counts a masked region over no span as a false positive, naming the unscored entity under it', () => {
    const t = emptyTally();
    scoreCase({ text, spans: [email], otherSpans: [{ start: 20, end: 36, type: 'STREET_ADDRESS' }] }, [{ start: 5, end: 11, kind: 'email' }, { start: 20, end: 36, kind: 'phone' }], t);
    expect(metricsOf(t).precision).to.equal(0.5);
    expect(t.fpOnOther).to.deep.equal({ STREET_ADDRESS: 1 });
  });

  it('scores per-kind precision by the label of the masked region', () => {
    const t = emptyTally();
    scoreCase({ text, spans: [phone], otherSpans: [] }, [{ start: 20, end: 36, kind: 'card' }], t);
    const m = metricsOf(t);
    expect(m.precision).to.equal(1);
    expect(m.per_kind.card!.precision).to.equal(0);
    expect(m.per_kind.phone!.recall).to.equal(1);
  });

  it('runs cases end to end with the SDK redact option', async () => {
    const cases = [
      redactionSuite.parseCase({ text, spans: [email, phone] }),
      redactionSuite.parseCase({ text: 'nothing here', spans: [], redact: 'secrets' }),
    ];
    const metrics = await redactionSuite.run(cases, { baseDir: '.', log: () => {} });
    expect(metrics).to.include({ n: 2, precision: 1, recall: 1 });
    expect(metrics.mb_per_s).to.be.a('number');
  });

  it('refuses a case whose span falls outside the text', () => {
    expect(() => redactionSuite.parseCase({ text: 'abc', spans: [{ start: 1, end: 9, kind: 'email' }] })).to.throw(/start\/end/);
    expect(() => redactionSuite.parseCase({ text: 'abc', spans: [{ start: 0, end: 1, kind: 'name' }] })).to.throw(/kind/);
  });

  it('scores gitleaks rule cases: recall per claim and origin, fp rate over texts, unlocated and also-tp left out', () => {
    const tp = (rule: string, claimed: boolean, origin: string, extra = {}) => redactionSuite.parseCase({ text: 'key = abcdef123456', spans: [{ start: 6, end: 18, kind: 'secret' }], rule, role: 'tp', claimed, origin, ...extra });
    const fp = (rule: string, extra = {}) => redactionSuite.parseCase({ text: 'nothing secret', spans: [], rule, role: 'fp', claimed: false, ...extra });
    const t = new RuleTally();
    const hit = [{ start: 6, end: 18, kind: 'secret' as const }];
    t.add(tp('a', true, 'literal'), hit);
    t.add(tp('a', true, 'generated'), []);
    t.add(tp('b', false, 'generated'), hit);
    t.add(tp('b', false, 'generated', { unlocated: true, spans: [] }), []);
    t.add(fp('a'), hit);
    t.add(fp('b'), []);
    t.add(fp('b', { also_tp: true }), hit);
    t.add(fp('b', { other_rules: ['c'] }), hit);
    const m = t.metrics(() => {});
    expect(m).to.include({ recall: 0.6667, recall_claimed: 0.5, recall_unclaimed: 1, recall_literal: 1, recall_generated: 0.5, rules: 2, rules_fully_found: 1, tp_unlocated: 1 });
    expect(m).to.include({ fp_texts: 3, fp_rate: 0.6667, fp_rate_no_other_rule: 0.5, fp_texts_also_tp: 1 });
    expect(() => redactionSuite.parseCase({ text: 'x', spans: [{ start: 0, end: 1, kind: 'secret' }], rule: 'a', role: 'fp' })).to.throw(/no spans/);
  });
});
