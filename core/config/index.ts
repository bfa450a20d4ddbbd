export { normalizeConfig, type NormalizedConfig } from './normalize-config.js';
export { vetPattern, type PatternVerdict } from './pattern-safety.js';
export * from './defaults.js';
export * from './types.js';
