/**
 * Kit's browser SDK: `Kit.init(config)`. The composition root of the SDK (STYLE.md): it validates options with
 * core's config and wires core, the browser adapters and the remote client into an instance.
 */
import { normalizeConfig } from '../core/config/index.js';

export const version = '0.1.0';

/** Validates the options; the instance itself is composed by the SDK issue (#6). */
export function init(config: unknown) {
  const { config: normalized, warnings } = normalizeConfig(config);
  return { config: normalized, warnings };
}
