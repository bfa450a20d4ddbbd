/**
 * The SDK's build of adapters/browser/readability-loader.ts (webpack.config.js swaps it in): Mozilla Readability
 * inside the runtime chunk instead of a chunk of its own. Every start reads the page with it at once, so a chunk of
 * its own only added a round trip after the runtime's, and its loading code to the entry (docs/sdk.md "Budgets").
 * Same signature as the adapter's loader.
 */
import type { Readability as ReadabilityClass } from '@mozilla/readability';
// @ts-expect-error TS7016: no declaration file for '@mozilla/readability/Readability.js' (see readability-loader.ts)
import Readability from '@mozilla/readability/Readability.js';

export function loadReadability(): Promise<typeof ReadabilityClass> {
  return Promise.resolve(Readability as typeof ReadabilityClass);
}
