import { RE2JS } from 're2js';
import { KitError } from '../errors/index.js';
import type { CustomMatcher, Detection } from './types.js';

/**
 * Custom patterns run on RE2JS, a linear-time (automaton, not backtracking) engine, so no pattern can hang the
 * page whatever text it meets — vetPattern's static rules cannot promise that alone (`\w*\w*\w*\w*\w*x` passes
 * them and takes seconds on 64 characters with a backtracking engine). Loaded lazily: only when patterns exist.
 * Lookbehind is supported; lookahead and back-references are not expressible in linear time and are refused.
 */

/** Most matches kept per pattern and call (default 10,000): enough for any page, bounded for pathological ones. */
export const MAX_MATCHES_PER_PATTERN = 10_000;

/** Compiles every pattern; throws KitError('invalid_config') naming the first one the linear engine cannot run. */
export function createCustomMatcher(patterns: readonly RegExp[]): CustomMatcher {
  const compiled = patterns.map((p, i) => {
    try {
      let flags = RE2JS.LOOKBEHINDS;
      if (p.ignoreCase) flags |= RE2JS.CASE_INSENSITIVE;
      if (p.multiline) flags |= RE2JS.MULTILINE;
      if (p.dotAll) flags |= RE2JS.DOTALL;
      return RE2JS.compile(RE2JS.translateRegExp(p.source), flags);
    } catch (cause) {
      throw new KitError('invalid_config', `redact.patterns[${i}] uses syntax that cannot run in linear time (lookahead or a back-reference); rewrite it without them`, { cause, details: { option: `redact.patterns[${i}]` } });
    }
  });
  return (text: string, out: Detection[]) => {
    for (const re of compiled) {
      let n = 0;
      for (const m of re.matchAll(text)) {
        const start = m.index ?? 0;
        if (m[0].length === 0) continue;
        out.push({ start, end: start + m[0].length, kind: 'custom' });
        if (++n >= MAX_MATCHES_PER_PATTERN) break;
      }
    }
  };
}
