import { FENCE, renderInline, renderMarkdown, type InlineSyntax, type MarkdownOptions, type Renderer } from './markdown.js';
import { safeLinkUrl } from './safe-url.js';

const TABLE_RULE = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

// A link's `(url)` (without its group: a citation marker `[n]` followed by one is the link's text instead).
const HREF = String.raw`\((?:[^()\s]|\([^()\s]*\))+\)`;

/**
 * The rich inline syntax. Groups 1–3 (code, **bold**, `[n]`) are drawn by the shared inline renderer (markdown.ts),
 * 4–9 here: __bold__, *italic*, _italic_, [link](…) text and URL, bare URL. Where two alternatives can start at the
 * same character the earlier wins: ** before *, __ before _, and a link before a citation (the lookahead).
 */
const RICH: InlineSyntax = {
  re: new RegExp(String.raw`(` + '`[^`\\n]+`' + String.raw`)|\*\*([^*\n]+?)\*\*|\[(\d{1,3})\](?!${HREF})|__([^_\n]+?)__|\*([^*\s](?:[^*\n]*?[^*\s])?)\*|(?<![\p{L}\p{N}_])_([^_\s](?:[^_\n]*?[^_\s])?)_(?![\p{L}\p{N}_])|\[([^\]\n]+)\](${HREF})|(https?:\/\/[^\s<>()]*[^\s<>().,;:!?'"])`, 'gu'),
  draw(m, parent, doc, options) {
    const inner = m[4] ?? m[5] ?? m[6];
    if (inner) return renderInline(inner, parent.appendChild(doc.createElement(m[4] ? 'strong' : 'em')), doc, options, RICH);
    const href = safeLinkUrl(m[8]?.slice(1, -1) ?? m[9]!, doc.baseURI);
    if (m[7]) return renderInline(m[7], href ? parent.appendChild(link(doc, href)) : parent, doc, options, RICH);
    parent.appendChild(href ? link(doc, href) : doc.createElement('span')).textContent = m[9]!;
  },
};

/**
 * Quotes, fenced code, GFM pipe tables and rules: the blocks only this renderer draws. Draws the one starting at line
 * `i` into `out` and returns the index of its last line, or -1 when line `i` starts none.
 */
function richBlock(lines: readonly string[], i: number, out: DocumentFragment, doc: Document, options: MarkdownOptions): number {
  const add = <K extends keyof HTMLElementTagNameMap>(tag: K, parent: Node): HTMLElementTagNameMap[K] =>
    parent.appendChild(doc.createElement(tag));
  const line = lines[i]!;
  const fence = FENCE.exec(line)?.[1];
  if (fence) {
    const body: string[] = [];
    let closed = false;
    while (++i < lines.length) {
      if (lines[i]!.trim().startsWith(fence)) { closed = true; break; }
      body.push(lines[i]!);
    }
    const pre = add('pre', out);
    add('code', pre).textContent = body.join('\n');
    if (closed && options.copyCode) {
      const button = add('button', pre);
      button.type = 'button';
      button.className = 'cp';
      button.dataset.copy = 'code';
      button.setAttribute('aria-label', options.copyCode);
      button.title = options.copyCode;
    }
    return Math.min(i, lines.length - 1);
  }
  if (/^\s{0,3}>/.test(line)) {
    const quoted: string[] = [];
    for (; i < lines.length && /^\s{0,3}>/.test(lines[i]!); i++) quoted.push(lines[i]!.replace(/^\s{0,3}>\s?/, ''));
    add('blockquote', out).appendChild(renderRichMarkdown(quoted.join('\n'), doc, options));
    return i - 1;
  }
  if (line.includes('|') && TABLE_RULE.test(lines[i + 1] ?? '')) {
    const scroller = add('div', out);
    // A wide table scrolls sideways: its scroller takes focus so a keyboard can scroll it too.
    scroller.className = 'tw';
    scroller.tabIndex = 0;
    const table = add('table', scroller);
    const head = add('tr', add('thead', table));
    for (const cell of cells(line)) renderInline(cell, add('th', head), doc, options, RICH);
    const tbody = add('tbody', table);
    for (i += 2; i < lines.length && lines[i]!.includes('|') && lines[i]!.trim(); i++) {
      const row = add('tr', tbody);
      for (const cell of cells(lines[i]!)) renderInline(cell, add('td', row), doc, options, RICH);
    }
    return i - 1;
  }
  if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
    add('hr', out);
    return i;
  }
  return -1;
}

/**
 * The rich markdown subset for model answers (a lazy chunk, loaded by the first answer that uses its syntax), built
 * with DOM APIs only: text goes in through text nodes and every attribute is set by name, never through innerHTML, so
 * neither model nor page text can become markup. Blocks: those of the base renderer (paragraphs, single newlines kept
 * as line breaks, `-`/`*`/`1.` lists, `#` headings shown bold), plus `>` quotes, GFM pipe tables, fenced code (a copy
 * button once the fence closes) and `---` rules. Inline: `code`, **bold**, *italic*, [links](…) whose URL is http,
 * https or mailto (anything else stays text), bare http(s) URLs and `[n]` citations. Unclosed markers (mid-stream)
 * render as text until they close. One block and inline renderer with the base one (markdown.ts), which the panel
 * chunk already holds: this chunk adds only the syntax.
 */
export const renderRichMarkdown: Renderer = (text, doc, options = {}) => {
  const out = doc.createDocumentFragment();
  const lines = text.split('\n');
  // Lines between rich blocks go to the base renderer with this syntax: every rich block ends a paragraph or list
  // there too, so drawing each run of them on its own is the same as drawing them in one pass.
  let from = 0;
  for (let i = 0; i < lines.length; i++) {
    const block = doc.createDocumentFragment();
    const last = richBlock(lines, i, block, doc, options);
    if (last < 0) continue;
    out.append(renderMarkdown(lines.slice(from, i).join('\n'), doc, options, RICH), block);
    from = (i = last) + 1;
  }
  out.append(renderMarkdown(lines.slice(from).join('\n'), doc, options, RICH));
  return out;
};

function cells(row: string): string[] {
  return row.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

/** A link that cannot reach back into the page: new tab without opener or referrer (mailto opens the mail client). */
function link(doc: Document, href: string): HTMLAnchorElement {
  const a = doc.createElement('a');
  a.href = href;
  if (!href.startsWith('mailto:')) {
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
  }
  return a;
}

/** Styles of what only the rich renderer draws, added to the widget when this chunk loads. */
export const RICH_CSS = `blockquote{padding-inline-start:10px;border-inline-start:3px solid var(--_bd);margin-inline:0;color:var(--_mu)}
.tw{overflow-x:auto}
table{border-collapse:collapse;font-size:14px}
th,td{border:1px solid var(--_bd);padding:3px 8px;text-align:start;vertical-align:top;overflow-wrap:break-word}
hr{border:0;border-top:1px solid var(--_bd)}
pre{position:relative;overflow-x:auto;padding:8px;background:var(--_bd);border-radius:6px;white-space:pre}
pre code{padding:0;background:none}
.cp{position:absolute;top:4px;inset-inline-end:4px;font-size:12px;padding:1px 8px;border:1px solid var(--_mu);border-radius:6px;background:var(--_bg)}
.cp:empty::before{content:"\\29C9"}`;
