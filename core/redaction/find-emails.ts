import type { Detection } from './types.js';

/** Longest local part (RFC 5321) and domain searched around an '@'. */
const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;
const NON_ASCII_LETTER = /[\p{L}\p{N}]/u;

/**
 * Email addresses found from each '@' outwards (no regex runs over text without an '@'): a local part of the
 * characters real addresses use (letters incl. Unicode as in RFC 6531, digits, . _ % + - ') and a domain of at least two labels whose last label is
 * alphabetic. Retina asset names such as `logo@2x.png` are not addresses.
 */
export function findEmails(text: string, out: Detection[]): void {
  let at = text.indexOf('@');
  let lastEnd = 0;
  while (at !== -1) {
    const hit = emailAround(text, at, lastEnd);
    if (hit) {
      out.push({ start: hit[0], end: hit[1], kind: 'email' });
      lastEnd = hit[1];
      at = text.indexOf('@', hit[1]);
    } else {
      at = text.indexOf('@', at + 1);
    }
  }
}

function emailAround(text: string, at: number, floor: number): [number, number] | null {
  let s = at;
  const minS = Math.max(floor, at - MAX_LOCAL);
  while (s > minS && isLocalChar(text, s - 1)) s--;
  while (s < at && (text[s] === '.' || text[s] === "'" || text[s] === '-')) s++;
  if (s === at || text[at - 1] === '.') return null;
  // `scheme://user:password@host` is a URL with credentials (a secret), not an address.
  if (text[s - 1] === ':' && /:\/\/[^\s@/]*:$/.test(text.slice(Math.max(0, s - 100), s))) return null;
  let e = at + 1;
  const maxE = Math.min(text.length, at + 1 + MAX_DOMAIN);
  while (e < maxE && isDomainChar(text, e)) e++;
  // Trailing dots and hyphens belong to the sentence, not the domain.
  while (e > at + 1 && (text[e - 1] === '.' || text[e - 1] === '-')) e--;
  const domain = text.slice(at + 1, e);
  const labels = domain.split('.');
  if (labels.length < 2 || labels.some((l) => l.length === 0 || l.length > 63 || l[0] === '-' || l[l.length - 1] === '-')) return null;
  const tld = labels[labels.length - 1]!;
  if (tld.length < 2 || !/^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59}|[\p{L}]{2,63})$/u.test(tld)) return null;
  if (/^\d+x$/i.test(labels[0]!)) return null;
  return [s, e];
}

function isLocalChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return true;
  if (c < 128) return c === 46 || c === 95 || c === 37 || c === 43 || c === 45 || c === 39; // . _ % + - '

  return NON_ASCII_LETTER.test(text[i]!);
}

function isDomainChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 46) return true;
  return c >= 128 && NON_ASCII_LETTER.test(text[i]!);
}
