/**
 * Redaction (SPEC §2.3): masks secrets and personal data in page text before it reaches a model.
 * This entry imports no phone metadata and no regex engine; loadRedactor fetches them when the config needs them.
 */
export { createRedactor } from './create-redactor.js';
export { loadRedactor } from './load-redactor.js';
export { mergeDetections } from './merge-detections.js';
export type { CustomMatcher, Detection, Finder, RedactionResult, RedactionSpan, Redactor, RedactorDeps } from './types.js';
