import type { RedactConfig, RedactKind } from '../config/types.js';
import { createAllowList } from './allow-list.js';
import { findCards } from './find-cards.js';
import { findEmails } from './find-emails.js';
import { findIbans } from './find-ibans.js';
import { findSecrets } from './find-secrets.js';
import { findSsns } from './find-ssns.js';
import { mergeDetections } from './merge-detections.js';
import type { Detection, Finder, RedactionResult, Redactor, RedactorDeps } from './types.js';

const KINDS: readonly RedactKind[] = ['secret', 'email', 'phone', 'card', 'iban', 'ssn', 'custom'];

/**
 * Builds a synchronous redactor from a normalised RedactConfig. Phone numbers need `deps.findPhones` and custom
 * patterns need `deps.matchCustom`, because their engines are too large for the SDK's main bundle; loadRedactor
 * supplies both. Throws a TypeError (a programming error) when patterns are configured without a matcher.
 */
export function createRedactor(config: RedactConfig, deps: RedactorDeps = {}): Redactor {
  const finders: Finder[] = [];
  if (config.secrets) finders.push(findSecrets);
  if (config.pii) {
    finders.push(findEmails, findCards, findIbans, findSsns);
    if (deps.findPhones) finders.push(deps.findPhones);
  }
  if (config.patterns.length > 0) {
    if (!deps.matchCustom) throw new TypeError('createRedactor: custom patterns need deps.matchCustom (use loadRedactor)');
    finders.push(deps.matchCustom);
  }
  const replacements = new Map(KINDS.map((k) => [k, config.replacement.split('<KIND>').join(k.toUpperCase())] as const));
  const allowList = config.allow && config.allow.length > 0 ? createAllowList(config.allow) : null;

  return {
    redact(text: string): RedactionResult {
      if (typeof text !== 'string' || text.length === 0 || finders.length === 0) return { text: typeof text === 'string' ? text : '', counts: {}, spans: [] };
      const detections: Detection[] = [];
      for (const find of finders) find(text, detections);
      const spans = mergeDetections(allowList ? allowList.filter(text, detections) : detections);
      if (spans.length === 0) return { text, counts: {}, spans };
      const counts: Partial<Record<RedactKind, number>> = {};
      const parts: string[] = [];
      let pos = 0;
      for (const s of spans) {
        parts.push(text.slice(pos, s.start), replacements.get(s.kind)!);
        counts[s.kind] = (counts[s.kind] ?? 0) + 1;
        pos = s.end;
      }
      parts.push(text.slice(pos));
      return { text: parts.join(''), counts, spans };
    },
  };
}
