/**
 * gitleaks' secret generator, ported: `secrets.NewSecret(regex)` in gitleaks' rule sources is lucasjones/reggen's
 * `NewGenerator(regex).Generate(1)` over Go's `regexp/syntax` parse tree. This module parses the same (RE2) syntax
 * and generates the way reggen does with `limit` 1, from a seeded PRNG instead of the clock:
 *  - a character class picks uniformly among its characters; a class that reaches U+10FFFF (negated classes,
 *    \D \W \S) picks among reggen's printable ASCII characters in it; `.` among those printable characters
 *    (without \n and \r unless (?s));
 *  - `x{n,m}` repeats min(n, …): reggen caps the maximum at the limit (1), so a counted repeat gives exactly its
 *    minimum, except `{0,m}` (0 or 1 times); `x{n,}` gives n;
 *  - `x*` and `x?` repeat 0 or 1 times, `x+` once;
 *  - an alternation picks a branch uniformly (Go's parser factors common prefixes of literal branches, which
 *    changes the odds between such branches, never the strings that can come out);
 *  - under (?i) a literal letter comes out in upper case (Go keeps the smallest rune of its case-fold orbit) and a
 *    class gains the other case of its letters;
 *  - anchors and word boundaries generate nothing.
 * Unsupported syntax (Unicode classes, \Q…\E, \C) throws, so a rule that needs it cannot be expanded silently wrong.
 */

type Ranges = [number, number][];
type Node =
  | { op: 'lit'; cp: number }
  | { op: 'class'; ranges: Ranges }
  | { op: 'any'; nl: boolean }
  | { op: 'empty' }
  | { op: 'concat'; subs: Node[] }
  | { op: 'alt'; subs: Node[] }
  | { op: 'repeat'; sub: Node; min: number; max: number }
  | { op: 'star' | 'plus' | 'quest'; sub: Node };

/** reggen's printable characters, in its order. */
const PRINTABLE = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~ \t\n\r';
const PRINTABLE_NO_NL = PRINTABLE.replace(/[\n\r]/g, '');
const MAX_RUNE = 0x10ffff;

const DIGIT: Ranges = [[48, 57]];
const WORD: Ranges = [[48, 57], [65, 90], [95, 95], [97, 122]];
const SPACE: Ranges = [[9, 10], [12, 13], [32, 32]];
const POSIX: Readonly<Record<string, Ranges>> = {
  alnum: [[48, 57], [65, 90], [97, 122]], alpha: [[65, 90], [97, 122]], ascii: [[0, 127]], blank: [[9, 9], [32, 32]],
  cntrl: [[0, 31], [127, 127]], digit: DIGIT, graph: [[33, 126]], lower: [[97, 122]], print: [[32, 126]],
  punct: [[33, 47], [58, 64], [91, 96], [123, 126]], space: [[9, 13], [32, 32]], upper: [[65, 90]], word: WORD,
  xdigit: [[48, 57], [65, 70], [97, 102]],
};

interface Flags { i: boolean; s: boolean }

function normalize(ranges: Ranges): Ranges {
  const sorted = ranges.map((r) => [r[0], r[1]] as [number, number]).sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push(r);
  }
  return out;
}

function negate(ranges: Ranges): Ranges {
  const out: Ranges = [];
  let next = 0;
  for (const [lo, hi] of normalize(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_RUNE) out.push([next, MAX_RUNE]);
  return out;
}

/** Adds the other ASCII case of every letter in the ranges (Go folds all of Unicode; the sources use ASCII). */
function fold(ranges: Ranges): Ranges {
  const out: Ranges = [...ranges];
  for (const [lo, hi] of ranges) {
    const a = Math.max(lo, 65), b = Math.min(hi, 90);
    if (a <= b) out.push([a + 32, b + 32]);
    const c = Math.max(lo, 97), d = Math.min(hi, 122);
    if (c <= d) out.push([c - 32, d - 32]);
  }
  return normalize(out);
}

class Parser {
  private pos = 0;
  constructor(private readonly src: string) {}

  parse(): Node {
    const node = this.alt({ i: false, s: false });
    if (this.pos < this.src.length) throw this.error('unexpected )');
    return node;
  }

  private error(message: string): Error {
    return new Error(`regex ${JSON.stringify(this.src)} at ${this.pos}: ${message}`);
  }

  private alt(flags: Flags): Node {
    const subs = [this.concat(flags)];
    while (this.src[this.pos] === '|') {
      this.pos++;
      subs.push(this.concat(flags));
    }
    return subs.length === 1 ? subs[0]! : { op: 'alt', subs };
  }

  /** A sequence up to `|` or `)`; `(?i)` changes `flags` for the rest of the enclosing group. */
  private concat(flags: Flags): Node {
    const subs: Node[] = [];
    while (this.pos < this.src.length && this.src[this.pos] !== '|' && this.src[this.pos] !== ')') {
      const atom = this.atom(flags);
      if (atom === null) continue;
      subs.push(this.quantified(atom));
    }
    return subs.length === 1 ? subs[0]! : { op: 'concat', subs };
  }

  private quantified(atom: Node): Node {
    let node = atom;
    for (;;) {
      const c = this.src[this.pos];
      if (c === '*' || c === '+' || c === '?') {
        this.pos++;
        node = { op: c === '*' ? 'star' : c === '+' ? 'plus' : 'quest', sub: node };
      } else if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
        if (!m) return node; // a literal '{' (Go accepts it when it does not form a repeat)
        this.pos += m[0].length;
        const min = +m[1]!;
        const max = m[2] === undefined ? min : m[3] === '' ? -1 : +m[3]!;
        node = { op: 'repeat', sub: node, min, max };
      } else {
        return node;
      }
      if (this.src[this.pos] === '?') this.pos++; // non-greedy: no difference to a generator
    }
  }

  private atom(flags: Flags): Node | null {
    const c = this.src[this.pos]!;
    if (c === '(') return this.group(flags);
    if (c === '[') return this.charClass(flags);
    this.pos++;
    if (c === '.') return { op: 'any', nl: flags.s };
    if (c === '^' || c === '$') return { op: 'empty' };
    if (c === '\\') return this.escape(flags, false);
    return this.literal(c.codePointAt(0)!, flags, c.length);
  }

  private literal(cp: number, flags: Flags, width = 1): Node {
    if (width === 1 && cp >= 0xd800 && cp <= 0xdbff) {
      // A character outside the BMP: take both halves.
      cp = this.src.codePointAt(this.pos - 1)!;
      this.pos++;
    }
    if (flags.i && cp >= 97 && cp <= 122) cp -= 32; // Go keeps the smallest rune of the fold orbit: upper case
    return { op: 'lit', cp };
  }

  private group(flags: Flags): Node | null {
    this.pos++; // (
    let inner: Flags = { ...flags };
    if (this.src[this.pos] === '?') {
      this.pos++;
      const named = /^P?<([A-Za-z0-9_]+)>/.exec(this.src.slice(this.pos));
      if (named) {
        this.pos += named[0].length;
      } else {
        const m = /^([imsU-]*)([:)])/.exec(this.src.slice(this.pos));
        if (!m) throw this.error('unsupported group syntax');
        this.pos += m[0].length;
        let on = true;
        const set: Flags = { ...flags };
        for (const f of m[1]!) {
          if (f === '-') on = false;
          else if (f === 'i') set.i = on;
          else if (f === 's') set.s = on;
        }
        if (m[2] === ')') {
          // (?i) alone: applies to the rest of the enclosing group.
          flags.i = set.i;
          flags.s = set.s;
          return null;
        }
        inner = set;
      }
    }
    const node = this.alt(inner);
    if (this.src[this.pos] !== ')') throw this.error('missing )');
    this.pos++;
    return node;
  }

  /** After a backslash; `inClass` changes what \b means and forbids anchors. */
  private escape(flags: Flags, inClass: boolean): Node {
    const c = this.src[this.pos++];
    if (c === undefined) throw this.error('trailing backslash');
    switch (c) {
      case 'd': return { op: 'class', ranges: DIGIT };
      case 'D': return { op: 'class', ranges: negate(DIGIT) };
      case 'w': return { op: 'class', ranges: WORD };
      case 'W': return { op: 'class', ranges: negate(WORD) };
      case 's': return { op: 'class', ranges: SPACE };
      case 'S': return { op: 'class', ranges: negate(SPACE) };
      case 'n': return { op: 'lit', cp: 10 };
      case 'r': return { op: 'lit', cp: 13 };
      case 't': return { op: 'lit', cp: 9 };
      case 'f': return { op: 'lit', cp: 12 };
      case 'v': return { op: 'lit', cp: 11 };
      case 'a': return { op: 'lit', cp: 7 };
      case 'x': {
        const m = /^(?:\{([0-9A-Fa-f]+)\}|([0-9A-Fa-f]{2}))/.exec(this.src.slice(this.pos));
        if (!m) throw this.error('bad \\x escape');
        this.pos += m[0].length;
        return { op: 'lit', cp: parseInt(m[1] ?? m[2]!, 16) };
      }
      case 'b': case 'B': case 'A': case 'z':
        if (inClass) throw this.error(`\\${c} in a class`);
        return { op: 'empty' };
      default:
        if (/[0-9A-Za-z]/.test(c)) throw this.error(`unsupported escape \\${c}`);
        return this.literal(c.charCodeAt(0), flags);
    }
  }

  private charClass(flags: Flags): Node {
    this.pos++; // [
    let negated = false;
    if (this.src[this.pos] === '^') {
      negated = true;
      this.pos++;
    }
    const ranges: Ranges = [];
    let first = true;
    while (this.pos < this.src.length && (this.src[this.pos] !== ']' || first)) {
      first = false;
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.src.slice(this.pos));
      if (posix) {
        this.pos += posix[0].length;
        const r = POSIX[posix[2]!];
        if (!r) throw this.error(`unknown class [:${posix[2]}:]`);
        ranges.push(...(posix[1] ? negate(r) : r));
        continue;
      }
      const lo = this.classAtom(flags);
      if (Array.isArray(lo)) {
        ranges.push(...lo);
        continue;
      }
      if (this.src[this.pos] === '-' && this.src[this.pos + 1] !== ']' && this.pos + 1 < this.src.length) {
        this.pos++;
        const hi = this.classAtom(flags);
        if (Array.isArray(hi) || hi < lo) throw this.error('bad class range');
        ranges.push([lo, hi]);
      } else {
        ranges.push([lo, lo]);
      }
    }
    if (this.src[this.pos] !== ']') throw this.error('missing ]');
    this.pos++;
    let set = normalize(ranges);
    if (flags.i) set = fold(set);
    if (negated) set = negate(set);
    return { op: 'class', ranges: set };
  }

  /** One class member: a code point, or the ranges of an escape such as \d. */
  private classAtom(flags: Flags): number | Ranges {
    const c = this.src[this.pos]!;
    if (c !== '\\') {
      const cp = this.src.codePointAt(this.pos)!;
      this.pos += cp > 0xffff ? 2 : 1;
      return cp;
    }
    this.pos++;
    const node = this.escape({ ...flags, i: false }, true);
    if (node.op === 'class') return node.ranges;
    if (node.op === 'lit') return node.cp;
    throw this.error('bad escape in class');
  }
}

/** Parses Go (RE2) regex syntax into reggen's view of it; throws on syntax the rule sources do not need. */
export function parseGoRegex(source: string): Node {
  return new Parser(source).parse();
}

/** Generates one string for `node` the way reggen's Generate(1) does, drawing from `rand` (uniform in [0, 1)). */
export function generate(node: Node, rand: () => number): string {
  const intn = (n: number) => Math.floor(rand() * n);
  const repeat = (sub: Node, n: number) => {
    let s = '';
    for (let i = 0; i < n; i++) s += generate(sub, rand);
    return s;
  };
  switch (node.op) {
    case 'lit': return String.fromCodePoint(node.cp);
    case 'empty': return '';
    case 'any': {
      const chars = node.nl ? PRINTABLE : PRINTABLE_NO_NL;
      return chars[intn(chars.length)]!;
    }
    case 'class': {
      const ranges = node.ranges;
      if (ranges.length > 0 && ranges[ranges.length - 1]![1] === MAX_RUNE) {
        const chars = [...PRINTABLE].filter((ch) => ranges.some(([lo, hi]) => ch.charCodeAt(0) >= lo && ch.charCodeAt(0) <= hi));
        if (chars.length > 0) return chars[intn(chars.length)]!;
      }
      const total = ranges.reduce((n, [lo, hi]) => n + hi - lo + 1, 0);
      let r = intn(total);
      for (const [lo, hi] of ranges) {
        if (r <= hi - lo) return String.fromCodePoint(lo + r);
        r -= hi - lo + 1;
      }
      return '';
    }
    case 'concat': return node.subs.map((s) => generate(s, rand)).join('');
    case 'alt': return generate(node.subs[intn(node.subs.length)]!, rand);
    case 'star': return repeat(node.sub, intn(2));
    case 'plus': return repeat(node.sub, 1);
    case 'quest': return repeat(node.sub, intn(2));
    case 'repeat': {
      const limit = 1;
      const max = Math.min(node.max, limit);
      const count = max > node.min ? intn(max - node.min + 1) : 0;
      return repeat(node.sub, node.min + count);
    }
  }
}

/** `secrets.NewSecret(regex)`: one string generated from `regex` with `rand`. */
export function newSecret(regex: string, rand: () => number): string {
  return generate(parseGoRegex(regex), rand);
}
