import { renderMarkdown } from './markdown.js';
import { safeHttpUrl } from './safe-url.js';
import { WIDGET_CSS } from './styles.js';
import { resolveStrings, type WidgetStrings } from './strings.js';
import { FEEDBACK_CSS, mountFeedbackButtons, type RateAnswer } from './feedback-buttons.js';
import { LOGGING_NOTICE_CSS, setLoggingNotice } from './logging-notice.js';

/** Options of `createWidget`; the SDK's composition root supplies the callbacks. */
export interface WidgetOptions {
  /** UI string overrides (unknown keys and empty values are ignored). */
  strings?: Readonly<Partial<WidgetStrings>> | Readonly<Record<string, string>>;
  /** Open the panel as soon as the widget is created. Default false. */
  autoOpen?: boolean;
  /** The visitor submitted a non-empty question (trimmed). Not called while busy. */
  onAsk(question: string): void;
  /** The visitor pressed Stop while busy. */
  onStop(): void;
  /** The panel opened or closed, whatever the cause (launcher, Escape, backdrop, open()/close()); not on destroy(). */
  onOpenChange?(open: boolean): void;
  /** Element the widget's host is appended to. Default `document.body`. */
  mount?: HTMLElement;
}

/** A source shown under an answer; only http(s) URLs become links. */
export interface WidgetCitation {
  url: string;
  title?: string;
}

/** One assistant answer being streamed into the conversation. Calls after it ended (or after destroy) are ignored. */
export interface AnswerView {
  /** Adds streamed text; rendered as the safe markdown subset, at most once per animation frame. */
  append(text: string): void;
  /** Replaces the answer's source list. */
  setCitations(citations: readonly WidgetCitation[]): void;
  /** Ends the answer as a refusal: shows `message` (plain text) in the refusal style. */
  refuse(message: string): void;
  /** Ends the answer as failed: keeps any text so far and adds `message` as an error. */
  fail(message: string): void;
  /** Ends the answer normally. */
  done(): void;
  /** Thumbs under the answer (owner-loop, issue 13): `rate` is the SDK instance's feedback for this answer. */
  offerFeedback?(rate: RateAnswer, options: { allowComment: boolean }): void;
}

/** The widget controller. */
export interface Widget {
  open(): void;
  close(): void;
  isOpen(): boolean;
  /** Removes the host element and every listener; later calls on the widget or its answers do nothing. */
  destroy(): void;
  /** While busy the Send button is disabled, Enter does not submit and the Stop button shows. */
  setBusy(busy: boolean): void;
  /** A polite status line above the conversation ('' hides it); `progress` in [0, 1] also shows a bar. */
  setStatus(text: string, progress?: number): void;
  /** Adds the visitor's question to the conversation (the widget does not echo onAsk by itself). */
  showUserMessage(text: string): void;
  /** Starts an assistant answer; sets busy until the answer ends. Ends any answer still streaming. */
  startAnswer(): AnswerView;
  /** Adds an error that belongs to no answer (e.g. the assistant could not start). */
  showError(message: string): void;
  /** The notice shown while the site owner logs questions (issue 13); null removes it. */
  setNotice?(text: string | null): void;
}

const HOST_TAG = 'kit-widget';
const FOCUSABLE = 'a[href],button,textarea';
/** Scroll distance from the bottom (px) within which new text keeps the conversation pinned to the end. */
const STICK_PX = 48;
const ICON_CHAT = 'M21 11.5a8.4 8.4 0 0 1-.9 3.8 8.5 8.5 0 0 1-7.6 4.7 8.4 8.4 0 0 1-3.8-.9L3 21l1.9-5.7a8.4 8.4 0 0 1-.9-3.8 8.5 8.5 0 0 1 4.7-7.6 8.4 8.4 0 0 1 3.8-.9h.5a8.5 8.5 0 0 1 8 8z';
const ICON_CLOSE = 'M18 6 6 18M6 6l12 12';
const ICON_SEND = 'M12 19V5m-7 7 7-7 7 7';

/**
 * Builds the launcher and the chat dialog inside an open shadow root on a `<kit-widget>` host (see docs/widget.md).
 * The panel is a native modal `<dialog>`: the top layer keeps it above any page z-index, and the page behind it is
 * inert while it is open.
 */
export function createWidget(options: WidgetOptions): Widget {
  const mount = options.mount ?? document.body;
  const doc = mount.ownerDocument;
  const t = resolveStrings(options.strings);
  const listeners = new AbortController();
  const on = <E extends Event>(target: EventTarget, type: string, fn: (e: E) => void): void =>
    target.addEventListener(type, fn as EventListener, { signal: listeners.signal });
  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, parent: Node, cls?: string, text?: string) => {
    const node = parent.appendChild(doc.createElement(tag));
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const icon = (parent: Node, d: string): void => {
    const svg = parent.appendChild(doc.createElementNS('http://www.w3.org/2000/svg', 'svg'));
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('aria-hidden', 'true');
    svg.appendChild(doc.createElementNS('http://www.w3.org/2000/svg', 'path')).setAttribute('d', d);
  };

  const host = doc.createElement(HOST_TAG);
  // Open, not closed: a closed root protects nothing from a script in the same page (it can patch attachShadow),
  // while an open one lets assistive and test tooling reach the widget. Style isolation is the same in both modes.
  const root = host.attachShadow({ mode: 'open' });
  adoptStyles(root, doc);

  const launcher = el('button', root, 'launcher');
  launcher.type = 'button';
  launcher.setAttribute('aria-label', t.launcher);
  launcher.title = t.launcher;
  launcher.setAttribute('aria-haspopup', 'dialog');
  launcher.setAttribute('aria-expanded', 'false');
  launcher.setAttribute('aria-controls', 'kit-dialog');
  icon(launcher, ICON_CHAT);

  const dialog = el('dialog', root);
  dialog.id = 'kit-dialog';
  dialog.setAttribute('aria-modal', 'true');
  dialog.setAttribute('aria-labelledby', 'kit-title');
  const header = el('header', dialog);
  el('h2', header, '', t.title).id = 'kit-title';
  const closeButton = el('button', header, 'x');
  closeButton.type = 'button';
  closeButton.setAttribute('aria-label', t.close);
  icon(closeButton, ICON_CLOSE);

  const status = el('p', dialog, 'st');
  status.setAttribute('role', 'status');
  const bar = el('div', dialog, 'bar');
  bar.hidden = true;
  bar.setAttribute('aria-hidden', 'true');
  const barFill = el('i', bar);

  const log = el('div', dialog, 'log');
  log.setAttribute('role', 'log');
  log.setAttribute('aria-live', 'polite');
  log.setAttribute('aria-labelledby', 'kit-title');
  el('p', log, 'intro', t.intro);

  const composer = el('div', dialog, 'composer');
  const stopButton = el('button', composer, 'stop', t.stop);
  stopButton.type = 'button';
  stopButton.hidden = true;
  const row = el('div', composer, 'row');
  const input = el('textarea', row);
  input.rows = 1;
  input.dir = 'auto';
  input.placeholder = t.placeholder;
  input.setAttribute('aria-label', t.inputLabel);
  const sendButton = el('button', row, 'send');
  sendButton.type = 'button';
  sendButton.setAttribute('aria-label', t.send);
  sendButton.title = t.send;
  icon(sendButton, ICON_SEND);

  let destroyed = false;
  let shown = false;
  let busy = false;
  let returnFocus: HTMLElement | null = null;
  let current: (AnswerView & { end(): void }) | null = null;
  let notice: HTMLElement | null = null;
  const frames = new Set<number>();

  const submit = (): void => {
    const question = input.value.trim();
    if (busy || destroyed || !question) return;
    input.value = '';
    options.onAsk(question);
  };
  const afterClose = (): void => {
    if (!shown) return;
    shown = false;
    launcher.setAttribute('aria-expanded', 'false');
    const target = returnFocus?.isConnected ? returnFocus : launcher;
    returnFocus = null;
    target.focus();
    options.onOpenChange?.(false);
  };
  const isPinned = (): boolean => log.scrollHeight - log.scrollTop - log.clientHeight < STICK_PX;
  /** A conversation entry: a screen-reader-only speaker prefix, then a `dir=auto` body so RTL text reads right. */
  const addMessage = (cls: string, who: string, text?: string): { msg: HTMLDivElement; body: HTMLDivElement } => {
    const msg = el('div', log, 'msg ' + cls);
    el('span', msg, 'sr', who + ' ');
    const body = el('div', msg, 'b', text);
    body.dir = 'auto';
    return { msg, body };
  };
  const reveal = (pinned: boolean): void => {
    if (pinned) log.scrollTop = log.scrollHeight;
  };

  on(launcher, 'click', () => (shown ? widget.close() : widget.open()));
  on(closeButton, 'click', () => widget.close());
  on(stopButton, 'click', () => {
    if (busy && !destroyed) options.onStop();
  });
  on(sendButton, 'click', () => {
    submit();
    input.focus();
  });
  on<KeyboardEvent>(input, 'keydown', (e) => {
    // isComposing: Enter also confirms an IME composition (Chinese, Japanese, …); that must not send.
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      submit();
    }
  });
  // Escape fires `cancel` and then `close` natively; `close` also covers every other way the dialog can close.
  on(dialog, 'close', afterClose);
  on<MouseEvent>(dialog, 'click', (e) => {
    // A click on the ::backdrop is dispatched to the dialog itself, with coordinates outside its box.
    if (e.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) widget.close();
  });
  on<KeyboardEvent>(dialog, 'keydown', (e) => {
    // The page is inert behind a modal dialog, but Tab would still leave it for the browser's own UI; wrap instead.
    if (e.key !== 'Tab') return;
    const items = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (n) => !(n as HTMLButtonElement).disabled && n.getClientRects().length > 0,
    );
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    const active = root.activeElement;
    if (e.shiftKey ? active === first || !items.includes(active as HTMLElement) : active === last) {
      e.preventDefault();
      (e.shiftKey ? last : first).focus();
    }
  });

  const widget: Widget = {
    open() {
      if (destroyed || shown) return;
      const active = root.activeElement ?? doc.activeElement;
      returnFocus = active instanceof HTMLElement && active !== doc.body ? active : null;
      try {
        dialog.showModal();
      } catch {
        dialog.show(); // not in a document yet, or a foreign modal blocks: fall back to a non-modal panel
      }
      shown = true;
      launcher.setAttribute('aria-expanded', 'true');
      input.focus();
      options.onOpenChange?.(true);
    },
    close() {
      if (destroyed || !shown) return;
      dialog.close();
      afterClose();
    },
    isOpen: () => shown,
    destroy() {
      if (destroyed) return;
      current?.end();
      destroyed = true;
      listeners.abort();
      for (const id of frames) cancelAnimationFrame(id);
      frames.clear();
      if (dialog.open) dialog.close();
      const target = shown && returnFocus?.isConnected && !root.contains(returnFocus) ? returnFocus : null;
      shown = false;
      host.remove();
      target?.focus();
    },
    setBusy(value) {
      if (destroyed) return;
      busy = value;
      sendButton.disabled = value;
      const stopHadFocus = root.activeElement === stopButton;
      stopButton.hidden = !value;
      if (stopHadFocus && !value) input.focus();
    },
    setStatus(text, progress) {
      if (destroyed) return;
      status.textContent = text;
      const showBar = typeof progress === 'number' && Number.isFinite(progress);
      bar.hidden = !showBar;
      if (showBar) barFill.style.width = `${Math.min(1, Math.max(0, progress)) * 100}%`;
    },
    showUserMessage(text) {
      if (destroyed) return;
      addMessage('me', t.you, String(text));
      reveal(true); // the visitor's own question always scrolls into view
    },
    setNotice(text) {
      if (destroyed) return;
      notice = setLoggingNotice(dialog, composer, text, notice);
    },
    showError(message) {
      if (destroyed) return;
      const pinned = isPinned();
      addMessage('err', t.assistant, String(message));
      reveal(pinned);
    },
    startAnswer() {
      if (destroyed) return inertAnswer;
      current?.end();
      widget.setBusy(true);
      const { msg, body } = addMessage('bot live', t.assistant);
      let sources: HTMLElement | null = null;
      let text = '';
      let frame = 0;
      let ended = false;
      log.setAttribute('aria-busy', 'true');
      reveal(true);

      const render = (): void => {
        frames.delete(frame);
        frame = 0;
        const pinned = isPinned();
        body.replaceChildren(renderMarkdown(text, doc));
        reveal(pinned);
      };
      const view = {
        append(piece: string) {
          if (ended || destroyed) return;
          text += String(piece);
          if (!frame) frames.add((frame = requestAnimationFrame(render)));
        },
        setCitations(citations: readonly WidgetCitation[]) {
          if (destroyed) return;
          const pinned = isPinned();
          sources?.remove();
          sources = null;
          const seen = new Set<string>();
          for (const c of Array.isArray(citations) ? citations : []) {
            const href = safeHttpUrl(c?.url, doc.baseURI);
            const key = href ?? String(c?.url);
            if (seen.has(key)) continue;
            seen.add(key);
            if (!sources) {
              sources = el('div', msg, 'src');
              el('p', sources, '', t.sources);
              el('ol', sources);
            }
            const item = el('li', sources.lastChild as HTMLElement);
            const label = (typeof c?.title === 'string' && c.title.trim()) || href || String(c?.url ?? '');
            if (href) {
              const link = el('a', item, '', label);
              link.href = href;
              link.target = '_blank';
              link.rel = 'noopener noreferrer';
              link.title = href;
            } else item.textContent = label;
          }
          reveal(pinned);
        },
        refuse(message: string) {
          if (ended || destroyed) return;
          text = '';
          view.end();
          msg.classList.add('refusal');
          body.textContent = String(message);
        },
        fail(message: string) {
          if (ended || destroyed) return;
          view.end();
          msg.classList.add('failed');
          el('p', msg, 'err', String(message));
        },
        done() {
          if (ended || destroyed) return;
          view.end();
          if (!text && !sources) msg.remove(); // stopped before the first token: no empty bubble
        },
        offerFeedback(rate: RateAnswer, feedbackOptions: { allowComment: boolean }) {
          if (destroyed || !msg.isConnected) return;
          mountFeedbackButtons(msg, { rate, allowComment: feedbackOptions.allowComment, strings: options.strings as Record<string, string> | undefined });
        },
        end() {
          if (ended) return;
          ended = true;
          if (frame) {
            cancelAnimationFrame(frame);
            render();
          }
          msg.classList.remove('live');
          log.setAttribute('aria-busy', 'false');
          if (current === view) current = null;
          widget.setBusy(false);
        },
      };
      current = view;
      return view;
    },
  };

  mount.appendChild(host);
  if (options.autoOpen) widget.open();
  return widget;
}

const inertAnswer: AnswerView = { append() {}, setCitations() {}, refuse() {}, fail() {}, done() {} };

/**
 * Constructable stylesheets are not subject to a page's CSP `style-src` (a `<style>` element would need
 * 'unsafe-inline'); the `<style>` fallback serves browsers without them.
 */
function adoptStyles(root: ShadowRoot, doc: Document): void {
  const view = doc.defaultView;
  if (view && 'adoptedStyleSheets' in root && 'replaceSync' in view.CSSStyleSheet.prototype) {
    const sheet = new view.CSSStyleSheet();
    sheet.replaceSync(WIDGET_CSS + FEEDBACK_CSS + LOGGING_NOTICE_CSS);
    root.adoptedStyleSheets = [sheet];
  } else {
    root.appendChild(doc.createElement('style')).textContent = WIDGET_CSS + FEEDBACK_CSS + LOGGING_NOTICE_CSS;
  }
}
