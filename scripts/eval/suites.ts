import type { EvalSuite } from './suite.js';

/**
 * The suites of CONTRACT §9, loaded on demand so that one suite's dependencies (e.g. a DOM for extraction)
 * do not slow the others.
 */
export const SUITES: Readonly<Record<string, () => Promise<EvalSuite<any>>>> = Object.freeze({
  grounding: async () => (await import('./grounding.js')).groundingSuite,
  qa: async () => (await import('./qa.js')).qaSuite,
  redaction: async () => (await import('./redaction.js')).redactionSuite,
  extraction: async () => (await import('./extraction.js')).extractionSuite,
});
