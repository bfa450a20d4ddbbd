import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { tokenize, forEachWord, NO_SPACE } from '../../../core/text/tokenize.js';
import { foldAccents, normalizeText } from '../../../core/text/normalize.js';

// main's tokenizer before issue 16.4 made it scan by char codes: TOKEN's matches over the normalised text, each
// word then as pushWord treats it. The char-code scanners must give exactly its words.
const TOKEN = /\p{N}+(?:[.,]\p{N}+)+|[\p{L}\p{M}\p{N}]+(?:[.'’][\p{L}\p{M}\p{N}]+)*/gu;
function regexTokenize(text: string): string[] {
  const out: string[] = [];
  const push = (raw: string): void => {
    let w = raw;
    if (/^[0-9]/.test(w) && w.includes(',')) w = w.replace(/,(?=\d{3}(?!\d))/g, '');
    if (w.includes("'") || w.includes('’')) {
      const parts = w.replace(/’/g, "'").split("'");
      if (parts.length === 2 && parts[1] === 's') w = parts[0]!;
      else if (parts.length === 2 && parts[0]!.length <= 2 && parts[1]!.length >= 2) w = parts[1]!;
      else w = parts.join("'");
    } else if (w.includes('.') && /^(?:\p{L}\.)+\p{L}$/u.test(w)) {
      w = w.replace(/\./g, '');
    }
    w = foldAccents(w);
    if (w !== '') out.push(w);
  };
  const seg = new Intl.Segmenter(undefined, { granularity: 'word' });
  for (const m of normalizeText(text).matchAll(TOKEN)) {
    const raw = m[0];
    if (!/[^\x00-\x7f]/.test(raw) || !NO_SPACE.test(raw)) push(raw);
    else for (const s of seg.segment(raw)) if (s.isWordLike !== false && s.segment.trim() !== '') push(s.segment);
  }
  return out;
}
// Characters where the scanners' cases meet: separators, curly apostrophes, accents and combining marks, other
// scripts' letters and digits, scripts without spaces, astral letters (NFKC folds some), compatibility forms.
const MIXED = [...'aZsl09 .,\'’-_/éÉßŒ\u0301\u0308ïçあカ中文한ไทยабв١٢٣²½ﬁＡ１\u00a0…“”\u00ad\u200d'.split(''), '𝐀', '𠀀', '😀', '\ud800'];

const CASES: [label: string, input: string, expected: string[]][] = [
  ['lower-cases and splits on punctuation', 'Hello, World! How are you?', ['hello', 'world', 'how', 'are', 'you']],
  ['folds accents', 'Éléphant café NAÏVE', ['elephant', 'cafe', 'naive']],
  ['folds letters NFD does not decompose', 'Straße Ærø Łódź', ['strasse', 'aero', 'lodz']],
  ['applies NFKC to full-width forms', 'ＡＢＣ １２３', ['abc', '123']],
  ['keeps numbers and drops thousands separators', 'It cost 1,000 dollars, or 3.5 per cent in 1973.', ['it', 'cost', '1000', 'dollars', 'or', '3.5', 'per', 'cent', 'in', '1973']],
  ['removes English possessives', "Normandy's dukes", ['normandy', 'dukes']],
  ['removes French elisions', "L'homme d’affaires", ['homme', 'affaires']],
  ['keeps contractions that are words', "don't", ["don't"]],
  ['joins dotted acronyms', 'The U.S. Army', ['the', 'us', 'army']],
  ['keeps dotted names', 'X.25 and node.js', ['x.25', 'and', 'node.js']],
  ['segments Japanese with Intl.Segmenter', '東京タワーは東京都港区にある', ['東京タワー', 'は', '東京', '都', '港区', 'に', 'ある']],
  ['segments Chinese with Intl.Segmenter', '北京是中华人民共和国的首都。', ['北京', '是', '中华', '人民', '共和国', '的', '首都']],
  ['keeps Latin words inside CJK text', 'iPhone是苹果的手机', ['iphone', '是', '苹果', '的', '手机']],
  ['leaves Devanagari vowel signs alone', 'हिन्दी भाषा', ['हिन्दी', 'भाषा']],
  ['returns nothing for punctuation only', '?!… — ...', []],
];

describe('tokenize', () => {
  for (const [label, input, expected] of CASES) {
    it(`${label} when given ${JSON.stringify(input)}`, () => {
      expect(tokenize(input)).to.deep.equal(expected);
    });
  }

  it('never throws and yields non-empty trimmed words when given any string', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (s) => {
      for (const w of tokenize(s)) {
        expect(w).to.be.a('string').and.not.equal('');
        expect(w.trim()).to.equal(w);
      }
    }), { numRuns: 500 });
  });

  it('gives the same words on the ASCII fast path as on the Unicode path when text is ASCII', () => {
    // Appending a non-ASCII word forces the regex path for the whole text.
    fc.assert(fc.property(fc.stringMatching(/^[a-zA-Z0-9 .,'\-]{0,60}$/), (s) => {
      expect(tokenize(s)).to.deep.equal(tokenize(s + ' é').slice(0, -1));
    }), { numRuns: 2_000 });
  });

  it('gives exactly the words of the regex tokenizer it replaced when given any text', () => {
    const mixed = fc.array(fc.constantFrom(...MIXED), { maxLength: 40 }).map((xs) => xs.join(''));
    fc.assert(fc.property(mixed, (s) => { expect(tokenize(s)).to.deep.equal(regexTokenize(s)); }), { numRuns: 5_000 });
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (s) => { expect(tokenize(s)).to.deep.equal(regexTokenize(s)); }), { numRuns: 2_000 });
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (s) => { expect(tokenize(s)).to.deep.equal(regexTokenize(s)); }), { numRuns: 2_000 });
  });

  it('passes the same plain ranges and words to the corpus as its words when text mixes scripts', () => {
    const mixed = fc.array(fc.constantFrom(...MIXED), { maxLength: 40 }).map((xs) => xs.join(''));
    fc.assert(fc.property(mixed, (s) => {
      const out: string[] = [];
      forEachWord(s, (w) => out.push(w), (t, a, b) => out.push(t.slice(a, b)));
      expect(out).to.deep.equal(regexTokenize(s));
    }), { numRuns: 2_000 });
  });

  it('is case-insensitive when given ASCII letters', () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-zA-Z0-9 ]{0,60}$/), (s) => {
      expect(tokenize(s.toUpperCase())).to.deep.equal(tokenize(s));
    }), { numRuns: 500 });
  });
});

describe('forEachWord', () => {
  it('passes plain ASCII words as ranges of the lower-cased text when a range callback is given', () => {
    const ranges: string[] = [];
    const words: string[] = [];
    forEachWord("Big Loaves, 1,000 of them. Don't", (w) => words.push(w), (s, a, b) => ranges.push(s.slice(a, b)));
    expect(ranges).to.deep.equal(['big', 'loaves', 'of', 'them']);
    expect(words).to.deep.equal(['1000', "don't"]);
  });
});
