/** What one sitemap document lists (sitemaps.org protocol 0.9). */
export interface SitemapScan {
  /** `urlset` lists pages, `sitemapindex` lists more sitemaps; null when the text is not a sitemap at all. */
  readonly kind: 'urlset' | 'sitemapindex' | null;
  /** The `<loc>` values, entity-decoded and trimmed, in document order (at most `maxEntries`). */
  readonly locs: readonly string[];
  /** `<url>` / `<sitemap>` entries seen. */
  readonly entries: number;
  /** True when scanning stopped early (at `maxEntries` or `maxChars`) or the document never closed (a cut body). */
  readonly truncated: boolean;
}

/** Default bound on one `<loc>`: longer values are not URLs a site means (browsers stop near 2 MB; sitemaps at 2,048). */
const MAX_LOC_CHARS = 8_192;
const NAME_CHAR = /[A-Za-z0-9_.:-]/;

/**
 * Scans a sitemap or sitemap index for its `<loc>` entries. A forgiving linear scan rather than an XML parser:
 * real sitemaps are often slightly malformed, a body cut at the byte cap must still yield its complete entries,
 * and the work is bounded by `maxChars` and `maxEntries` whatever the input (no DOM, no backtracking regex).
 * Only the `loc` of each entry counts: extension elements such as `<image:loc>` are ignored.
 */
export function scanSitemap(xml: string, options: { maxEntries: number; maxChars?: number }): SitemapScan {
  const text = options.maxChars !== undefined && xml.length > options.maxChars ? xml.slice(0, options.maxChars) : xml;
  const cutInput = text.length < xml.length;
  const root = readRoot(text);
  if (root === null) return { kind: null, locs: [], entries: 0, truncated: cutInput };

  const entryName = root.prefix + (root.kind === 'urlset' ? 'url' : 'sitemap');
  const locName = root.prefix + 'loc';
  const locs: string[] = [];
  let entries = 0;
  let inEntry = false;
  let haveLoc = false;
  let truncated = cutInput;
  let closed = false;
  let pos = root.end;

  while (pos < text.length) {
    const lt = text.indexOf('<', pos);
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end < 0) { truncated = true; break; }
      pos = end + 3;
      continue;
    }
    if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      if (end < 0) { truncated = true; break; }
      pos = end + 3;
      continue;
    }
    const closing = text[lt + 1] === '/';
    const nameStart = lt + (closing ? 2 : 1);
    const name = readName(text, nameStart);
    pos = nameStart + Math.max(name.length, 1);
    if (closing) {
      if (name === entryName) inEntry = false;
      if (name === root.name) { closed = true; break; }
      continue;
    }
    if (name === entryName) {
      if (entries >= options.maxEntries) { truncated = true; break; }
      entries++;
      inEntry = true;
      haveLoc = false;
    } else if (name === locName && inEntry && !haveLoc) {
      const gt = text.indexOf('>', pos);
      if (gt < 0) { truncated = true; break; }
      if (text[gt - 1] === '/') { pos = gt + 1; continue; } // <loc/>: empty
      const close = text.indexOf('</' + locName, gt + 1);
      if (close < 0) { truncated = true; break; }
      if (close - gt - 1 <= MAX_LOC_CHARS) {
        const value = decodeXmlText(text.slice(gt + 1, close)).trim();
        if (value !== '') {
          locs.push(value);
          haveLoc = true;
        }
      }
      pos = close + 2 + locName.length;
    }
  }
  if (!closed) truncated = true;
  return { kind: root.kind, locs, entries, truncated };
}

/** Skips the BOM, XML declaration, comments, DOCTYPE and processing instructions; returns the root element. */
function readRoot(text: string): { kind: 'urlset' | 'sitemapindex'; name: string; prefix: string; end: number } | null {
  let pos = 0;
  // Bounded: the prolog of a real sitemap is a few hundred bytes; an unbounded prolog is not a sitemap.
  for (let guard = 0; guard < 64; guard++) {
    const lt = text.indexOf('<', pos);
    if (lt < 0 || text.slice(pos, lt).replace(/^\uFEFF/, '').trim() !== '') return null;
    if (text.startsWith('<?', lt) || text.startsWith('<!', lt)) {
      const comment = text.startsWith('<!--', lt);
      const close = comment ? text.indexOf('-->', lt + 4) : text.indexOf('>', lt + 2);
      if (close < 0) return null;
      pos = close + (comment ? 3 : 1);
      continue;
    }
    const name = readName(text, lt + 1);
    const colon = name.lastIndexOf(':');
    const local = name.slice(colon + 1);
    if (local !== 'urlset' && local !== 'sitemapindex') return null;
    return { kind: local, name, prefix: name.slice(0, colon + 1), end: lt + 1 + name.length };
  }
  return null;
}

function readName(text: string, start: number): string {
  let end = start;
  while (end < text.length && end - start < 64 && NAME_CHAR.test(text[end]!)) end++;
  return text.slice(start, end);
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes XML character data: the five predefined entities, numeric references and CDATA sections. */
export function decodeXmlText(raw: string): string {
  let out = '';
  let pos = 0;
  while (pos < raw.length) {
    const cdata = raw.indexOf('<![CDATA[', pos);
    const plainEnd = cdata < 0 ? raw.length : cdata;
    out += decodeEntities(raw.slice(pos, plainEnd));
    if (cdata < 0) break;
    const end = raw.indexOf(']]>', cdata + 9);
    out += raw.slice(cdata + 9, end < 0 ? raw.length : end);
    pos = end < 0 ? raw.length : end + 3;
  }
  return out;
}

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (whole, ref: string) => {
    if (ref[0] !== '#') return ENTITIES[ref] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
