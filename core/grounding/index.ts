export { checkGrounding, refusalMessage, GROUNDING_DEFAULTS } from './gate.js';
export type { GroundingOptions, GroundingResult, GroundingReason } from './gate.js';
export { isPageQuestion } from './page-question.js';
