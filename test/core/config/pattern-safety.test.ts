import { expect } from 'chai';
import fc from 'fast-check';
import { vetPattern, MAX_UNBOUNDED } from '../../../core/config/pattern-safety.js';

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
