import { expect } from 'chai';
import type { RedactConfig } from '../../../core/config/types.js';
import { createAllowList } from '../../../core/redaction/allow-list.js';
import { loadRedactor } from '../../../core/redaction/index.js';
import fc from '../../support/fast-check.js';

const PII: RedactConfig = { secrets: true, pii: true, patterns: [], replacement: '[<KIND>]' };
const PAGE = 'Write to support@shop.example.com or help@eu.shop.example.com, call +1 (415) 555-0132 or 020 7946 0958. '
  + 'Jane (jane.doe@gmail.com, +1 415 555 0199) manages refunds; card 4111 1111 1111 1111; token sk_live_4eC39HqLyjWDarjtT1zdp7dc.';

describe('redact.allow (createAllowList, through the redactor)', () => {
  it('keeps the listed address and number visible, however the page writes the number, and masks everything else', async () => {
    const redactor = await loadRedactor({ ...PII, allow: ['support@shop.example.com', '+1 415-555-0132'] });
    const r = redactor.redact(PAGE);
    expect(r.text).to.include('support@shop.example.com').and.include('+1 (415) 555-0132');
    for (const hidden of ['help@eu.shop.example.com', 'jane.doe@gmail.com', '+1 415 555 0199', '020 7946 0958', '4111 1111 1111 1111', 'sk_live_']) expect(r.text).to.not.include(hidden);
    expect(r.counts.email).to.equal(2);
  });

  it('keeps every address at an @domain entry and its subdomains, and no look-alike domain', async () => {
    const redactor = await loadRedactor({ ...PII, allow: ['@shop.example.com'] });
    const r = redactor.redact(`${PAGE} Also x@notshop.example.com and y@shop.example.com.evil.test.`);
    expect(r.text).to.include('support@shop.example.com').and.include('help@eu.shop.example.com');
    expect(r.text).to.not.include('x@notshop.example.com').and.not.include('y@shop.example.com.evil.test');
    expect(r.text).to.not.include('jane.doe@gmail.com');
  });

  it('without entries, masks exactly as before', async () => {
    const plain = await loadRedactor(PII);
    const empty = await loadRedactor({ ...PII, allow: [] });
    expect(empty.redact(PAGE)).to.deep.equal(plain.redact(PAGE));
  });

  it('matches addresses case-insensitively and ignores blank entries; short entries never match numbers loosely', () => {
    const list = createAllowList(['  SUPPORT@Shop.Example.com ', '', '12']);
    const text = 'support@shop.example.com 1 2 3 4 12';
    const kept = list.filter(text, [{ start: 0, end: 24, kind: 'email' }, { start: 25, end: 32, kind: 'phone' }]);
    expect(kept).to.deep.equal([{ start: 25, end: 32, kind: 'phone' }]);
  });

  it('only ever removes detections: the result is a subset of the input, whatever the entries', () => {
    const detection = fc.record({ start: fc.nat(40), len: fc.integer({ min: 1, max: 20 }), kind: fc.constantFrom('email', 'phone', 'card', 'iban', 'ssn', 'secret', 'custom' as const) })
      .map(({ start, len, kind }) => ({ start, end: start + len, kind }));
    fc.assert(fc.property(fc.array(fc.string({ maxLength: 30 }), { maxLength: 5 }), fc.string({ maxLength: 60 }), fc.array(detection, { maxLength: 6 }), (entries, text, detections) => {
      const kept = createAllowList(entries).filter(text, detections);
      return kept.every((d) => detections.includes(d)) && kept.length <= detections.length;
    }));
  });
});
