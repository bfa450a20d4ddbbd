/** Longest page URL kept in logs and counts. */
export const MAX_PAGE_URL_CHARS = 2_048;

/**
 * The page a question was asked on, as insights store it: http(s) only, no credentials, no fragment, and no query
 * string unless the organisation chose to keep it (queries often carry search terms, emails or tokens).
 * Returns null for anything that is not an http(s) URL.
 */
export function cleanPageUrl(raw: string | null | undefined, keepQuery = false): string | null {
  if (typeof raw !== 'string' || raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.username = '';
  url.password = '';
  url.hash = '';
  if (!keepQuery) url.search = '';
  return url.href.slice(0, MAX_PAGE_URL_CHARS);
}
