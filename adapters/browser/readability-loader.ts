import type { Readability as ReadabilityClass } from '@mozilla/readability';

type ReadabilityCtor = typeof ReadabilityClass;
let loading: Promise<ReadabilityCtor> | null = null;

/**
 * Loads Mozilla Readability on first use through a dynamic import, so bundlers put it in its own chunk (about 11 KB
 * gzipped) that a page using only `context: 'page'` without asking fetches once, lazily. The module itself
 * (`Readability.js`), not the package's index, which also brings `isProbablyReaderable` — never used here (0.5 KB
 * gzipped less before a first answer). A failed load is not cached: the next call retries.
 */
export function loadReadability(): Promise<ReadabilityCtor> {
  loading ??= import(/* webpackChunkName: "readability" */ '@mozilla/readability/Readability.js')
    .then((m) => m.default)
    .catch((err: unknown) => {
      loading = null;
      throw err;
    });
  return loading;
}
