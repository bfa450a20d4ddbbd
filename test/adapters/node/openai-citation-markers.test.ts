import { expect } from 'chai';
import fc from 'fast-check';
import { createCitationMarkerParser, type MarkerPiece } from '../../../adapters/node/openai-citation-markers.js';

function run(sourceCount: number, chunks: readonly string[]): { text: string; citations: number[]; pieces: MarkerPiece[] } {
  const parser = createCitationMarkerParser(sourceCount);
  const pieces = [...chunks.flatMap((c) => parser.push(c)), ...parser.flush()];
  return {
    text: pieces.map((p) => (p.type === 'delta' ? p.text : '')).join(''),
    citations: pieces.flatMap((p) => (p.type === 'citation' ? [p.index] : [])),
    pieces,
  };
}

describe('createCitationMarkerParser', () => {
  const cases: Array<{ name: string; n: number; input: string; text: string; citations: number[] }> = [
    { name: 'a marker after a sentence', n: 2, input: 'Pro costs $20 [1].', text: 'Pro costs $20.', citations: [1] },
    { name: 'adjacent markers', n: 3, input: 'Yes [1][3]. No [2]', text: 'Yes. No', citations: [1, 3, 2] },
    { name: 'a list marker', n: 3, input: 'Both [1, 2; 3].', text: 'Both.', citations: [1, 2, 3] },
    { name: 'a footnote marker', n: 1, input: 'Free tier[^1].', text: 'Free tier.', citations: [1] },
    { name: 'a repeated index once', n: 1, input: 'A [1]. B [1].', text: 'A. B.', citations: [1] },
    { name: 'an out-of-range number as text', n: 2, input: 'Founded [2024] here [3].', text: 'Founded [2024] here [3].', citations: [] },
    { name: 'a mixed list with an invalid member as text', n: 2, input: 'X [1, 9].', text: 'X [1, 9].', citations: [] },
    { name: 'brackets that are not markers', n: 2, input: 'Use [a] or [ ] and [', text: 'Use [a] or [ ] and [', citations: [] },
    { name: 'newlines kept before a marker', n: 1, input: 'Line\n[1] next', text: 'Line\n next', citations: [1] },
    { name: 'no sources', n: 0, input: 'See [1].', text: 'See [1].', citations: [] },
  ];
  for (const c of cases) {
    it(`parses ${c.name} when the text arrives whole`, () => {
      const out = run(c.n, [c.input]);
      expect(out.text).to.equal(c.text);
      expect(out.citations).to.deep.equal(c.citations);
    });
  }

  it('emits the citation where the marker was when the marker is split across chunks', () => {
    const out = run(2, ['Pro costs $20 ', '[', '1', ']. Business', ' [2', ']']);
    expect(out.pieces).to.deep.equal([
      { type: 'delta', text: 'Pro costs $20' },
      { type: 'citation', index: 1 },
      { type: 'delta', text: '. Business' },
      { type: 'citation', index: 2 },
    ]);
  });

  it('gives the same text and citations for any chunking of the same answer', () => {
    const token = fc.constantFrom('Price', ' is', ' $20', ' ', '  ', '.', '\n', '[1]', '[2]', '[7]', ' [1, 2]', '[', ']', '1', ',', '^', 'x', '[^3]', '2024');
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 10 }), (tokens, points) => {
        const text = tokens.join('');
        const cuts = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let prev = 0;
        for (const c of cuts) {
          chunks.push(text.slice(prev, c));
          prev = c;
        }
        chunks.push(text.slice(prev));
        const whole = run(3, [text]);
        const split = run(3, chunks);
        expect(split.text).to.equal(whole.text);
        expect(split.citations).to.deep.equal(whole.citations);
        // No marker of a valid source survives into the text.
        expect(split.text).not.to.match(/\[\^?[123]\]/);
      }),
      { numRuns: 500 },
    );
  });
});
