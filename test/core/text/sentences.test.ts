import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { splitSentences } from '../../../core/text/sentences.js';

const CASES: [label: string, input: string, expected: string[]][] = [
  ['splits at full stops followed by a capital', 'The plan costs $12. It includes two loaves.', ['The plan costs $12.', 'It includes two loaves.']],
  ['keeps abbreviations inside a sentence', 'Dr. Smith met Mr. Jones on St. Patrick’s day.', ['Dr. Smith met Mr. Jones on St. Patrick’s day.']],
  ['keeps initials inside a sentence', 'J. R. R. Tolkien wrote it. Then he slept.', ['J. R. R. Tolkien wrote it.', 'Then he slept.']],
  ['keeps a dot followed by lower case inside a sentence', 'It costs approx. five euros.', ['It costs approx. five euros.']],
  ['splits at question and exclamation marks', 'Really? Yes! Fine.', ['Really?', 'Yes!', 'Fine.']],
  ['keeps closing quotes with their sentence', 'He said "stop." Then he left.', ['He said "stop."', 'Then he left.']],
  ['splits at line breaks (headings, list items)', 'Pricing\nThe plan costs $12\n\n- Free delivery', ['Pricing', 'The plan costs $12', '- Free delivery']],
  ['splits Chinese and Japanese at 。！？ without spaces', '东京很大。大阪也很大！对吗？', ['东京很大。', '大阪也很大！', '对吗？']],
  ['keeps decimals and years', 'In 1973 prices rose 3.5 times. Then they fell.', ['In 1973 prices rose 3.5 times.', 'Then they fell.']],
];

describe('splitSentences', () => {
  for (const [label, input, expected] of CASES) {
    it(`${label}`, () => expect(splitSentences(input)).to.deep.equal(expected));
  }

  it('loses no non-space character when given any text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (s) => {
      const strip = (x: string): string => x.replace(/\s+/g, '');
      expect(strip(splitSentences(s).join(''))).to.equal(strip(s));
    }), { numRuns: 500 });
  });
});
