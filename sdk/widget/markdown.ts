/**
 * A deliberately tiny markdown subset for model answers, built with DOM APIs only (text goes in through text
 * nodes, never through innerHTML, so model or page text cannot become markup): paragraphs (single newlines kept as
 * line breaks), `-`/`*`/`1.` lists, `#` headings (shown bold), fenced code blocks, **bold** and `code`.
 * Anything else stays literal text. Unclosed markers (mid-stream) render as plain text until they close.
 */
export function renderMarkdown(text: string, doc: Document): DocumentFragment {
  const out = doc.createDocumentFragment();
  const add = <K extends keyof HTMLElementTagNameMap>(tag: K, parent: Node): HTMLElementTagNameMap[K] =>
    parent.appendChild(doc.createElement(tag));
  let para: HTMLElement | null = null;
  let list: HTMLElement | null = null;
  let item: HTMLElement | null = null;
  let code: HTMLElement | null = null;

  for (const line of text.split('\n')) {
    if (code) {
      if (/^\s*```/.test(line)) code = null;
      else code.append(code.firstChild ? '\n' + line : line);
      continue;
    }
    if (/^\s*```/.test(line)) {
      para = list = item = null;
      code = add('code', add('pre', out));
      continue;
    }
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
      inline(bullet[3], item, doc);
      continue;
    }
    if (item && /^\s/.test(line)) {
      item.append(doc.createElement('br'));
      inline(line.trim(), item, doc);
      continue;
    }
    list = item = null;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      para = null;
      add('strong', add('p', out)).textContent = heading[1];
      continue;
    }
    if (para) para.append(doc.createElement('br'));
    else para = add('p', out);
    inline(line, para, doc);
  }
  return out;
}

function inline(text: string, parent: Node, doc: Document): void {
  // split() with a capture group alternates plain text (even indexes) and markers (odd indexes).
  text.split(/(\*\*[^*\n]+\*\*|`[^`\n]+`)/).forEach((part, i) => {
    if (i % 2 === 0) {
      if (part) parent.appendChild(doc.createTextNode(part));
      return;
    }
    const node = doc.createElement(part[0] === '`' ? 'code' : 'strong');
    node.textContent = part[0] === '`' ? part.slice(1, -1) : part.slice(2, -2);
    parent.appendChild(node);
  });
}
