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
      if (tag === 'TABLE') {
        const lines = headedTableLines(el, options);
        if (lines !== null) {
          requestBreak(2);
          for (const line of lines) { pushText(line); requestBreak(1); }
          requestBreak(2);
          continue;
        }
      }
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

/**
 * A data table with header cells as one line per row of "column: value" pairs ("Plan: Summit; Price: $49 per
 * year"), so a row quoted alone still says what each value is; null for a table without header cells (layout),
 * which the walk flattens as before. The header row is the first row when all its cells are `<th>` (or it sits in
 * `<thead>`); a row's leading `<th>` names the row. Column spans are followed; nested tables stay in their cell.
 */
export function headedTableLines(table: Element, options: DomToTextOptions = {}): string[] | null {
  const rows: Element[][] = [];
  const inHead: boolean[] = [];
  const walk = (el: Element, head: boolean): void => {
    for (let c = el.firstElementChild; c !== null; c = c.nextElementSibling) {
      const t = c.tagName.toUpperCase();
      if (t === 'TR') {
        const cells: Element[] = [];
        for (let d = c.firstElementChild; d !== null; d = d.nextElementSibling) if (CELLS.has(d.tagName.toUpperCase())) cells.push(d);
        if (cells.length > 0) { rows.push(cells); inHead.push(head); }
      } else if (t === 'THEAD' || t === 'TBODY' || t === 'TFOOT') walk(c, head || t === 'THEAD');
    }
  };
  walk(table, false);
  const isTh = (cell: Element): boolean => cell.tagName.toUpperCase() === 'TH';
  const first = rows[0];
  const hasHeaderRow = first !== undefined && rows.length > 1 && first.length > 1 && (inHead[0] || first.every(isTh));
  if (!hasHeaderRow && !rows.some((r) => r.length > 1 && isTh(r[0]!))) return null;
  const cellText = (cell: Element): string => domToText(cell, options).text.replace(/\s*\n+\s*/g, ', ').trim();
  const columns: string[] = [];
  if (hasHeaderRow) for (const cell of first) { const text = cellText(cell); for (let k = 0; k < span(cell); k++) columns.push(text); }
  const out: string[] = [];
  for (let c = table.firstElementChild; c !== null; c = c.nextElementSibling) {
    if (c.tagName.toUpperCase() === 'CAPTION') { const text = cellText(c); if (text) out.push(text); }
  }
  for (let r = hasHeaderRow ? 1 : 0; r < rows.length; r++) {
    if (inHead[r]) continue;
    const parts: string[] = [];
    let col = 0;
    for (const cell of rows[r]!) {
      const text = cellText(cell);
      const name = columns[col] ?? '';
      col += span(cell);
      if (text === '') continue;
      parts.push(name !== '' && name !== text ? `${name}: ${text}` : text);
    }
    if (parts.length === 0) continue;
    // Without a header row, a leading <th> names the row: "Weight: 1.8 kg".
    out.push(!hasHeaderRow && isTh(rows[r]![0]!) && parts.length > 1 ? `${parts[0]}: ${parts.slice(1).join('; ')}` : parts.join('; '));
  }
  return out;
}

function span(cell: Element): number {
  const n = Number(cell.getAttribute('colspan'));
  return Number.isInteger(n) && n > 1 && n < 100 ? n : 1;
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
