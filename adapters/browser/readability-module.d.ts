// The package's `Readability.js` on its own (CommonJS, `module.exports = Readability`), which its index re-exports:
// adapters/browser/readability-loader.ts imports it without the index's `isProbablyReaderable`.
declare module '@mozilla/readability/Readability.js' {
  import type { Readability } from '@mozilla/readability';
  const ReadabilityClass: typeof Readability;
  export default ReadabilityClass;
}
