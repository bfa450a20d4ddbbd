/**
 * The absolute URL to link to, or null when `url` is not http(s). Relative URLs resolve against `base` (the page).
 * Only these two schemes become links so a model or a crawled page can never plant `javascript:`, `data:` or
 * `vbscript:` hrefs in the widget.
 */
export function safeHttpUrl(url: unknown, base: string): string | null {
  if (typeof url !== 'string') return null;
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** Like safeHttpUrl, and also `mailto:` (the contact links of answers and refusals); every other scheme is null. */
export function safeLinkUrl(url: unknown, base: string): string | null {
  if (typeof url === 'string' && /^\s*mailto:/i.test(url)) {
    try {
      const parsed = new URL(url.trim());
      return parsed.protocol === 'mailto:' ? parsed.href : null;
    } catch {
      return null;
    }
  }
  return safeHttpUrl(url, base);
}
