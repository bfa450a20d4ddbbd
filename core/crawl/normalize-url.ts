/** Why a raw URL is not a crawl candidate. */
export type UrlRejection = 'invalid_url' | 'cross_origin';

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * The canonical form of an http(s) URL for crawling and de-duplication, or null when it is not one:
 * resolved against `base`, fragment dropped (a fragment never names another document), empty `?` dropped,
 * percent-escapes upper-cased and unreserved ones decoded (RFC 3986 §6.2.2). Scheme, host, default port and
 * dot segments are already canonical after WHATWG URL parsing. URLs carrying user:password are refused:
 * the crawler never sends credentials in a URL. Query order is kept: servers may give it meaning.
 */
export function normalizeUrl(raw: string, base?: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return url.origin + normalizeEscapes(url.pathname) + normalizeEscapes(url.search);
}

/** The origin (`https://example.com:8443`) of an absolute http(s) URL, or null. */
export function originOf(raw: string): string | null {
  const normalized = normalizeUrl(raw);
  return normalized === null ? null : new URL(normalized).origin;
}

function normalizeEscapes(part: string): string {
  if (!part.includes('%')) return part;
  return part.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

/**
 * The crawl's set of candidate URLs on one origin, in insertion order. `add` reports why a URL was not
 * added, so the planner can count other-origin and duplicate entries without keeping them.
 */
export class SameOriginUrlSet {
  readonly origin: string;
  readonly #seen = new Set<string>();
  readonly #ordered: string[] = [];

  constructor(origin: string) {
    this.origin = origin;
  }

  /** Adds the normalised URL; returns it, or the reason it was left out ('duplicate' when already present). */
  add(raw: string, base?: string): { ok: true; url: string } | { ok: false; reason: UrlRejection | 'duplicate'; url: string | null } {
    const url = normalizeUrl(raw, base);
    if (url === null) return { ok: false, reason: 'invalid_url', url: null };
    if (new URL(url).origin !== this.origin) return { ok: false, reason: 'cross_origin', url };
    if (this.#seen.has(url)) return { ok: false, reason: 'duplicate', url };
    this.#seen.add(url);
    this.#ordered.push(url);
    return { ok: true, url };
  }

  has(url: string): boolean {
    return this.#seen.has(url);
  }

  get size(): number {
    return this.#ordered.length;
  }

  /** The URLs in the order they were first added. */
  toArray(): string[] {
    return this.#ordered.slice();
  }
}

/** The distinct same-origin URLs of `raws`, normalised, in first-seen order (what the planner keeps of a list). */
export function dedupeSameOrigin(raws: readonly string[], base: string): string[] {
  const origin = originOf(base);
  if (origin === null) return [];
  const set = new SameOriginUrlSet(origin);
  for (const raw of raws) set.add(raw, base);
  return set.toArray();
}
