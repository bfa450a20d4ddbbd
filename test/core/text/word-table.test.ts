import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { WordTable } from '../../../core/text/word-table.js';

describe('WordTable', () => {
  it('finds every stored word by a range of any string holding it, and nothing else', () => {
    fc.assert(fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 3_000 }), fc.string({ maxLength: 12 }), (words, other) => {
      const t = new WordTable(); // grows past its initial 4,096 slots on the larger arrays
      words.forEach((w, i) => t.set(w, WordTable.hash(w, 0, w.length), i));
      words.forEach((w, i) => {
        const s = `<${w}>`;
        expect(t.get(s, 1, s.length - 1, WordTable.hash(s, 1, s.length - 1))).to.equal(i);
      });
      if (!words.includes(other)) expect(t.get(other, 0, other.length, WordTable.hash(other, 0, other.length))).to.equal(-1);
    }), { numRuns: 30 });
  });
});
