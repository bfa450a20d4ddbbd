import { domToText, type Heading } from './extract-text.js';
import { loadReadability, type ReadabilityCtor } from './readability-loader.js';

/** The main content of a page: what Kit indexes, answers from and cites. */
export interface MainContent {
  readonly title: string;
  /** Plain text, one block per line, paragraphs separated by a blank line; headings included as lines. */
  readonly text: string;
  readonly headings: readonly Heading[];
  /** `readability` when Readability's article was used; `fallback` when the page's body text was (see minReadableChars). */
  readonly method: 'readability' | 'fallback';
  readonly lang: string | null;
}

/** Options of extractMainContent. */
export interface ExtractOptions {
  /**
   * Readability's article is used when it has at least this many characters of text; below it, the fallback
   * (body text minus navigation, header, footer, aside, forms and hidden elements) is used unless it is empty.
   * Default 140 — a short news brief still counts, a cookie banner picked as "the article" does not.
   */
  readonly minReadableChars?: number;
  /**
   * Documents with more elements than this skip Readability (whose scoring grows with the DOM) and take the
   * cheaper fallback walk. Default 0 = no bound (a fetched page is already capped at 5 MB).
   */
  readonly maxElemsToParse?: number;
  /** Adapts Readability's class before use (the crawl's: adapters/browser/lean-readability.ts). Default: as loaded. */
  readonly readability?: (base: ReadabilityCtor) => ReadabilityCtor;
}

/** Default of ExtractOptions.minReadableChars. */
export const MIN_READABLE_CHARS = 140;

/**
 * Main content of a document, title and headings kept: Mozilla Readability (Firefox Reader View, lazy-loaded),
 * with a fallback for pages it rejects. The live page is never modified: Readability works on a clone.
 */
export async function extractMainContent(doc: Document, url: string, options: ExtractOptions = {}): Promise<MainContent> {
  return extractFrom(doc.cloneNode(true) as Document, () => doc, url, options);
}

/**
 * Shared by extractMainContent and extractFromHtml: `working` may be modified by Readability; `pristine` gives an
 * unmodified document for the fallback (the live page, or a second parse of fetched HTML).
 */
export async function extractFrom(working: Document, pristine: () => Document, url: string, options: ExtractOptions = {}): Promise<MainContent> {
  const minChars = options.minReadableChars ?? MIN_READABLE_CHARS;
  const pageTitle = (working.title ?? '').trim();
  const lang = working.documentElement?.getAttribute('lang') || null;
  let article: { title: string; text: string; headings: Heading[] } | null = null;
  const maxElems = options.maxElemsToParse ?? 0;
  // Counted here, not left to Readability: its own check uses getElementsByTagName('*'), which some DOMs (linkedom) do not support.
  if (maxElems <= 0 || working.querySelectorAll('*').length <= maxElems) {
    try {
      const loaded = await loadReadability();
      const Readability = options.readability?.(loaded) ?? loaded;
      const parsed = new Readability<Element>(working, { serializer: (el) => el as Element }).parse();
      if (parsed?.content) article = { title: (parsed.title ?? '').trim(), ...domToText(parsed.content) };
    } catch {
      // Readability throws on some malformed DOMs: the fallback takes over.
    }
  }
  if (article !== null && article.text.length >= minChars) {
    return { title: article.title || pageTitle || firstHeading(article.headings) || url, text: article.text, headings: article.headings, method: 'readability', lang };
  }
  // Readability found little: on short pages it returns the whole body, navigation included; the fallback drops it.
  const fallback = domToText(fallbackRoot(pristine()), { skipFurniture: true });
  if (article !== null && fallback.text === '') {
    return { title: article.title || pageTitle || firstHeading(article.headings) || url, text: article.text, headings: article.headings, method: 'readability', lang };
  }
  const title = article?.title || pageTitle || firstHeading(fallback.headings) || url;
  return { title, text: fallback.text, headings: fallback.headings, method: 'fallback', lang };
}

/** The element whose text the fallback reads: a single `<main>` (or role=main) with text, else `<body>`. */
function fallbackRoot(doc: Document): Node {
  const mains = doc.querySelectorAll('main, [role="main"]');
  if (mains.length === 1 && (mains[0]!.textContent ?? '').trim().length >= MIN_READABLE_CHARS) return mains[0]!;
  return doc.body ?? doc.documentElement ?? doc;
}

function firstHeading(headings: readonly Heading[]): string {
  return headings[0]?.text ?? '';
}
