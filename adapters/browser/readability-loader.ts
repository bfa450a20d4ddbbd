import type { Readability as ReadabilityClass } from '@mozilla/readability';

/** Readability's class. */
export type ReadabilityCtor = typeof ReadabilityClass;
let loading: Promise<ReadabilityCtor> | null = null;

/**
 * Loads Mozilla Readability on first use through a dynamic import, so bundlers put it in its own chunk (about 11 KB
 * gzipped) that a page using only `context: 'page'` without asking fetches once, lazily. The module itself
 * (`Readability.js`), not the package's index, which also brings `isProbablyReaderable` — never used here (0.5 KB
 * gzipped less before a first answer). A failed load is not cached: the next call retries.
 */
export function loadReadability(): Promise<ReadabilityCtor> {
  // The file alone has no declarations (the package types its index); CommonJS `module.exports = Readability`, so the
  // import's `default` is the class. No ambient declaration file: every tsconfig that compiles this file (the npm
  // package's declaration build too) sees the same thing.
  // @ts-expect-error TS7016: no declaration file for '@mozilla/readability/Readability.js'
  loading ??= (import(/* webpackChunkName: "readability" */ '@mozilla/readability/Readability.js') as Promise<{ default: ReadabilityCtor }>)
    .then((m) => m.default)
    .catch((err: unknown) => {
      loading = null;
      throw err;
    });
  return loading;
}
