/**
 * The targets of a document's links, in document order, as the browser resolved them (`a.href` is absolute):
 * what a site crawl falls back to when the site lists no sitemap. Links marked `download` or `rel="nofollow"` are
 * left out — the site itself says they are not pages to follow. At most `max` (default 1,000).
 */
export function pageLinks(doc: Document, max = 1_000): string[] {
  const out: string[] = [];
  for (const a of doc.querySelectorAll<HTMLAnchorElement | HTMLAreaElement>('a[href], area[href]')) {
    if (out.length >= max) break;
    if (a.hasAttribute('download') || /(?:^|\s)nofollow(?:\s|$)/i.test(a.rel)) continue;
    out.push(a.href);
  }
  return out;
}
