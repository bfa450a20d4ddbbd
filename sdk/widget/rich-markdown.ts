import type { MarkdownOptions, Renderer } from './markdown.js';
import { safeLinkUrl } from './safe-url.js';

const FENCE = /^\s{0,3}(```|~~~)/;
const TABLE_RULE = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const BULLET = /^\s{0,3}(?:([-*+•])|(\d{1,9})[.)])\s+(.*)$/;
// Alternatives, in priority order: code, bold, italic, link, citation marker, bare URL.
const INLINE = /(`[^`\n]+`)|\*\*([^*\n]+?)\*\*|__([^_\n]+?)__|\*([^*\s](?:[^*\n]*?[^*\s])?)\*|(?<![\p{L}\p{N}_])_([^_\s](?:[^_\n]*?[^_\s])?)_(?![\p{L}\p{N}_])|\[([^\]\n]+)\]\(((?:[^()\s]|\([^()\s]*\))+)\)|\[(\d{1,3})\]|(https?:\/\/[^\s<>()]*[^\s<>().,;:!?'"])/u;

/**
 * The rich markdown subset for model answers (a lazy chunk, loaded by the first answer that uses its syntax), built with DOM APIs only: text goes in through text nodes and every
 * attribute is set by name, never through innerHTML, so neither model nor page text can become markup. Blocks:
 * paragraphs (single newlines kept as line breaks), `-`/`*`/`1.` lists, `>` quotes, `#` headings (shown bold), GFM
 * pipe tables, fenced code (a copy button once the fence closes), `---` rules. Inline: `code`, **bold**, *italic*,
 * [links](…) whose URL is http, https or mailto (anything else stays text), bare http(s) URLs and `[n]` citations.
 * Unclosed markers (mid-stream) render as text until they close.
 */
export const renderRichMarkdown: Renderer = (text, doc, options = {}) => {
  const out = doc.createDocumentFragment();
  const add = <K extends keyof HTMLElementTagNameMap>(tag: K, parent: Node): HTMLElementTagNameMap[K] =>
    parent.appendChild(doc.createElement(tag));
  const lines = text.split('\n');
  let para: HTMLElement | null = null;
  let list: HTMLElement | null = null;
  let item: HTMLElement | null = null;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (FENCE.test(line)) {
      para = list = item = null;
      const fence = FENCE.exec(line)![1]!;
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
      continue;
    }
    if (line.trim() === '') {
      para = list = item = null;
      continue;
    }
    if (/^\s{0,3}>/.test(line)) {
      para = list = item = null;
      const quoted: string[] = [];
      for (; i < lines.length && /^\s{0,3}>/.test(lines[i]!); i++) quoted.push(lines[i]!.replace(/^\s{0,3}>\s?/, ''));
      i--;
      add('blockquote', out).appendChild(renderRichMarkdown(quoted.join('\n'), doc, options));
      continue;
    }
    if (line.includes('|') && TABLE_RULE.test(lines[i + 1] ?? '')) {
      para = list = item = null;
      const table = add('table', add('div', out));
      // A wide table scrolls sideways: its scroller takes focus so a keyboard can scroll it too.
      (table.parentNode as HTMLElement).className = 'tw';
      (table.parentNode as HTMLElement).tabIndex = 0;
      const head = add('tr', add('thead', table));
      for (const cell of cells(line)) inline(cell, add('th', head), doc, options);
      const tbody = add('tbody', table);
      for (i += 2; i < lines.length && lines[i]!.includes('|') && lines[i]!.trim(); i++) {
        const row = add('tr', tbody);
        for (const cell of cells(lines[i]!)) inline(cell, add('td', row), doc, options);
      }
      i--;
      continue;
    }
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      para = list = item = null;
      add('hr', out);
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      const tag = bullet[1] ? 'ul' : 'ol';
      if (!list || list.localName !== tag) {
        list = add(tag, out);
        if (bullet[2] && bullet[2] !== '1') list.setAttribute('start', String(Number(bullet[2])));
      }
      para = null;
      item = add('li', list);
      inline(bullet[3]!, item, doc, options);
      continue;
    }
    if (item && /^\s/.test(line)) {
      item.append(doc.createElement('br'));
      inline(line.trim(), item, doc, options);
      continue;
    }
    list = item = null;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      para = null;
      inline(heading[1]!, add('strong', add('p', out)), doc, options);
      continue;
    }
    if (para) para.append(doc.createElement('br'));
    else para = add('p', out);
    inline(line, para, doc, options);
  }
  return out;
};

function cells(row: string): string[] {
  return row.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

function inline(text: string, parent: Node, doc: Document, options: MarkdownOptions): void {
  let rest = text;
  for (let m = INLINE.exec(rest); m; m = INLINE.exec(rest)) {
    if (m.index) parent.appendChild(doc.createTextNode(rest.slice(0, m.index)));
    rest = rest.slice(m.index + m[0].length);
    if (m[1]) {
      parent.appendChild(doc.createElement('code')).textContent = m[1].slice(1, -1);
    } else if (m[2] ?? m[3]) {
      inline((m[2] ?? m[3])!, parent.appendChild(doc.createElement('strong')), doc, options);
    } else if (m[4] ?? m[5]) {
      inline((m[4] ?? m[5])!, parent.appendChild(doc.createElement('em')), doc, options);
    } else if (m[6] !== undefined) {
      const href = safeLinkUrl(m[7], doc.baseURI);
      if (!href) {
        inline(m[6], parent, doc, options);
        continue;
      }
      inline(m[6], parent.appendChild(link(doc, href)), doc, options);
    } else if (m[8]) {
      parent.appendChild(options.cite?.(Number(m[8])) ?? doc.createTextNode(m[0]));
    } else if (m[9]) {
      const href = safeLinkUrl(m[9], doc.baseURI);
      parent.appendChild(href ? link(doc, href) : doc.createElement('span')).textContent = m[9];
    }
  }
  if (rest) parent.appendChild(doc.createTextNode(rest));
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
