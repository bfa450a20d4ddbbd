import * as retModule from 'ret';

// ret is CommonJS (module.exports = tokenizer, plus .types): Node's ESM loader exposes the function as `default`,
// bundlers may expose `tokenizer`; accept either.
const retExports = retModule as unknown as { default?: typeof retModule.tokenizer; tokenizer?: typeof retModule.tokenizer; types: typeof retModule.types };
const tokenize = (retExports.tokenizer ?? retExports.default)!;
const types = retExports.types ?? (retExports.default as unknown as { types: typeof retModule.types }).types;

/**
 * Static vetting of customer-supplied redaction patterns. A pattern runs over every page a visitor opens,
 * so one with catastrophic backtracking could freeze a stranger's tab. Refused shapes (after
 * Davis et al., "The impact of regular expression denial of service", and safe-regex's star-height rule):
 * - a repetition nested inside another repetition: `(a+)+`, `(\w*\s?)*`
 * - a repetition over an alternation: `(a|aa)+`, `(x|y)*` — overlapping branches backtrack exponentially
 * - more than MAX_UNBOUNDED unbounded quantifiers in one pattern (polynomial blow-up)
 * Redaction also bounds the text each custom pattern sees, so what passes here stays cheap at run time.
 */
export const MAX_UNBOUNDED = 6;

type Node = { type: number; stack?: Node[]; options?: Node[][]; value?: unknown; min?: number; max?: number | null };

export type PatternVerdict = { safe: true } | { safe: false; why: string };

/** Says whether a pattern source is safe to run on untrusted page text. */
export function vetPattern(source: string): PatternVerdict {
  let root: Node;
  try {
    root = tokenize(source) as unknown as Node;
  } catch {
    return { safe: false, why: 'it is not a valid regular expression' };
  }
  const state = { unbounded: 0 };
  const why = walk(root, 0, state);
  if (why) return { safe: false, why };
  if (state.unbounded > MAX_UNBOUNDED) return { safe: false, why: `it has more than ${MAX_UNBOUNDED} unbounded quantifiers` };
  return { safe: true };
}

function walk(node: Node, repDepth: number, state: { unbounded: number }): string | null {
  if (node.type === types.REPETITION) {
    if (repDepth > 0) return 'it nests a quantifier inside another (catastrophic backtracking)';
    if (node.max === null || node.max === Infinity) state.unbounded++;
    const inner = node.value as Node;
    if (inner.type === types.GROUP && inner.options && inner.options.length > 1) {
      return 'it repeats an alternation such as (a|b)+ (catastrophic backtracking); use a character class instead';
    }
    return walk(inner, repDepth + 1, state);
  }
  for (const branch of node.options ?? []) {
    for (const child of branch) {
      const why = walk(child, repDepth, state);
      if (why) return why;
    }
  }
  for (const child of node.stack ?? []) {
    const why = walk(child, repDepth, state);
    if (why) return why;
  }
  if (node.type === types.GROUP && node.value && typeof node.value === 'object') {
    const inner = node.value as Node;
    if (Array.isArray(inner.stack) || Array.isArray(inner.options)) return walk(inner, repDepth, state);
  }
  return null;
}
