import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { createCitationMarkerParser, type CitationPiece } from '../../../core/answer/citation-markers.js';

function run(sourceCount: number, chunks: readonly string[]): { text: string; citations: number[]; pieces: CitationPiece[] } {
  const parser = createCitationMarkerParser(sourceCount);
  const pieces = [...chunks.flatMap((c) => parser.push(c)), ...parser.end()];
  return {
    text: pieces.map((p) => (p.type === 'delta' ? p.text : '')).join(''),
    citations: pieces.flatMap((p) => (p.type === 'citation' ? [p.index] : [])),
    pieces,
  };
}

function splitAt(s: string, points: readonly number[]): string[] {
  const cuts = [...new Set(points.map((p) => p % (s.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const c of cuts) {
    out.push(s.slice(prev, c));
    prev = c;
  }
  out.push(s.slice(prev));
  return out;
}

describe('createCitationMarkerParser', () => {
  const cases: ReadonlyArray<{ name: string; sources: number; input: string; text: string; citations: number[] }> = [
    { name: 'plain markers', sources: 3, input: 'It costs $9 [1]. Ships free [3].', text: 'It costs $9 [1]. Ships free [3].', citations: [1, 3] },
    { name: 'a list inside one marker', sources: 3, input: 'Both [1, 2].', text: 'Both [1][2].', citations: [1, 2] },
    { name: 'semicolons and a Source prefix', sources: 3, input: 'Yes [Source 2; 3].', text: 'Yes [2][3].', citations: [2, 3] },
    { name: 'an out-of-range marker', sources: 2, input: 'Made up [7]. Real [2].', text: 'Made up . Real [2].', citations: [2] },
    { name: 'a repeated index', sources: 2, input: 'A [1]. B [1]. C [1, 1].', text: 'A [1]. B [1]. C [1].', citations: [1] },
    { name: 'brackets that are not markers', sources: 2, input: 'See [the docs] and [ 1 ]', text: 'See [the docs] and [1]', citations: [1] },
    { name: 'an unclosed bracket at the end', sources: 2, input: 'Unfinished [1', text: 'Unfinished [1', citations: [] },
    { name: 'no sources', sources: 0, input: 'Nothing [1].', text: 'Nothing .', citations: [] },
  ];
  for (const c of cases) {
    it(`normalises markers and cites each index once when given ${c.name}`, () => {
      const r = run(c.sources, [c.input]);
      expect(r.text).to.equal(c.text);
      expect(r.citations).to.deep.equal(c.citations);
    });
  }

  it('releases a citation right after the text of its marker when the marker arrives split', () => {
    const r = run(2, ['Price is $5 [', '2', '] and more']);
    expect(r.pieces).to.deep.equal([
      { type: 'delta', text: 'Price is $5 ' },
      { type: 'delta', text: '[2]' },
      { type: 'citation', index: 2 },
      { type: 'delta', text: ' and more' },
    ]);
  });

  it('holds back nothing but a possible marker when text streams in', () => {
    const parser = createCitationMarkerParser(2);
    expect(parser.push('Hello wor')).to.deep.equal([{ type: 'delta', text: 'Hello wor' }]);
    expect(parser.push('ld [')).to.deep.equal([{ type: 'delta', text: 'ld ' }]);
    expect(parser.push('x')).to.deep.equal([{ type: 'delta', text: '[x' }]);
  });

  it('gives the same text and citations for every way of splitting the stream', () => {
    const token = fc.constantFrom('[', ']', '1', '2', '9', ',', ' ', 'Source ', 'a', '.', '[1]', '[2, 3]');
    fc.assert(
      fc.property(fc.array(token, { maxLength: 30 }), fc.array(fc.nat(200), { maxLength: 8 }), fc.integer({ min: 0, max: 4 }), (tokens, cuts, n) => {
        const s = tokens.join('');
        const whole = run(n, [s]);
        const split = run(n, splitAt(s, cuts));
        expect(split.text).to.equal(whole.text);
        expect(split.citations).to.deep.equal(whole.citations);
        expect(new Set(whole.citations).size).to.equal(whole.citations.length);
        for (const i of whole.citations) expect(i).to.be.within(1, n);
      }),
      { numRuns: 300 },
    );
  });
});
