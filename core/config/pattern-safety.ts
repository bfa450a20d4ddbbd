/**
 * Static vetting of customer-supplied redaction patterns. A pattern runs over every page a visitor opens,
 * so one with catastrophic backtracking could freeze a stranger's tab. Refused shapes (after safe-regex's
 * star-height rule and Davis et al., "The impact of regular expression denial of service", 2018):
 * - a repeating quantifier over a group that itself repeats: `(a+)+`, `(\w*\s?)*`
 * - a repeating quantifier over an alternation: `(a|aa)+`, `(?:x|y)*` — overlapping branches backtrack exponentially
 * - more than MAX_UNBOUNDED unbounded quantifiers in one pattern (polynomial blow-up)
 * A small scanner rather than a full regex parser: it only needs group structure, and it stays tiny in the SDK
 * bundle. Validity itself is checked by the engine (`new RegExp`) before this runs.
 * Redaction also bounds the text each custom pattern sees, so what passes here stays cheap at run time.
 */
export const MAX_UNBOUNDED = 6;

export type PatternVerdict = { safe: true } | { safe: false; why: string };

type Frame = { repeats: boolean; alternates: boolean };
type Atom = { kind: 'none' } | { kind: 'char' } | { kind: 'group'; repeats: boolean; alternates: boolean };

const NESTED = 'it nests a quantifier inside another (catastrophic backtracking)';
const ALTERNATION = 'it repeats an alternation such as (a|b)+ (catastrophic backtracking); use a character class instead';

/** Says whether a (syntactically valid) pattern source is safe to run on untrusted page text. */
export function vetPattern(source: string): PatternVerdict {
  let unicode = true;
  try {
    new RegExp(source, 'u');
  } catch {
    unicode = false;
    try {
      new RegExp(source);
    } catch {
      return { safe: false, why: 'it is not a valid regular expression' };
    }
  }
  const stack: Frame[] = [{ repeats: false, alternates: false }];
  let last: Atom = { kind: 'none' };
  let unbounded = 0;
  // Every branch computes where the next token starts; the loop moves there, and at least one character on,
  // so the scan ends after at most source.length steps whatever the input (issue #10: `a\u{` once jumped back).
  for (let i = 0; i < source.length; ) {
    const c = source[i]!;
    let next: number;
    if (c === '\\') {
      next = escapeEnd(source, i, unicode);
      last = { kind: 'char' };
    } else if (c === '[') {
      next = skipClass(source, i);
      last = { kind: 'char' };
    } else if (c === '(') {
      stack.push({ repeats: false, alternates: false });
      next = i + groupPrefixLength(source, i);
      last = { kind: 'none' };
    } else if (c === '|') {
      stack[stack.length - 1]!.alternates = true;
      next = i + 1;
      last = { kind: 'none' };
    } else if (c === ')') {
      const frame = stack.length > 1 ? stack.pop()! : stack[0]!;
      if (frame.repeats) stack[stack.length - 1]!.repeats = true;
      next = i + 1;
      last = { kind: 'group', repeats: frame.repeats, alternates: frame.alternates };
    } else {
      const q = readQuantifier(source, i);
      if (q) {
        next = i + q.length;
        if (source[next] === '?') next++; // lazy modifier
        if (q.max > 1) {
          if (last.kind === 'group' && last.repeats) return { safe: false, why: NESTED };
          if (last.kind === 'group' && last.alternates) return { safe: false, why: ALTERNATION };
          stack[stack.length - 1]!.repeats = true;
        }
        if (q.max === Infinity && ++unbounded > MAX_UNBOUNDED) return { safe: false, why: `it has more than ${MAX_UNBOUNDED} unbounded quantifiers` };
        last = { kind: 'none' };
      } else {
        next = i + 1;
        last = { kind: 'char' };
      }
    }
    i = Math.max(next, i + 1);
  }
  return { safe: true };
}

/**
 * Index after the escape at `start`. `\p{…}`, `\P{…}`, `\u{…}` (unicode mode) and `\k<…>` carry a bracketed argument
 * that must not read as a quantifier; without its closing bracket (legal outside unicode mode, where `\u{` is a
 * literal "u{") or outside unicode mode (where `\p{2}` is "p" twice), the escape is just its two characters.
 */
function escapeEnd(source: string, start: number, unicode: boolean): number {
  const kind = source[start + 1];
  const open = source[start + 2];
  let close: string | null = null;
  if (kind === 'k' && open === '<') close = '>';
  else if (unicode && (kind === 'p' || kind === 'P' || kind === 'u') && open === '{') close = '}';
  if (close === null) return start + 2;
  const at = source.indexOf(close, start + 3);
  return at === -1 ? start + 2 : at + 1;
}

function skipClass(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === '^') i++;
  if (source[i] === ']') i++; // a leading ] is literal in non-unicode mode; `[]` and `[^]` are rare enough
  while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
  return i + 1;
}

function groupPrefixLength(source: string, start: number): number {
  if (source[start + 1] !== '?') return 1;
  const rest = source.slice(start + 2, start + 4);
  if (rest[0] === ':' || rest[0] === '=' || rest[0] === '!') return 3;
  if (rest === '<=' || rest === '<!') return 4;
  if (rest[0] === '<') {
    // A named group `(?<name>`; an unclosed one cannot compile, but the scan must still move on.
    const close = source.indexOf('>', start + 3);
    return close === -1 ? 3 : close - start + 1;
  }
  return 2;
}

function readQuantifier(source: string, i: number): { length: number; max: number } | null {
  const c = source[i];
  if (c === '*' || c === '+') return { length: 1, max: Infinity };
  if (c === '?') return { length: 1, max: 1 };
  if (c !== '{') return null;
  const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24));
  if (!m) return null;
  const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
  return { length: m[0].length, max };
}
