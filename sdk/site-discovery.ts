/**
 * One console line when `context: 'site'` could not use the site's sitemap, naming what was read instead — the site's
 * developer learns why answers cover fewer (or other) pages than expected. Silent when the sitemap served.
 */
export function reportSiteDiscovery(result: { pages: readonly { url: string }[]; sources: readonly string[] }, sitemap: string | null, origin: string): void {
  if (result.sources.includes('sitemap')) return;
  const where = sitemap ?? '/sitemap.xml';
  const paths = result.pages.map((p) => (p.url.startsWith(origin) ? p.url.slice(origin.length) || '/' : p.url));
  const list = `${paths.join(', ')} (${paths.length} page${paths.length === 1 ? '' : 's'})`;
  const none = `found no sitemap (none at ${where}, none named in /robots.txt)`;
  const what = result.sources.includes('robots.txt')
    ? `read the sitemaps named in /robots.txt (there is none at ${where}): ${list}.`
    : result.sources.includes('links')
      ? `${none}, so it read this page and the pages it links to: ${list}.`
      : `${none} and no link to another page of this site, so it read this page only: ${list}.`;
  console.info(`Kit: context 'site' ${what} Publish a sitemap, or list the pages with context: { urls: [...] }.`);
}
