import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { vetPattern, MAX_UNBOUNDED } from '../../../core/config/pattern-safety.js';
import { expectEachTerminates } from '../../support/terminates.js';

const MODULE = new URL('../../../core/config/pattern-safety.ts', import.meta.url).href;
// Escapes and groups whose closing bracket is missing: legal outside unicode mode (`\u{` is a literal "u{").
const UNCLOSED = ['a\\u{', 'ab\\k<', 'ID\\u{', '\\u{', 'x\\p{', 'xy\\P{L', 'abc\\k<n', '(a)\\u{1', 'a+\\u{+'];

const SAFE = [
  'ACME-\\d{6}', '\\bINV-[0-9]{4,8}\\b', '[a-z]+@[a-z]+\\.com', '(foo|bar)-\\d+', '(?:ab)+', '(a+)?', '(?:x|y){1}',
  '(?<id>EMP\\d{5})', '(?<=ref:)\\w+', '\\p{Lu}{3}-\\d+', '\\u{1F600}+', '[(+*]+', 'a{2,}b', '(\\d{3})-(\\d{4})',
  'x(?!y)z+', '[\\]]+', '(?:[a-z]|_)x',
];
const UNSAFE: Array<[string, RegExp]> = [
  ['(a+)+$', /nests/], ['(\\w*\\s?)*', /nests/], ['((ab)*c)+', /nests/], ['(a{2,3}){2,}', /nests/], ['(?:x+y)*', /nests/],
  ['(a|aa)+x', /alternation/], ['(?:x|y)*', /alternation/], ['(?<n>a|b){2,}', /alternation/],
  ['a+b+c+d+e+f+g+', /unbounded/], ['([a-z', /not a valid/], ['*a', /not a valid/],
];

describe('vetPattern', () => {
  for (const p of SAFE) it(`accepts ${p}`, () => expect(vetPattern(p)).to.deep.equal({ safe: true }));
  for (const [p, why] of UNSAFE) {
    it(`refuses ${p}`, () => {
      const v = vetPattern(p);
      expect(v.safe).to.equal(false);
      if (!v.safe) expect(v.why).to.match(why);
    });
  }

  it(`allows exactly ${MAX_UNBOUNDED} unbounded quantifiers`, () => {
    expect(vetPattern('a+'.repeat(MAX_UNBOUNDED)).safe).to.equal(true);
    expect(vetPattern('a+'.repeat(MAX_UNBOUNDED + 1)).safe).to.equal(false);
  });

  it('returns for patterns whose escape or group never closes, and reads them as literals (issue #10)', async function () {
    this.timeout(30_000);
    await expectEachTerminates(MODULE, 'vetPattern', UNCLOSED);
    for (const p of UNCLOSED) expect(vetPattern(p), p).to.deep.equal({ safe: true });
    expect(vetPattern('(a+)+\\u{').safe).to.equal(false);
  });

  it('returns for every generated pattern, escapes and brackets included (each scan step advances)', async function () {
    this.timeout(60_000);
    const inputs = fc.sample(fc.stringMatching(/^(?:[a-z()|*+?{}<>\d,[\]^$.]|\\[pPuk]?[{<]?){0,12}$/), 4_000);
    await expectEachTerminates(MODULE, 'vetPattern', inputs);
  });

  it('never throws, and what it accepts compiles', () => {
    fc.assert(fc.property(fc.oneof(fc.string({ maxLength: 30 }), fc.stringMatching(/^[a-z()|*+?{}\d,\\[\]^$.]{0,20}$/)), (s) => {
      const v = vetPattern(s);
      if (v.safe) new RegExp(s);
      return true;
    }), { numRuns: 2000 });
  });

  it('accepts only patterns that finish quickly on adversarial input', function () {
    this.timeout(20_000);
    // Generated patterns from a small alphabet; every accepted one must run on a 2,000-char adversarial string fast.
    fc.assert(fc.property(fc.stringMatching(/^[ab()|*+?]{1,10}$/), (s) => {
      const v = vetPattern(s);
      if (!v.safe) return true;
      const re = new RegExp(s);
      const t0 = Date.now();
      re.test('a'.repeat(1000) + 'b'.repeat(1000) + '!');
      return Date.now() - t0 < 200;
    }), { numRuns: 1500 });
  });
});
