import { expect } from 'chai';
import { normalizeConfig } from '../../../core/config/index.js';
import { KitError } from '../../../core/errors/index.js';
import { formatKey } from '../../../core/keys/key-format.js';
import { createCustomMatcher, MAX_MATCHES_PER_PATTERN } from '../../../core/redaction/custom-matcher.js';
import { loadRedactor } from '../../../core/redaction/index.js';
import type { Detection } from '../../../core/redaction/types.js';

const PUB = formatKey('publishable', new Uint8Array(32));
const patternsOf = (patterns: unknown[]) => normalizeConfig({ apiKey: PUB, redact: { patterns } }).config.redact;

function find(patterns: RegExp[], text: string): string[] {
  const out: Detection[] = [];
  createCustomMatcher(patterns)(text, out);
  return out.map((d) => `${d.kind}:${text.slice(d.start, d.end)}`);
}

describe('createCustomMatcher', () => {
  it('finds every match of every pattern as kind custom when patterns come from the config', () => {
    const { patterns } = patternsOf(['ACME-\\d{4}', /emp#\d+/i]);
    expect(find([...patterns], 'ids ACME-1234 and EMP#77, ACME-99 ACME-5678')).to.deep.equal(['custom:ACME-1234', 'custom:ACME-5678', 'custom:EMP#77']);
  });

  it('keeps offsets in UTF-16 units when the text has astral characters', () => {
    const text = '😀 é ACME-1234';
    const out: Detection[] = [];
    createCustomMatcher([/ACME-\d{4}/g])(text, out);
    expect(text.slice(out[0]!.start, out[0]!.end)).to.equal('ACME-1234');
  });

  it('honours the i, m and s flags and lookbehind when a pattern uses them', () => {
    expect(find([/^id: \d+$/gim], 'x\nID: 12\ny')).to.deep.equal(['custom:ID: 12']);
    expect(find([/a.b/gs], 'a\nb')).to.deep.equal(['custom:a\nb']);
    expect(find([/(?<=ref )\d+/g], 'ref 42, id 43')).to.deep.equal(['custom:42']);
  });

  it('refuses lookahead and back-references with invalid_config when a pattern needs backtracking', () => {
    for (const p of [/a(?=b)/g, /(\w)\1/g]) {
      try {
        createCustomMatcher([/ok/g, p]);
        expect.fail('expected invalid_config');
      } catch (err) {
        expect(err).to.be.instanceOf(KitError);
        expect((err as KitError).code).to.equal('invalid_config');
        expect((err as KitError).message).to.include('redact.patterns[1]');
      }
    }
  });

  it('runs in linear time on patterns that pass static vetting but backtrack catastrophically', function () {
    this.timeout(20_000);
    // Both pass vetPattern; with a backtracking engine each takes seconds on 64 characters.
    const { patterns } = patternsOf(['\\w*\\w*\\w*\\w*\\w*\\w*x', '[a-z]+[a-z]+[a-z]+[a-z]+[a-z]+[a-z]+!']);
    const text = 'a'.repeat(200_000) + ' ' + 'b'.repeat(200_000);
    const t0 = Date.now();
    expect(find([...patterns], text)).to.deep.equal([]);
    expect(Date.now() - t0).to.be.below(5_000);
  });

  it(`keeps at most ${MAX_MATCHES_PER_PATTERN} matches per pattern when a page has more`, () => {
    const out: Detection[] = [];
    createCustomMatcher([/x/g])('x'.repeat(MAX_MATCHES_PER_PATTERN + 10), out);
    expect(out).to.have.length(MAX_MATCHES_PER_PATTERN);
  });

  it('is wired into loadRedactor so custom matches are masked and counted', async () => {
    const r = await loadRedactor({ ...patternsOf(['ACME-\\d{4}']), replacement: '[<KIND>]' });
    expect(r.redact('order ACME-1234 shipped')).to.deep.equal({ text: 'order [CUSTOM] shipped', counts: { custom: 1 }, spans: [{ start: 6, end: 15, kind: 'custom' }] });
  });
});
