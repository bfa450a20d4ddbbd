import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import type { RedactConfig } from '../../../core/config/types.js';
import { createRedactor, loadRedactor, type Redactor } from '../../../core/redaction/index.js';
import { NEGATIVES, POSITIVES } from './fixtures.js';

const BOTH: RedactConfig = { secrets: true, pii: true, patterns: [], replacement: '[REDACTED:<KIND>]' };

describe('createRedactor', () => {
  let full: Redactor;
  before(async () => {
    full = await loadRedactor(BOTH);
  });

  describe('fixtures', () => {
    for (const f of POSITIVES) {
      it(`masks ${f.name}`, () => {
        const r = full.redact(f.text);
        for (const [kind, value] of f.masked) {
          const start = f.text.indexOf(value);
          expect(start, `fixture value "${value}"`).to.be.at.least(0);
          const region = r.spans.find((s) => s.start <= start && s.end >= start + value.length);
          expect(region, `a region covering "${value}" in ${JSON.stringify(r.spans)}`).to.not.equal(undefined);
          expect(region!.kind).to.equal(kind);
          expect(r.text).to.not.include(value);
          expect(r.text).to.include(`[REDACTED:${kind.toUpperCase()}]`);
        }
      });
    }
    for (const f of NEGATIVES) {
      it(`leaves ${f.name} unchanged`, () => {
        const r = full.redact(f.text);
        expect(r.spans.map((s) => `${s.kind}: ${f.text.slice(s.start, s.end)}`)).to.deep.equal([]);
        expect(r.text).to.equal(f.text);
      });
    }
  });

  it('reports counts per kind and never the values', () => {
    const text = 'mail a@example.com, b@example.org; card 4111 1111 1111 1111; password=hunter22x';
    const r = full.redact(text);
    expect(r.counts).to.deep.equal({ email: 2, card: 1, secret: 1 });
    const serialised = JSON.stringify(r.counts);
    for (const value of ['a@example.com', 'b@example.org', '4111', 'hunter22x']) expect(serialised).to.not.include(value);
  });

  it('gives spans in the coordinates of the original text', () => {
    const text = 'x a@example.com y 536-22-1234 z';
    const r = full.redact(text);
    expect(r.spans.map((s) => [text.slice(s.start, s.end), s.kind])).to.deep.equal([['a@example.com', 'email'], ['536-22-1234', 'ssn']]);
  });

  it('uses the replacement template with the upper-case kind when one is configured', () => {
    const r = createRedactor({ ...BOTH, replacement: '«<KIND>/<KIND>»' }).redact('write to a@example.com');
    expect(r.text).to.equal('write to «EMAIL/EMAIL»');
    expect(createRedactor({ ...BOTH, replacement: '***' }).redact('a@example.com!').text).to.equal('***!');
  });

  it('masks only what the config turns on', () => {
    const text = 'a@example.com password=hunter22x';
    expect(createRedactor({ ...BOTH, pii: false }).redact(text).counts).to.deep.equal({ secret: 1 });
    expect(createRedactor({ ...BOTH, secrets: false }).redact(text).counts).to.deep.equal({ email: 1 });
    const off = createRedactor({ ...BOTH, secrets: false, pii: false });
    expect(off.redact(text)).to.deep.equal({ text, counts: {}, spans: [] });
  });

  it('masks no phone numbers when built without the phone finder', () => {
    const r = createRedactor(BOTH).redact('Call +44 20 7946 0958 or a@example.com');
    expect(r.counts).to.deep.equal({ email: 1 });
  });

  it('merges overlapping detections into one region, a secret winning over PII', () => {
    // The email detector sees "S3cretPass99@db.example.com"; the URL-credentials rule sees "root:S3cretPass99": one region.
    const text = 'see mysql://root:S3cretPass99@db.example.com/app';
    const r = full.redact(text);
    expect(r.spans).to.have.length(1);
    expect(r.spans[0]!.kind).to.equal('secret');
    expect(r.text).to.not.include('S3cretPass99');
  });

  it('masks a phone number that follows another number after a column gap (fast-check seed 183938613)', () => {
    // The IBAN's last group "606", two spaces and the phone once formed one rejected digit run that hid the phone.
    const text = ' FR14 2004 1010 0505 0001 3M02 606  0049 30 901820  kit_sec_18FMTahov29GNUbipw3AHOVcjqx4BIPW1nYVZU ';
    const r = full.redact(text);
    expect(r.spans.map((s) => [text.slice(s.start, s.end), s.kind])).to.deep.equal([
      ['FR14 2004 1010 0505 0001 3M02 606', 'iban'], ['0049 30 901820', 'phone'], ['kit_sec_18FMTahov29GNUbipw3AHOVcjqx4BIPW1nYVZU', 'secret'],
    ]);
  });

  it('throws a TypeError when custom patterns come without a matcher', () => {
    expect(() => createRedactor({ ...BOTH, patterns: [/x/g] })).to.throw(TypeError, /matchCustom/);
  });

  it('finishes fast on pathological input a megabyte long', function () {
    this.timeout(20_000);
    const inputs = [
      '1 '.repeat(500_000), '@'.repeat(1_000_000), 'a@'.repeat(500_000), '.'.repeat(1_000_000), 'password='.repeat(110_000),
      'sk_live_'.repeat(125_000), 'eyJaaaaaaaaaaaaa.'.repeat(60_000), 'Tel 9999 99 99 99\n'.repeat(55_000), '-----BEGIN PRIVATE KEY-----\n'.repeat(35_000),
      'DE89 '.repeat(200_000), '4111 1111 1111 1111 '.repeat(50_000),
    ];
    for (const text of inputs) {
      const t0 = Date.now();
      full.redact(text);
      expect(Date.now() - t0, `${JSON.stringify(text.slice(0, 20))}…`).to.be.below(3_000);
    }
  });

  describe('properties', () => {
    // Values found whatever surrounds them (a national phone number needs a phone word, a password its key).
    const shapes = fc.constantFrom(...POSITIVES.filter((p) => !p.contextual).flatMap((p) => p.masked.map(([, v]) => v)).filter((v) => v.length >= 10));
    const filler = fc.stringMatching(/^[A-Za-z ,.!?\n]{0,40}$/);

    it('never throws and keeps spans inside the text, for any string', () => {
      fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        const r = full.redact(text);
        for (const s of r.spans) expect(s.start >= 0 && s.start < s.end && s.end <= text.length).to.equal(true);
        expect(typeof r.text).to.equal('string');
      }), { numRuns: 300 });
    });

    it('leaves no detected value in the output', () => {
      fc.assert(fc.property(fc.array(fc.tuple(filler, shapes), { minLength: 1, maxLength: 5 }), (parts) => {
        const text = parts.map(([f, v]) => `${f} ${v} `).join('');
        const r = full.redact(text);
        for (const s of r.spans) expect(r.text).to.not.include(text.slice(s.start, s.end));
        for (const [, v] of parts) expect(r.text).to.not.include(v);
      }), { numRuns: 200 });
    });

    it('returns text without digits, @ or key punctuation unchanged', () => {
      fc.assert(fc.property(fc.stringMatching(/^[\p{L} ,.!?'"()\n]{0,200}$/u), (text) => {
        const r = full.redact(text);
        expect(r.text).to.equal(text);
        expect(r.counts).to.deep.equal({});
      }), { numRuns: 300 });
    });
  });
});
