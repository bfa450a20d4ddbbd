import { extractFrom, type ExtractOptions, type MainContent } from './extract-main-content.js';
import { leanReadability } from './lean-readability.js';

/** Options of extractFromHtml. */
export interface ExtractFromHtmlOptions extends ExtractOptions {
  /** Parses HTML into a Document; default the browser's DOMParser (which runs no script and loads nothing). */
  readonly parseHtml?: (html: string) => Document;
}

/**
 * Main content of fetched HTML (a crawled page), or null when it has no readable text. Fits the crawler's
 * ExtractHtml hook: `crawlSite({ extract: (html, url) => extractFromHtml(html, url), … })`. Readability is the
 * crawl's leaner subclass unless `options.readability` says otherwise (the same text: lean-readability.ts).
 */
export async function extractFromHtml(html: string, url: string, options: ExtractFromHtmlOptions = {}): Promise<MainContent | null> {
  const parse = options.parseHtml ?? ((source: string) => new DOMParser().parseFromString(source, 'text/html'));
  const content = await extractFrom(parse(html), () => parse(html), url, { readability: leanReadability, ...options });
  return content.text === '' ? null : content;
}
