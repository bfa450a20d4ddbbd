import { fail, ok, type Result } from '../../core/errors/index.js';

/** Largest number of entries in `allowed_origins`. */
export const MAX_ALLOWED_ORIGINS = 100;

const EXTENSION = /^chrome-extension:\/\/([a-p]{32})$/;
const WILDCARD = /^(https?):\/\/\*\.([^/:*]+)(:\d{1,5})?$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function exactOrigin(value: string): string | null {
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return null;
  if (url.hostname.includes('*')) return null;
  return url.origin;
}

/**
 * Checks and normalises one `allowed_origins` entry: an exact origin (`https://shop.example.com`,
 * `http://localhost:3000`), a subdomain wildcard (`https://*.example.com`, any depth, not the apex itself),
 * or a Chrome extension (`chrome-extension://<32 letters a–p>`). Lower-cased, default port and trailing `/` removed.
 */
export function normalizeOriginPattern(input: string): Result<string, 'invalid_origin'> {
  const value = input.trim().toLowerCase().replace(/\/$/, '');
  if (EXTENSION.test(value)) return ok(value);
  const wildcard = WILDCARD.exec(value);
  if (wildcard) {
    const [, scheme, domain, port = ''] = wildcard;
    // Validate the rest as a host by parsing it with a stand-in label; require a registrable-looking domain.
    const origin = exactOrigin(`${scheme}://x.${domain}${port}`);
    if (!origin || domain!.split('.').length < 2) return fail('invalid_origin', `"${input}" is not a valid wildcard origin`);
    return ok(origin.replace('://x.', '://*.'));
  }
  const origin = exactOrigin(value);
  if (origin) return ok(origin);
  // What a file: page or a sandboxed frame shows as its origin: opaque, sent as "null", and never allowable.
  if (value === 'null' || value.startsWith('file:')) {
    return fail('invalid_origin', `"${input.slice(0, 80)}" is not an origin: a file: page or a sandboxed frame sends the opaque origin "null", which no key can allow. Serve the page over http(s), e.g. at http://localhost:8080, and add that origin`);
  }
  return fail('invalid_origin', `"${input.slice(0, 80)}" is not an origin (scheme://host[:port])`);
}

/**
 * True when a browser `Origin` is allowed by a key's normalised patterns. An empty list allows only
 * loopback origins (http(s)://localhost, 127.0.0.1 and [::1], any port) — CONTRACT §1.
 */
export function originAllowed(patterns: readonly string[], origin: string): boolean {
  const normalized = origin.toLowerCase();
  if (EXTENSION.test(normalized)) return patterns.includes(normalized);
  const exact = exactOrigin(normalized);
  if (!exact || exact !== normalized) return false; // "null", paths, garbage
  const url = new URL(exact);
  if (patterns.length === 0) return LOOPBACK_HOSTS.has(url.hostname);
  for (const pattern of patterns) {
    if (pattern === exact) return true;
    const wildcard = WILDCARD.exec(pattern);
    if (!wildcard) continue;
    const [, scheme, domain, port = ''] = wildcard;
    if (url.protocol === `${scheme}:` && (url.port ? `:${url.port}` : '') === port && url.hostname.endsWith(`.${domain}`)) return true;
  }
  return false;
}
