/**
 * Scrolls to a cited passage on the current page and highlights it with an overlay (a lazy chunk, loaded on the
 * first click on a citation of this page). The passage is the text the assistant read, so it is looked up in the
 * page's text with whitespace and case folded; the overlay boxes live in the widget's shadow root and never touch
 * the page's DOM or styles.
 */

/** How long the highlight stays (ms) unless the visitor clicks or presses a key first. */
export const HIGHLIGHT_MS = 6000;
/** Words of the passage's start that must be found in the page (fewer if the passage is shorter). */
const KEY_WORDS = 12;

let clear: (() => void) | null = null;

/**
 * Finds the passage in `doc` (outside the widget) as a Range from its opening words to its closing words (or just
 * the opening words when the end is not found after them), or null.
 */
export function findPassage(doc: Document, passage: string): Range | null {
  const words = passage.replace(/\[\d+\]/g, ' ').trim().split(/\s+/).filter(Boolean);
  // The opening words, then fewer: the page may have changed after them, or split them across elements oddly.
  for (const n of [KEY_WORDS, 6, 3]) {
    const start = words.length ? findText(doc, words.slice(0, n).join(' ')) : null;
    if (start) {
      const tail = words.length > n ? findText(doc, words.slice(-Math.min(KEY_WORDS, words.length - n)).join(' '), start) : null;
      if (tail) start.setEnd(tail.endContainer, tail.endOffset);
      return start;
    }
    if (n >= words.length) return null;
  }
  return null;
}

/** The first match of `needle` (whitespace and case folded), after `after` when given. */
function findText(doc: Document, needle: string, after?: Range): Range | null {
  const wanted = needle.toLowerCase();
  const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement?.closest('script,style,noscript,template,kit-widget') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  // The page's text with runs of whitespace folded to one space, and where each folded character came from.
  let text = '';
  const at: [Text, number][] = [];
  let space = true;
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const value = node.data;
    for (let i = 0; i < value.length; i++) {
      const ch = value[i]!;
      if (/\s/.test(ch)) {
        if (space) continue;
        space = true;
        text += ' ';
      } else {
        space = false;
        text += ch.toLowerCase();
      }
      at.push([node, i]);
    }
    if (!space) {
      // A block boundary usually separates text nodes; treat it as a space so words do not run together.
      const block = node.parentElement && getComputedStyle(node.parentElement).display !== 'inline';
      if (block) {
        text += ' ';
        at.push([node, value.length]);
        space = true;
      }
    }
  }
  let from = 0;
  if (after) {
    from = at.findIndex(([node, offset]) => node === after.endContainer && offset >= after.endOffset - 1);
    if (from < 0) return null;
  }
  const index = text.indexOf(wanted, from);
  if (index < 0) return null;
  const start = at[index]!;
  const end = at[index + wanted.length - 1]!;
  const range = doc.createRange();
  range.setStart(start[0], start[1]);
  range.setEnd(end[0], Math.min(end[0].data.length, end[1] + 1));
  return range;
}

const CSS = '.hl i{position:fixed;pointer-events:none;border-radius:4px;background:color-mix(in srgb,var(--_a) 18%,transparent);outline:2px solid var(--_a)}';

/** Scrolls the passage into view and draws the highlight; false when the page no longer has that text. */
export function highlightPassage(doc: Document, passage: string, overlayRoot: ShadowRoot, addCss: (css: string) => void): boolean {
  clear?.();
  addCss(CSS);
  const range = findPassage(doc, passage);
  if (!range) return false;
  // Centre the whole passage when it fits in the viewport, else bring its start to the top.
  const view = doc.defaultView!;
  const box = range.getBoundingClientRect();
  const smooth = !view.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const top = box.height < view.innerHeight * 0.8 ? box.top + box.height / 2 - view.innerHeight / 2 : box.top - 24;
  view.scrollBy({ top, behavior: smooth ? 'smooth' : 'auto' });
  const layer = overlayRoot.appendChild(doc.createElement('div'));
  layer.className = 'hl';
  layer.setAttribute('aria-hidden', 'true');
  const draw = (): void => {
    layer.replaceChildren();
    for (const r of textRects(doc, range)) {
      const box = layer.appendChild(doc.createElement('i'));
      box.style.cssText = `left:${r.left - 3}px;top:${r.top - 2}px;width:${r.width + 6}px;height:${r.height + 4}px`;
    }
  };
  draw();
  let frame = 0;
  const redraw = (): void => {
    if (!frame) frame = view.requestAnimationFrame(() => { frame = 0; draw(); });
  };
  const stop = new AbortController();
  view.addEventListener('scroll', redraw, { passive: true, capture: true, signal: stop.signal });
  view.addEventListener('resize', redraw, { passive: true, signal: stop.signal });
  const timer = view.setTimeout(() => clear?.(), HIGHLIGHT_MS);
  // Armed after this click has finished bubbling, so the click that asked for the highlight does not end it.
  view.setTimeout(() => {
    view.addEventListener('pointerdown', () => clear?.(), { signal: stop.signal });
    view.addEventListener('keydown', () => clear?.(), { signal: stop.signal });
  });
  clear = () => {
    stop.abort();
    view.clearTimeout(timer);
    view.cancelAnimationFrame(frame);
    layer.remove();
    clear = null;
  };
  return true;
}

/** The line boxes of the text inside `range` (a range's own rects also include whole elements it contains). */
function textRects(doc: Document, range: Range): DOMRect[] {
  const root = range.commonAncestorContainer;
  if (root.nodeType === Node.TEXT_NODE) return [...range.getClientRects()];
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const rects: DOMRect[] = [];
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    if (!range.intersectsNode(node) || !node.data.trim()) continue;
    const part = doc.createRange();
    part.selectNodeContents(node);
    if (node === range.startContainer) part.setStart(node, range.startOffset);
    if (node === range.endContainer) part.setEnd(node, range.endOffset);
    for (const r of part.getClientRects()) if (r.width > 0 && r.height > 0) rects.push(r);
  }
  return rects;
}
