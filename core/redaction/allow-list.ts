import type { Detection } from './types.js';

/**
 * Values a site keeps visible although redaction detects them — its own published contact details, such as
 * `support@shop.example.com` or its hotline. Applied after detection, so it can only unmask, never mask more.
 * An entry is either a value, matched whatever its spacing and punctuation for numbers (`+1 (555) 010-0199` is
 * `+1 555 0100199`) and case-insensitively for addresses; or `@domain`, which keeps every email address at that
 * domain and its subdomains (`@shop.example.com` keeps `help@shop.example.com` and `a@eu.shop.example.com`).
 */
export interface AllowList {
  /** The detections of `text` not covered by an entry (the input array is not changed). */
  filter(text: string, detections: readonly Detection[]): Detection[];
}

// Numbers compare by their letters, digits and a leading '+': the separators a page uses vary.
const compact = (s: string): string => s.toLowerCase().replace(/[^0-9a-z+]/g, '');
/** A compact form this short would match unrelated numbers: such entries count as exact values only. */
const MIN_COMPACT_CHARS = 5;

/** Builds the matcher for `entries` (trimmed; empty ones ignored). */
export function createAllowList(entries: readonly string[]): AllowList {
  const exact = new Set<string>();
  const numbers = new Set<string>();
  const domains: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry.startsWith('@') && entry.length > 1) {
      domains.push(entry.slice(1));
      continue;
    }
    exact.add(entry);
    const c = compact(entry);
    if (c.length >= MIN_COMPACT_CHARS) numbers.add(c);
  }
  const domainAllowed = (address: string): boolean => {
    const domain = address.slice(address.lastIndexOf('@') + 1);
    return domains.some((d) => domain === d || domain.endsWith(`.${d}`));
  };
  const allowed = (d: Detection, value: string): boolean => {
    const lower = value.trim().toLowerCase();
    if (exact.has(lower)) return true;
    if (d.kind === 'email') return domainAllowed(lower);
    if (d.kind === 'phone' || d.kind === 'card' || d.kind === 'iban' || d.kind === 'ssn') return numbers.has(compact(value));
    return false;
  };
  return {
    filter(text, detections) {
      return detections.filter((d) => !allowed(d, text.slice(d.start, d.end)));
    },
  };
}
