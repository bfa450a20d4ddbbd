import type { Readability as ReadabilityClass } from '@mozilla/readability';

type ReadabilityCtor = typeof ReadabilityClass;
let loading: Promise<ReadabilityCtor> | null = null;

/**
 * Loads @mozilla/readability on first use through a dynamic import, so bundlers put it in its own chunk
 * (about 11 KB gzipped) that a page using only `context: 'page'` without asking fetches once, lazily.
 * A failed load is not cached: the next call retries.
 */
export function loadReadability(): Promise<ReadabilityCtor> {
  loading ??= import(/* webpackChunkName: "readability" */ '@mozilla/readability')
    .then((m) => (m.Readability ?? (m as unknown as { default: { Readability: ReadabilityCtor } }).default.Readability))
    .catch((err: unknown) => {
      loading = null;
      throw err;
    });
  return loading;
}
