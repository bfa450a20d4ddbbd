import { expect } from 'chai';
import { mergeDetections } from '../../../core/redaction/index.js';
import type { Detection } from '../../../core/redaction/types.js';

const d = (start: number, end: number, kind: Detection['kind']): Detection => ({ start, end, kind });

describe('mergeDetections', () => {
  const cases: { name: string; input: Detection[]; expected: Detection[] }[] = [
    { name: 'keeps disjoint detections apart, sorted by start', input: [d(10, 12, 'email'), d(0, 3, 'card')], expected: [d(0, 3, 'card'), d(10, 12, 'email')] },
    { name: 'keeps touching detections apart', input: [d(0, 5, 'email'), d(5, 9, 'phone')], expected: [d(0, 5, 'email'), d(5, 9, 'phone')] },
    { name: 'unions overlaps and labels them by the longest member', input: [d(0, 10, 'phone'), d(2, 20, 'card')], expected: [d(0, 20, 'card')] },
    { name: 'labels a region secret when any member is a secret, however short', input: [d(0, 30, 'email'), d(5, 9, 'secret')], expected: [d(0, 30, 'secret')] },
    { name: 'breaks length ties by specificity (ssn before phone)', input: [d(4, 15, 'phone'), d(4, 15, 'ssn')], expected: [d(4, 15, 'ssn')] },
    { name: 'chains overlaps transitively', input: [d(0, 4, 'phone'), d(3, 8, 'phone'), d(7, 12, 'custom')], expected: [d(0, 12, 'phone')] },
    { name: 'returns nothing for nothing', input: [], expected: [] },
  ];
  for (const c of cases) it(`${c.name}`, () => expect(mergeDetections(c.input)).to.deep.equal(c.expected));
});
