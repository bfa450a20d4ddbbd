import type { RedactConfig } from '../config/types.js';
import { createRedactor } from './create-redactor.js';
import type { Redactor, RedactorDeps } from './types.js';

/**
 * Builds a redactor with every engine the config needs, loading the heavy ones on demand: the phone module
 * (libphonenumber-js metadata) only when `pii` is on, the linear-time regex engine only when custom patterns
 * exist. This is the entry the SDK uses, so its main bundle holds neither. Rejects with KitError('invalid_config')
 * when a custom pattern cannot run in linear time.
 */
export async function loadRedactor(config: RedactConfig): Promise<Redactor> {
  const deps: { -readonly [K in keyof RedactorDeps]: RedactorDeps[K] } = {};
  if (config.pii) deps.findPhones = (await import('./phone.js')).findPhones;
  if (config.patterns.length > 0) deps.matchCustom = (await import('./custom-matcher.js')).createCustomMatcher(config.patterns);
  return createRedactor(config, deps);
}
