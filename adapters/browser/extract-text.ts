import { cleanText } from '../../core/extraction/clean-text.js';

/** A heading of the main content, kept for navigation and citation context. */
export interface Heading {
  readonly level: number;
  readonly text: string;
}

/** Elements whose text is never content. */
const NEVER_TEXT = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'IFRAME', 'OBJECT', 'EMBED', 'HEAD', 'SELECT', 'DATALIST', 'MATH']);
/** Page furniture the fallback leaves out (header/footer only outside an article or main, where they hold titles and bylines). */
const FURNITURE = new Set(['NAV', 'ASIDE', 'FORM', 'BUTTON', 'DIALOG', 'MENU']);
const FURNITURE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog', 'alertdialog', 'menu', 'menubar', 'toolbar', 'tablist']);
const CONTENT_CONTAINERS = new Set(['ARTICLE', 'MAIN']);
/** Elements that start a new line of text. */
const BLOCKS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BODY', 'CAPTION', 'DD', 'DETAILS', 'DIALOG', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION',
  'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HGROUP', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION',
  'SUMMARY', 'TABLE', 'TBODY', 'TFOOT', 'THEAD', 'TR', 'UL', 'BR', 'LEGEND', 'OPTION',
]);
/** Table cells are separated by a space, rows by a line break. */
const CELLS = new Set(['TD', 'TH']);
const PARAGRAPHS = new Set(['P', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'BLOCKQUOTE', 'PRE', 'TABLE', 'UL', 'OL', 'DL', 'SECTION', 'ARTICLE', 'FIGURE']);

/** Options of domToText. */
export interface DomToTextOptions {
  /** Also leave out navigation, asides, forms, ARIA landmarks of furniture and hidden elements (the fallback). Default false. */
  readonly skipFurniture?: boolean;
}

/**
 * The readable text of a DOM subtree with line breaks where blocks end (so adjacent paragraphs never fuse into one
 * word, as `textContent` would), whitespace collapsed outside `<pre>`, and its headings in document order.
 * Iterative, so a pathologically deep DOM cannot overflow the stack.
 */
export function domToText(root: Node, options: DomToTextOptions = {}): { text: string; headings: Heading[] } {
  const parts: string[] = [];
  const headings: Heading[] = [];
  // Breaks are held back until the next text, and the larger one wins, so `</li><li>` gives one line break, not two.
  let pendingBreak = 0;
  const requestBreak = (size: number) => { pendingBreak = Math.max(pendingBreak, size); };
  const pushText = (value: string) => {
    if (pendingBreak > 0) {
      if (value.trim() === '') return;
      if (parts.length > 0) parts.push(pendingBreak === 2 ? '\n\n' : '\n');
      pendingBreak = 0;
    }
    parts.push(value);
  };
  type Frame = { node: Node; exit: boolean; inContent: boolean; inPre: boolean; headingStart: number };
  const stack: Frame[] = [{ node: root, exit: false, inContent: false, inPre: false, headingStart: -1 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { node } = frame;
    if (node.nodeType === 3) {
      const value = node.nodeValue ?? '';
      pushText(frame.inPre ? value : value.replace(/\s+/g, ' '));
      continue;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) continue;
    const tag = node.nodeType === 1 ? (node as Element).tagName.toUpperCase() : '';
    if (frame.exit) {
      if (frame.headingStart >= 0) {
        const text = parts.slice(frame.headingStart).join('').replace(/\s+/g, ' ').trim();
        if (text !== '') headings.push({ level: Number(tag[1]), text });
      }
      if (BLOCKS.has(tag)) requestBreak(PARAGRAPHS.has(tag) ? 2 : 1);
      else if (CELLS.has(tag)) pushText(' ');
      continue;
    }
    if (tag !== '') {
      if (NEVER_TEXT.has(tag)) continue;
      const el = node as Element;
      if (options.skipFurniture && isFurniture(el, tag, frame.inContent)) continue;
      if (tag === 'BR' || tag === 'HR') {
        requestBreak(1);
        continue;
      }
      if (BLOCKS.has(tag)) requestBreak(PARAGRAPHS.has(tag) ? 2 : 1);
    }
    const isHeading = tag.length === 2 && tag[0] === 'H' && tag[1]! >= '1' && tag[1]! <= '6';
    const inContent = options.skipFurniture === true
      && (frame.inContent || CONTENT_CONTAINERS.has(tag) || (tag !== '' && (node as Element).getAttribute('role') === 'main'));
    const inPre = frame.inPre || tag === 'PRE' || tag === 'TEXTAREA';
    if (isHeading && pendingBreak > 0 && parts.length > 0) {
      // Flush the break now so the heading's text starts exactly at headingStart.
      parts.push(pendingBreak === 2 ? '\n\n' : '\n');
      pendingBreak = 0;
    }
    stack.push({ node, exit: true, inContent, inPre, headingStart: isHeading ? parts.length : -1 });
    // Children pushed last-first so they pop in document order; sibling links avoid materialising NodeLists.
    for (let child = node.lastChild; child !== null; child = child.previousSibling) stack.push({ node: child, exit: false, inContent, inPre, headingStart: -1 });
  }
  return { text: cleanText(parts.join(''), { dropBoilerplate: options.skipFurniture === true }), headings };
}

function isFurniture(el: Element, tag: string, inContent: boolean): boolean {
  if (FURNITURE.has(tag)) return true;
  if ((tag === 'HEADER' || tag === 'FOOTER') && !inContent) return true;
  if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') return true;
  const role = el.getAttribute('role');
  if (role !== null && FURNITURE_ROLES.has(role)) return true;
  const style = el.getAttribute('style');
  return style !== null && /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(style);
}
