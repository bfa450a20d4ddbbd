/** What the renderers need beyond the text: how to show a citation marker `[n]`, and the copy button's label. */
export interface MarkdownOptions {
  /** The node for citation marker `[n]`, or null to keep it as text. */
  cite?(n: number): Node | null;
  /** Accessible name of the copy button on a closed code block (rich renderer). */
  copyCode?: string;
}

/** A renderer of answer text into DOM nodes (this base one, or the rich one loaded when an answer needs it). */
export type Renderer = (text: string, doc: Document, options?: MarkdownOptions) => DocumentFragment;

export const FENCE = /^\s{0,3}(```|~~~)/;

/**
 * Syntax only the rich renderer (`rich-markdown.ts`, a lazy chunk) draws: quotes, fences, tables, rules, italics,
 * links and bare URLs. Answers without any of it never load that chunk.
 */
export const RICH_SYNTAX = /^\s{0,3}(>|```|~~~|\|)|\|\s*:?-{2,}|^\s{0,3}([-*_])(\s*\2){2,}\s*$|(^|[^*\w])\*[^*\s]|(^|[^\p{L}\p{N}_])_[^_\s]|\]\(|https?:\/\/|mailto:/mu;

/**
 * The inline syntax a renderer reads: a global expression whose groups 1–3 are `code`, **bold** and a `[n]` citation,
 * drawn by {@link renderInline}; a match of any other group goes to `draw` (the rich renderer's italics and links).
 */
export interface InlineSyntax {
  readonly re: RegExp;
  draw?(match: RegExpMatchArray, parent: Element, doc: Document, options: MarkdownOptions): void;
}

const BASE: InlineSyntax = { re: /(`[^`\n]+`)|\*\*([^*\n]+)\*\*|\[(\d{1,3})\]/g };

/**
 * The base markdown subset for model answers, built with DOM APIs only (text goes in through text nodes, never
 * through innerHTML, so model or page text cannot become markup): paragraphs (single newlines kept as line breaks),
 * `-`/`*`/`1.` lists, `#` headings (shown bold), **bold**, `code` and `[n]` citations. Anything else stays literal
 * text until the rich renderer takes over. Unclosed markers (mid-stream) render as plain text until they close.
 * The rich renderer (rich-markdown.ts) draws its own blocks and hands the lines between them to this one, with its
 * own inline `syntax`.
 */
export function renderMarkdown(text: string, doc: Document, options: MarkdownOptions = {}, syntax: InlineSyntax = BASE): DocumentFragment {
  const out = doc.createDocumentFragment();
  const add = <K extends keyof HTMLElementTagNameMap>(tag: K, parent: Node): HTMLElementTagNameMap[K] =>
    parent.appendChild(doc.createElement(tag));
  const inline = (t: string, parent: Element) => renderInline(t, parent, doc, options, syntax);
  let para: HTMLElement | null = null;
  let list: HTMLElement | null = null;
  let item: HTMLElement | null = null;

  for (const line of text.split('\n')) {
    if (!line.trim()) {
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
      inline(bullet[3]!, (item = add('li', list)));
      continue;
    }
    if (item && /^\s/.test(line)) {
      item.append(doc.createElement('br'));
      inline(line.trim(), item);
      continue;
    }
    list = item = null;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      para = null;
      inline(heading[1]!, add('strong', add('p', out)));
      continue;
    }
    if (para) para.append(doc.createElement('br'));
    else para = add('p', out);
    inline(line, para);
  }
  return out;
}

/** Draws `text` into `parent`: code, bold (its inside read again) and citations here, the rest by `syntax.draw`. */
export function renderInline(text: string, parent: Element, doc: Document, options: MarkdownOptions, syntax: InlineSyntax): void {
  let at = 0;
  for (const m of text.matchAll(syntax.re)) {
    if (m.index > at) parent.append(text.slice(at, m.index));
    at = m.index + m[0].length;
    if (m[1]) parent.appendChild(doc.createElement('code')).textContent = m[1].slice(1, -1);
    else if (m[2]) renderInline(m[2], parent.appendChild(doc.createElement('strong')), doc, options, syntax);
    else if (m[3]) parent.append(options.cite?.(Number(m[3])) ?? m[0]);
    else syntax.draw?.(m, parent, doc, options);
  }
  if (at < text.length) parent.append(text.slice(at));
}

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
