/**
 * The `Sitemap:` records of a robots.txt, in file order (the sitemaps.org protocol's discovery record; RFC 9309 §2.2.4
 * lets other records share the file). Field names are case-insensitive, `#` starts a comment, a BOM may lead the
 * file. At most `maxEntries` values; the scan visits each line once, so its work is bounded by the text read.
 */
export function robotsSitemaps(text: string, maxEntries = 50): string[] {
  const out: string[] = [];
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (start < text.length && out.length < maxEntries) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    start = end + 1; // always past this line
    const m = /^[ \t]*sitemap[ \t]*:[ \t]*([^\s#]+)/i.exec(line);
    if (m) out.push(m[1]!);
  }
  return out;
}

// Links to files a crawl cannot read as a page (documents, media, archives): not worth a request each.
const NOT_A_PAGE = /\.(?:pdf|zip|gz|tgz|rar|7z|dmg|exe|msi|apk|iso|png|jpe?g|gif|webp|avif|svg|ico|bmp|tiff?|mp[34]|m4a|wav|ogg|webm|mov|avi|mkv|css|js|mjs|json|xml|rss|atom|csv|xlsx?|docx?|pptx?|woff2?|ttf|otf|eot)$/i;

/** False for a URL whose path names a file type that is not a web page (`/brochure.pdf`, `/logo.png`). */
export function looksLikePage(url: string): boolean {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return false;
  }
  return !NOT_A_PAGE.test(path);
}
