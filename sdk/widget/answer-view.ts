import type { RateAnswer } from './feedback-buttons.js';
import { RICH_SYNTAX, renderMarkdown, stableLength, type Renderer } from './markdown.js';
import { safeHttpUrl, safeLinkUrl } from './safe-url.js';
import type { WidgetStrings } from './strings.js';

/** A source shown under an answer; only http(s) URLs become links. `text` is the cited passage (preview, highlight). */
export interface WidgetCitation {
  url: string;
  title?: string;
  text?: string;
}

/** One assistant answer being streamed into the conversation. Calls after it ended (or after destroy) are ignored. */
export interface AnswerView {
  /** Adds streamed text; rendered as the safe markdown subset, at most once per animation frame. */
  append(text: string): void;
  /**
   * The answer's citations: `citations[n - 1]` is what the marker `[n]` in the text refers to, and the Sources list
   * shows them under the same numbers (one numbering).
   */
  setCitations(citations: readonly WidgetCitation[]): void;
  /** Ends the answer as a refusal: `message` (plain text) and its next step, a link to `contactUrl` when given. */
  refuse(message: string, contactUrl?: string | null): void;
  /** Ends the answer as failed: keeps any text so far and adds `message` as an error. */
  fail(message: string): void;
  /** Ends the answer normally (adds the copy button when there is text). */
  done(): void;
  /** Thumbs under the answer (issue 13): `rate` is the SDK instance's feedback for this answer. */
  offerFeedback?(rate: RateAnswer, options: { allowComment: boolean }): void;
}

/** What an answer view needs from its widget. */
export interface AnswerHost {
  doc: Document;
  /** Adds a lazy chunk's styles to the widget (once). */
  addCss(css: string): void;
  strings(): WidgetStrings;
  /** Keeps the log scrolled to the end while the visitor has not scrolled away. */
  pinned(): boolean;
  reveal(pinned: boolean): void;
  frame(fn: () => void): () => void;
  ended(view: AnswerView): void;
  destroyed(): boolean;
}

/** Where a citation points: the passage on this page (highlighted here) or a text fragment on another page. */
export function citationHref(c: WidgetCitation, doc: Document): string | null {
  const href = safeHttpUrl(c.url, doc.baseURI);
  if (!href) return null;
  const words = (c.text ?? '').split(/(?<=[.!?])\s|\n/)[0]!.trim().split(/\s+/).slice(0, 8).join(' ');
  if (!words || href.includes('#')) return href;
  // Text fragments (WICG scroll-to-text): '-', ',' and '&' are syntax inside the directive and must be escaped.
  return `${href}#:~:text=${encodeURIComponent(words).replace(/-/g, '%2D').replace(/,/g, '%2C')}`;
}

let rich: Renderer | null = null;
let richCss = '';
let loadingRich: Promise<Renderer> | null = null;

/** Creates the view of one answer inside `msg` (its `body` receives the rendered text). */
export function createAnswerView(host: AnswerHost, msg: HTMLElement, body: HTMLElement): AnswerView & { end(): void; text(): string } {
  const { doc } = host;
  let text = '';
  let citations: readonly WidgetCitation[] = [];
  let stable = 0;
  let tail: Node[] = [];
  let cancel: (() => void) | null = null;
  let ended = false;
  let sources: HTMLElement | null = null;
  let renderer: Renderer = rich ?? renderMarkdown;
  if (rich) host.addCss(richCss);

  const cite = (n: number): Node | null => {
    const c = citations[n - 1];
    if (!c) return null;
    const href = citationHref(c, doc);
    const a = doc.createElement(href ? 'a' : 'span');
    a.className = 'ci';
    a.textContent = String(n);
    a.dataset.n = String(n);
    if (href) {
      (a as HTMLAnchorElement).href = href;
      (a as HTMLAnchorElement).target = '_blank';
      (a as HTMLAnchorElement).rel = 'noopener noreferrer';
    }
    a.setAttribute('aria-label', host.strings().citation.replace('{n}', String(n)).replace('{title}', c.title || c.url));
    return a;
  };
  const options = () => ({ cite, copyCode: host.strings().copyCode });
  /** Renders what became stable once, and the rest (the block still growing) again. */
  const render = (): void => {
    cancel = null;
    const pinned = host.pinned();
    for (const node of tail) node.parentNode?.removeChild(node);
    const cut = stableLength(text);
    if (cut > stable) {
      body.appendChild(renderer(text.slice(stable, cut), doc, options()));
      stable = cut;
    }
    const rest = renderer(text.slice(stable), doc, options());
    tail = [...rest.childNodes];
    body.appendChild(rest);
    host.reveal(pinned);
  };
  const rerender = (): void => {
    body.replaceChildren();
    stable = 0;
    tail = [];
    render();
  };
  const button = (parent: HTMLElement, cls: string, label: string, copy: string): HTMLButtonElement => {
    const b = parent.appendChild(doc.createElement('button'));
    b.type = 'button';
    b.className = cls;
    b.dataset.copy = copy;
    b.textContent = label;
    return b;
  };

  const view = {
    text: () => text,
    append(piece: string) {
      if (ended || host.destroyed()) return;
      text += String(piece);
      cancel ??= host.frame(render);
      if (renderer === renderMarkdown && RICH_SYNTAX.test(text)) {
        // Tables, quotes, code, links: the rich renderer is a lazy chunk; the base one draws until it arrives.
        loadingRich ??= import(/* webpackChunkName: "kit-markdown" */ './rich-markdown.js').then((m) => {
          richCss = m.RICH_CSS;
          return (rich = m.renderRichMarkdown);
        });
        loadingRich.then((r) => {
          host.addCss(richCss);
          if (renderer === r || host.destroyed()) return;
          renderer = r;
          rerender();
        }, () => undefined);
      }
    },
    setCitations(list: readonly WidgetCitation[]) {
      if (host.destroyed()) return;
      citations = Array.isArray(list) ? list.filter((c) => c && typeof c === 'object') : [];
      const pinned = host.pinned();
      sources?.remove();
      sources = null;
      if (citations.length) {
        sources = msg.insertBefore(doc.createElement('div'), body.nextSibling);
        sources.className = 'src';
        sources.appendChild(doc.createElement('p')).textContent = host.strings().sources;
        const ol = sources.appendChild(doc.createElement('ol'));
        citations.forEach((c, i) => {
          const item = ol.appendChild(doc.createElement('li'));
          const href = citationHref(c, doc);
          const label = (typeof c.title === 'string' && c.title.trim()) || safeHttpUrl(c.url, doc.baseURI) || String(c.url ?? '');
          const target = item.appendChild(doc.createElement(href ? 'a' : 'span'));
          target.textContent = label;
          target.dataset.n = String(i + 1);
          if (href) {
            (target as HTMLAnchorElement).href = href;
            (target as HTMLAnchorElement).target = '_blank';
            (target as HTMLAnchorElement).rel = 'noopener noreferrer';
          }
        });
      }
      if (text) rerender(); // the markers become links to the same numbers
      host.reveal(pinned);
    },
    refuse(message: string, contactUrl?: string | null) {
      if (ended || host.destroyed()) return;
      text = '';
      view.end();
      msg.classList.add('refusal');
      body.replaceChildren();
      const t = host.strings();
      body.appendChild(doc.createElement('p')).textContent = String(message);
      const next = body.appendChild(doc.createElement('p'));
      const href = safeLinkUrl(contactUrl, doc.baseURI);
      if (!href) {
        next.textContent = t.refusalHint;
        return;
      }
      const [before, after = ''] = t.refusalContact.split('{contact}');
      const a = doc.createElement('a');
      a.href = href;
      if (!href.startsWith('mailto:')) {
        a.target = '_blank';
        a.rel = 'noopener noreferrer';
      }
      a.textContent = t.contact;
      next.append(before!, a, after);
    },
    fail(message: string) {
      if (ended || host.destroyed()) return;
      view.end();
      msg.classList.add('failed');
      const p = msg.appendChild(doc.createElement('p'));
      p.className = 'err';
      p.textContent = String(message);
    },
    done() {
      if (ended || host.destroyed()) return;
      view.end();
      if (!text && !sources) {
        msg.remove(); // stopped before the first token: no empty bubble
        return;
      }
      if (text) button(msg.appendChild(doc.createElement('div')), 'cpa', host.strings().copy, 'answer').parentElement!.className = 'tools';
    },
    offerFeedback(rate: RateAnswer, feedbackOptions: { allowComment: boolean }) {
      if (host.destroyed() || !msg.isConnected) return;
      const t = host.strings();
      const tools = msg.querySelector<HTMLElement>('.tools') ?? msg.appendChild(doc.createElement('div'));
      tools.className = 'tools';
      // The thumbs come after the answer: their code is a lazy chunk, off the path to the first answer.
      void import(/* webpackChunkName: "kit-feedback" */ './feedback-buttons.js').then((m) => {
        host.addCss(m.FEEDBACK_CSS);
        if (!host.destroyed() && msg.isConnected) m.mountFeedbackButtons(tools, { rate, allowComment: feedbackOptions.allowComment, strings: t });
      });
    },
    end() {
      if (ended) return;
      ended = true;
      if (cancel) {
        cancel();
        render();
      }
      msg.classList.remove('live');
      host.ended(view);
    },
  };
  return view;
}
