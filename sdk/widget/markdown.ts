/** What the renderers need beyond the text: how to show a citation marker `[n]`, and the copy button's label. */
export interface MarkdownOptions {
  /** The node for citation marker `[n]`, or null to keep it as text. */
  cite?(n: number): Node | null;
  /** Accessible name of the copy button on a closed code block (rich renderer). */
  copyCode?: string;
}

/** A renderer of answer text into DOM nodes (this base one, or the rich one loaded when an answer needs it). */
export type Renderer = (text: string, doc: Document, options?: MarkdownOptions) => DocumentFragment;

const FENCE = /^\s{0,3}(```|~~~)/;

/**
 * Syntax only the rich renderer (`rich-markdown.ts`, a lazy chunk) draws: quotes, fences, tables, rules, italics,
 * links and bare URLs. Answers without any of it never load that chunk.
 */
export const RICH_SYNTAX = /^\s{0,3}(>|```|~~~|\|)|\|\s*:?-{2,}|^\s{0,3}([-*_])(\s*\2){2,}\s*$|(^|[^*\w])\*[^*\s]|(^|[^\p{L}\p{N}_])_[^_\s]|\]\(|https?:\/\/|mailto:/mu;

/**
 * The base markdown subset for model answers, built with DOM APIs only (text goes in through text nodes, never
 * through innerHTML, so model or page text cannot become markup): paragraphs (single newlines kept as line breaks),
 * `-`/`*`/`1.` lists, `#` headings (shown bold), **bold**, `code` and `[n]` citations. Anything else stays literal
 * text until the rich renderer takes over. Unclosed markers (mid-stream) render as plain text until they close.
 */
export const renderMarkdown: Renderer = (text, doc, options = {}) => {
  const out = doc.createDocumentFragment();
  const add = <K extends keyof HTMLElementTagNameMap>(tag: K, parent: Node): HTMLElementTagNameMap[K] =>
    parent.appendChild(doc.createElement(tag));
  let para: HTMLElement | null = null;
  let list: HTMLElement | null = null;
  let item: HTMLElement | null = null;

  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      para = list = item = null;
      continue;
    }
    const bullet = /^\s{0,3}(?:([-*+•])|(\d{1,9})[.)])\s+(.*)$/.exec(line);
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
      add('strong', add('p', out)).textContent = heading[1]!;
      continue;
    }
    if (para) para.append(doc.createElement('br'));
    else para = add('p', out);
    inline(line, para, doc, options);
  }
  return out;
};

/**
 * Where the text can be cut so that everything before it renders the same whatever follows: after the last blank
 * line outside a code fence. Streaming renders the part before it once and only the rest on every frame, so
 * finished paragraphs, code blocks and their copy buttons are never rebuilt (no flicker, no lost focus).
 */
export function stableLength(text: string): number {
  let cut = 0;
  let open = false;
  let at = 0;
  for (const line of text.split('\n')) {
    const end = at + line.length + 1;
    if (FENCE.test(line)) open = !open;
    else if (!open && line.trim() === '' && end <= text.length) cut = end;
    at = end;
  }
  return cut;
}

function inline(text: string, parent: Node, doc: Document, options: MarkdownOptions): void {
  // split() with a capture group alternates plain text (even indexes) and markers (odd indexes).
  text.split(/(\*\*[^*\n]+\*\*|`[^`\n]+`|\[\d{1,3}\])/).forEach((part, i) => {
    if (i % 2 === 0) {
      if (part) parent.appendChild(doc.createTextNode(part));
      return;
    }
    if (part[0] === '[') {
      parent.appendChild(options.cite?.(Number(part.slice(1, -1))) ?? doc.createTextNode(part));
      return;
    }
    const node = doc.createElement(part[0] === '`' ? 'code' : 'strong');
    node.textContent = part[0] === '`' ? part.slice(1, -1) : part.slice(2, -2);
    parent.appendChild(node);
  });
}
