import { createAnswerView, type AnswerView, type WidgetCitation } from './answer-view.js';
import { setLoggingNotice } from './logging-notice.js';
import { addStyles, applyTheme, createShell, type Shell, type WidgetTheme } from './shell.js';
import { WIDGET_CSS } from './styles.js';
import { resolveStrings, type WidgetStrings } from './strings.js';

export type { AnswerView, WidgetCitation };

/** Where the assistant shows: a floating launcher with a panel, a side panel, or inline in a host element. */
export type Placement = 'launcher' | 'sidebar' | 'inline';

/** Options of `createWidget`; the SDK's composition root supplies the callbacks. */
export interface WidgetOptions {
  /** UI string overrides (unknown keys and empty values are ignored); `setStrings` replaces them all later. */
  strings?: Readonly<Partial<WidgetStrings>> | Readonly<Record<string, string>>;
  /** Open the panel as soon as the widget is created. Default false. */
  autoOpen?: boolean;
  /** Default 'launcher'. 'inline' mounts into `target` and is always open. */
  placement?: Placement;
  /** The side panel covers the page ('overlay', default) or pushes it aside ('push'). */
  sidebar?: 'overlay' | 'push';
  /** The element an inline widget mounts into (required for 'inline'). */
  target?: HTMLElement;
  /** A key combination that opens the panel, e.g. 'mod+k' or '/'; null (default) for none. */
  shortcut?: string | null;
  /** The visitor submitted a non-empty question (trimmed), typed or a starter question. Not called while busy. */
  onAsk(question: string): void;
  /** The visitor pressed Stop while busy. */
  onStop(): void;
  /** The panel opened or closed, whatever the cause (launcher, Escape, backdrop, open()/close()); not on destroy(). */
  onOpenChange?(open: boolean): void;
  /** The visitor pressed "New conversation" (the widget has cleared its thread already). */
  onNewConversation?(): void;
  /** Element the widget's host is appended to (launcher, sidebar). Default `document.body`. */
  mount?: HTMLElement;
  /** The host and launcher the SDK's entry already shows (the panel is built into them); default: new ones. */
  shell?: Shell;
}

export type { WidgetTheme };

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
  /** The notice shown while the site owner logs questions (issue 13): '' for the `loggingNotice` string, null removes it. */
  setNotice(text: string | null): void;
  /** The strings in use (after `setStrings`). */
  strings(): Readonly<WidgetStrings>;
  /** Replaces every UI string (language switch, the title following the context). */
  setStrings(strings: Readonly<WidgetStrings>): void;
  /** The empty conversation's greeting (null: the `intro` string) and starter questions. */
  setWelcome(greeting: string | null, starters: readonly string[]): void;
  /** Empties the thread (back to the greeting). */
  clear(): void;
  setTheme(theme: WidgetTheme): void;
}

const FOCUSABLE = 'a[href],button,textarea,input';
/** Scroll distance from the bottom (px) within which new text keeps the conversation pinned to the end. */
const STICK_PX = 48;
/** Screens where the panel takes the whole viewport and is modal. */
const SMALL_SCREEN = '(max-width: 480px), (max-height: 500px)';
const ICON_CLOSE = 'M18 6 6 18M6 6l12 12';
const ICON_SEND = 'M12 19V5m-7 7 7-7 7 7';
const ICON_NEW = 'M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z';

/**
 * Builds the widget inside an open shadow root on a `<kit-widget>` host (see docs/widget.md). The panel is a
 * non-modal `<dialog>` (the page stays usable while the visitor asks about it); on small screens it fills the
 * viewport and is modal. Inline, it is a region inside the host element, always open.
 */
export function createWidget(options: WidgetOptions): Widget {
  const placement: Placement = options.placement === 'inline' && options.target ? 'inline' : options.placement === 'sidebar' ? 'sidebar' : 'launcher';
  const inline = placement === 'inline';
  const mount = inline ? options.target! : options.mount ?? document.body;
  const doc = mount.ownerDocument;
  const win = doc.defaultView ?? window;
  let t = resolveStrings(options.strings);
  const listeners = new AbortController();
  const on = <E extends Event>(target: EventTarget, type: string, fn: (e: E) => void): void =>
    target.addEventListener(type, fn as EventListener, { signal: listeners.signal });
  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, parent: Node, cls?: string, text?: string) => {
    const node = parent.appendChild(doc.createElement(tag));
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const button = (parent: Node, cls: string, d?: string): HTMLButtonElement => {
    const b = el('button', parent, cls);
    b.type = 'button';
    if (d) {
      const svg = b.appendChild(doc.createElementNS('http://www.w3.org/2000/svg', 'svg'));
      svg.setAttribute('viewBox', '0 0 24 24');
      svg.setAttribute('aria-hidden', 'true');
      svg.appendChild(doc.createElementNS('http://www.w3.org/2000/svg', 'path')).setAttribute('d', d);
    }
    return b;
  };
  /** Elements whose text or attribute follows the strings: [element, attribute or '' for text, key]. */
  const labels: [HTMLElement, string, keyof WidgetStrings][] = [];
  const label = <T extends HTMLElement>(node: T, attrs: string[], key: keyof WidgetStrings): T => {
    for (const attr of attrs) labels.push([node, attr, key]);
    return node;
  };
  const applyLabels = (): void => {
    for (const [node, attr, key] of labels) {
      if (attr) node.setAttribute(attr, t[key]);
      else node.textContent = t[key];
    }
  };

  const shell = options.shell ?? createShell(mount, inline, t.launcher);
  shell.early.abort(); // the entry's own listeners (load on intent) end: the panel handles the launcher now
  const { host, root } = shell;
  host.dataset.p = placement;
  addStyles(root, WIDGET_CSS);
  const launcher = shell.launcher;
  if (launcher) {
    label(launcher, ['aria-label', 'title'], 'launcher');
    launcher.setAttribute('aria-controls', 'kit-panel');
  }
  // Inline: a labelled region in the page's flow. Otherwise a dialog; its heading row is a <div>, not a <header>,
  // which would be a second `banner` landmark beside the page's own.
  const panel = el(inline ? 'section' : 'dialog', root, 'panel');
  panel.id = 'kit-panel';
  panel.setAttribute('aria-labelledby', 'kit-title');
  const head = el('div', panel, 'hd');
  label(el('h2', head), [''], 'title').id = 'kit-title';
  const newButton = label(button(head, 'x new', ICON_NEW), ['aria-label', 'title'], 'newConversation');
  newButton.hidden = true;
  const closeButton = inline ? null : label(button(head, 'x close', ICON_CLOSE), ['aria-label', 'title'], 'close');

  const status = el('p', panel, 'st');
  status.setAttribute('role', 'status');
  const bar = el('div', panel, 'bar');
  bar.hidden = true;
  bar.setAttribute('aria-hidden', 'true');
  const barFill = el('i', bar);

  const log = el('div', panel, 'log');
  log.setAttribute('role', 'log');
  log.setAttribute('aria-live', 'polite');
  log.setAttribute('aria-labelledby', 'kit-title');
  const welcome = el('div', log, 'welcome');
  const intro = el('p', welcome, 'intro');
  const starters = el('div', welcome, 'starters');
  let greeting: string | null = null;

  const composer = el('div', panel, 'composer');
  const stopButton = label(el('button', composer, 'stop'), [''], 'stop');
  stopButton.type = 'button';
  stopButton.hidden = true;
  const row = el('div', composer, 'row');
  const input = label(el('textarea', row), ['aria-label'], 'inputLabel');
  label(input, ['placeholder'], 'placeholder');
  input.rows = 1;
  input.dir = 'auto';
  const sendButton = label(button(row, 'send', ICON_SEND), ['aria-label', 'title'], 'send');

  let destroyed = false;
  let shown = inline;
  let modal = false;
  let busy = false;
  let returnFocus: HTMLElement | null = null;
  let current: (AnswerView & { end(): void }) | null = null;
  let notice: HTMLElement | null = null;
  let noticeText: string | null = null;
  let pushed: string | null = null;
  const frames = new Set<number>();
  const cited = new WeakMap<Element, readonly WidgetCitation[]>();

  const renderWelcome = (starterList: readonly string[]): void => {
    intro.textContent = greeting ?? t.intro;
    starters.replaceChildren();
    if (!starterList.length) return;
    const list = el('ul', starters);
    list.setAttribute('aria-label', t.suggestions);
    for (const q of starterList) el('button', el('li', list), 'sq', q).type = 'button';
  };
  let starterList: readonly string[] = [];
  const hasThread = (): boolean => log.childElementCount > 1;
  const syncEmpty = (): void => {
    welcome.hidden = hasThread();
    newButton.hidden = !hasThread();
  };
  /** Sends the typed question, or `starter` (what the visitor typed stays in the field then). */
  const submit = (starter?: string): void => {
    const question = (starter ?? input.value).trim();
    if (busy || destroyed || !question) return;
    if (starter === undefined) input.value = '';
    options.onAsk(question);
  };
  const unpush = (): void => {
    if (pushed === null) return;
    doc.documentElement.style.setProperty('margin-inline-end', pushed);
    if (!pushed) doc.documentElement.style.removeProperty('margin-inline-end');
    pushed = null;
  };
  const afterClose = (): void => {
    if (!shown || inline) return;
    shown = false;
    modal = false;
    unpush();
    hideTip();
    launcher?.setAttribute('aria-expanded', 'false');
    const target = returnFocus?.isConnected ? returnFocus : launcher;
    returnFocus = null;
    target?.focus();
    options.onOpenChange?.(false);
  };
  const isPinned = (): boolean => log.scrollHeight - log.scrollTop - log.clientHeight < STICK_PX;
  /** A conversation entry: a screen-reader-only speaker prefix, then a `dir=auto` body so RTL text reads right. */
  const addMessage = (cls: string, who: keyof WidgetStrings, text?: string): { msg: HTMLDivElement; body: HTMLDivElement } => {
    const msg = el('div', log, 'msg ' + cls);
    el('span', msg, 'sr', t[who] + ' ');
    const body = el('div', msg, 'b', text);
    body.dir = 'auto';
    syncEmpty();
    return { msg, body };
  };
  const reveal = (pinned: boolean): void => {
    if (pinned) log.scrollTop = log.scrollHeight;
  };
  const citationOf = (node: Element): WidgetCitation | undefined => {
    const msg = node.closest('.msg');
    return msg ? cited.get(msg)?.[Number((node as HTMLElement).dataset.n) - 1] : undefined;
  };
  let preview: typeof import('./preview.js') | null = null;
  function hideTip(): void {
    preview?.hidePreview(root);
  }
  const showTip = (anchor: HTMLElement): void => {
    const c = citationOf(anchor);
    if (!c?.text) return;
    // The passage preview is a lazy chunk, loaded by the first hover or focus on a citation.
    void import(/* webpackChunkName: "kit-preview" */ './preview.js').then((m) => {
      preview = m;
      if (!destroyed && anchor.isConnected && (anchor.matches(':hover') || root.activeElement === anchor)) m.showPreview(root, anchor, c);
    });
  };
  const samePage = (url: string): boolean => {
    try {
      const a = new URL(url, doc.baseURI);
      const b = new URL(doc.URL);
      a.hash = b.hash = '';
      return a.href === b.href;
    } catch {
      return false;
    }
  };
  const copy = (text: string, target: HTMLElement): void => {
    const done = (): void => {
      const before = target.textContent;
      target.textContent = t.copied;
      status.textContent = t.copied;
      setTimeout(() => {
        if (destroyed) return;
        target.textContent = before;
        if (status.textContent === t.copied) status.textContent = '';
      }, 1500);
    };
    win.navigator.clipboard?.writeText(text).then(done, () => undefined);
  };

  if (launcher) on(launcher, 'click', () => (shown ? widget.close() : widget.open()));
  if (closeButton) on(closeButton, 'click', () => widget.close());
  on(newButton, 'click', () => {
    widget.clear();
    options.onNewConversation?.();
  });
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
  on<MouseEvent>(log, 'click', (e) => {
    const target = e.target as HTMLElement;
    const starter = target.closest<HTMLButtonElement>('.sq');
    if (starter) return submit(starter.textContent ?? '');
    const copyButton = target.closest<HTMLElement>('[data-copy]');
    if (copyButton) {
      const source = copyButton.dataset.copy === 'code' ? copyButton.parentElement?.querySelector('code') : copyButton.closest('.msg')?.querySelector('.b');
      return copy((source as HTMLElement | null)?.innerText ?? '', copyButton);
    }
    const link = target.closest<HTMLElement>('[data-n]');
    const c = link && citationOf(link);
    if (!c || !samePage(c.url) || !c.text) return;
    // The cited passage is on this page: scroll to it and highlight it here rather than opening the page again.
    e.preventDefault();
    hideTip();
    if (modal) widget.close();
    void import(/* webpackChunkName: "kit-highlight" */ './highlight.js').then((m) => {
      if (!destroyed) m.highlightPassage(doc, c.text!, root, addCss);
    });
  });
  const overCitation = (e: Event): void => {
    const a = (e.target as HTMLElement).closest?.<HTMLElement>('[data-n]');
    if (a) showTip(a);
  };
  on(log, 'mouseover', overCitation);
  on(log, 'focusin', overCitation);
  on<MouseEvent>(log, 'mouseout', (e) => {
    if (!(e.relatedTarget as Element | null)?.closest?.('[data-n]')) hideTip();
  });
  on(log, 'focusout', hideTip);
  on(log, 'scroll', hideTip);
  // Escape hides a preview first, then closes the panel (a non-modal dialog gets no native `cancel`).
  on<KeyboardEvent>(panel, 'keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      if (preview?.hidePreview(root)) return;
      if (!inline) widget.close();
      return;
    }
    // A modal panel makes the page inert, but Tab would still leave it for the browser's own UI; wrap instead.
    if (e.key !== 'Tab' || !modal) return;
    const items = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (n) => !(n as HTMLButtonElement).disabled && n.getClientRects().length > 0,
    );
    if (!items.length) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    const active = root.activeElement;
    if (e.shiftKey ? active === first || !items.includes(active as HTMLElement) : active === last) {
      e.preventDefault();
      (e.shiftKey ? last : first).focus();
    }
  });
  // `close` is queued: a panel opened again before it fires is open, and stays so.
  on(panel, 'close', () => {
    if (!(panel as HTMLDialogElement).open) afterClose();
  });
  on<MouseEvent>(panel, 'click', (e) => {
    // A click on a modal dialog's ::backdrop is dispatched to the dialog itself, with coordinates outside its box.
    if (e.target !== panel || !modal) return;
    const r = panel.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) widget.close();
  });
  if (options.shortcut) {
    // Off by default; its parser is a lazy chunk so pages without a shortcut never load it.
    void import(/* webpackChunkName: "kit-shortcut" */ './shortcut.js').then(({ parseShortcut }) => {
      const shortcut = parseShortcut(options.shortcut);
      if (!shortcut || destroyed) return;
      on<KeyboardEvent>(doc, 'keydown', (e) => {
        if (!shortcut.matches(e)) return;
        e.preventDefault();
        if (shown && root.activeElement && !inline) widget.close();
        else if (shown) input.focus();
        else widget.open();
      });
      (launcher ?? input).setAttribute('aria-keyshortcuts', shortcut.aria);
    });
  }

  const sheets = new Set<string>();
  /** Adds a lazy chunk's styles once. */
  function addCss(css: string): void {
    if (sheets.has(css)) return;
    sheets.add(css);
    addStyles(root, css);
  }
  const answerHost = {
    doc,
    addCss,
    strings: () => t,
    pinned: isPinned,
    reveal,
    frame(fn: () => void) {
      const id = requestAnimationFrame(() => {
        frames.delete(id);
        fn();
      });
      frames.add(id);
      return () => {
        cancelAnimationFrame(id);
        frames.delete(id);
      };
    },
    ended(view: AnswerView) {
      log.setAttribute('aria-busy', 'false');
      if (current === view) current = null;
      widget.setBusy(false);
      syncEmpty();
    },
    destroyed: () => destroyed,
  };

  const widget: Widget = {
    open() {
      if (destroyed || shown) return;
      const active = root.activeElement ?? doc.activeElement;
      returnFocus = active instanceof HTMLElement && active !== doc.body ? active : null;
      const dialog = panel as HTMLDialogElement;
      modal = win.matchMedia?.(SMALL_SCREEN).matches ?? false;
      try {
        if (modal) dialog.showModal();
        else dialog.show();
      } catch {
        modal = false;
        dialog.show(); // not in a document yet, or a foreign modal blocks: a non-modal panel still works
      }
      if (modal) dialog.setAttribute('aria-modal', 'true');
      else dialog.removeAttribute('aria-modal');
      if (placement === 'sidebar' && options.sidebar === 'push' && !modal) {
        pushed = doc.documentElement.style.getPropertyValue('margin-inline-end');
        doc.documentElement.style.setProperty('margin-inline-end', `${panel.getBoundingClientRect().width}px`);
      }
      shown = true;
      launcher?.setAttribute('aria-expanded', 'true');
      input.focus();
      options.onOpenChange?.(true);
    },
    close() {
      if (destroyed || !shown || inline) return;
      (panel as HTMLDialogElement).close();
      afterClose();
    },
    isOpen: () => shown,
    strings: () => t,
    destroy() {
      if (destroyed) return;
      current?.end();
      destroyed = true;
      listeners.abort();
      for (const id of frames) cancelAnimationFrame(id);
      frames.clear();
      unpush();
      if (!inline && (panel as HTMLDialogElement).open) (panel as HTMLDialogElement).close();
      const target = shown && !inline && returnFocus?.isConnected && !root.contains(returnFocus) ? returnFocus : null;
      shown = false;
      host.remove();
      target?.focus();
    },
    setBusy(value) {
      if (destroyed) return;
      busy = value;
      sendButton.disabled = value;
      for (const b of starters.querySelectorAll('button')) b.disabled = value;
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
      addMessage('me', 'you', String(text));
      reveal(true); // the visitor's own question always scrolls into view
    },
    setNotice(text) {
      if (destroyed) return;
      noticeText = text;
      notice = setLoggingNotice(panel, composer, text === '' ? t.loggingNotice : text, notice);
    },
    setStrings(strings) {
      if (destroyed) return;
      t = { ...strings };
      applyLabels();
      renderWelcome(starterList);
      if (noticeText === '') widget.setNotice('');
    },
    setWelcome(text, list) {
      if (destroyed) return;
      greeting = text?.trim() || null;
      starterList = (Array.isArray(list) ? list : []).filter((q): q is string => typeof q === 'string' && q.trim() !== '').slice(0, 6);
      renderWelcome(starterList);
    },
    clear() {
      if (destroyed) return;
      current?.end();
      hideTip();
      while (log.lastChild && log.lastChild !== welcome) log.lastChild.remove();
      syncEmpty();
      input.focus();
    },
    setTheme(theme) {
      if (!destroyed) applyTheme(host, theme);
    },
    showError(message) {
      if (destroyed) return;
      const pinned = isPinned();
      addMessage('err', 'assistant', String(message));
      reveal(pinned);
    },
    startAnswer() {
      if (destroyed) return inertAnswer;
      current?.end();
      widget.setBusy(true);
      const { msg, body } = addMessage('bot live', 'assistant');
      log.setAttribute('aria-busy', 'true');
      reveal(true);
      const view = createAnswerView(answerHost, msg, body);
      const setCitations = view.setCitations;
      view.setCitations = (list) => {
        cited.set(msg, Array.isArray(list) ? list : []);
        setCitations(list);
      };
      current = view;
      return view;
    },
  };

  applyLabels();
  renderWelcome([]);
  if (!host.isConnected) mount.appendChild(host);
  if (options.autoOpen) widget.open();
  return widget;
}

const inertAnswer: AnswerView = { append() {}, setCitations() {}, refuse() {}, fail() {}, done() {} };
