import type { KitConfig } from '../core/config/index.js';
import { isKitError, KitError, type ErrorCode } from '../core/errors/index.js';
import type { ChatTurn } from '../core/ports/inference.port.js';
import type { PlatformAssistant } from '../adapters/remote/platform-client.js';
import type { Assistant, KitHostOptions, StartAssistant } from './assistant.js';
import { createThreadStore, newConversationId, type Thread, type ThreadMessage } from './conversation.js';
import { createEmitter } from './emitter.js';
import { SETUP_CODES } from './setup-codes.js';
import type { Answer, AskOptions, KitEvents, KitInstance } from './types.js';
import type { AnswerView, Placement, Widget, WidgetStrings } from './widget/index.js';
import { loadUiStrings, pickUiLanguage, type UiLanguage } from './widget/languages.js';
import { applyTheme, createShell, type Shell } from './widget/shell.js';

/** Upper bound of a question's length before anything else runs; the server enforces its plan limit again. */
export const MAX_QUESTION_CHARS = 4_000;
/** Turns of history sent with a question: enough for follow-ups, small enough for small local models. */
export const MAX_HISTORY_TURNS = 6;
const destroyedError = (): KitError => new KitError('invalid_request', 'This Kit instance was destroyed; call Kit.init again.');

/** Abort reason of the widget's Stop button: the answer so far is kept, and it is no error. */
const STOPPED = Object.freeze({ name: 'KitStopped' });

type WidgetModule = typeof import('./widget/index.js');

/**
 * One Kit instance: lifecycle, events, the kept thread, and a queue so that asks run one at a time in order.
 * The heavy work (reading the page, redaction, grounding, engines) lives in the Assistant, and the widget UI in its
 * own chunk; both load lazily, in parallel, as soon as the instance exists.
 */
export function createInstance(config: KitConfig, host: KitHostOptions, startAssistant: () => Promise<StartAssistant>, loadWidget: () => Promise<WidgetModule> = () => import(/* webpackChunkName: "kit-ui" */ './widget/index.js')): KitInstance & { readonly destroyed: boolean } {
  const emitter = createEmitter<KitEvents>();
  const wantWidget = host.widget !== false && typeof document !== 'undefined';
  const lifetime = new AbortController();
  const store = createThreadStore(config.persist, config.apiKey);
  let thread: Thread = store.load() ?? { id: newConversationId(), messages: [] };
  let destroyed = false;
  let queue: Promise<unknown> = Promise.resolve();
  let current: AbortController | null = null;
  /** The assistant once started, so destroy() can tear it down synchronously. */
  let started: Assistant | null = null;
  let settings: PlatformAssistant | null = null;

  // The page is read on the first sign of use (docs/sdk.md, "What happens, in order"): intent on the launcher, a
  // panel shown, open(), ask(), feedback(), or a host waiting for `ready`.
  let read!: (v?: unknown) => void;
  const reading = new Promise((r) => (read = r));
  if (config.onError) emitter.on('error', config.onError);
  if (config.onMessage) emitter.on('message', config.onMessage);

  const toError = (err: unknown): KitError => {
    if (isKitError(err)) return err;
    if ((err as { name?: string })?.name === 'AbortError') return new KitError('network_error', 'The request was cancelled.', { cause: err });
    return new KitError('internal_error', 'Kit failed unexpectedly.', { cause: err });
  };
  const retryAfter = (err: KitError): number | undefined => {
    const n = err.details?.retry_after_seconds;
    return typeof n === 'number' ? n : undefined;
  };
  const report = (err: KitError) => {
    const seconds = retryAfter(err);
    emitter.emit('error', { code: err.code as ErrorCode, message: err.message, ...(seconds !== undefined && { retryAfterSeconds: seconds }) });
  };
  /** What the visitor reads: the message, and when to try again if the service said so. */
  const visible = (err: KitError, t: Readonly<WidgetStrings>): string => {
    // The site's key or origin is misconfigured: the developer's explanation is in the console and the error event.
    if (SETUP_CODES.has(err.code)) return t.notSetUp;
    const seconds = retryAfter(err);
    return seconds === undefined ? err.message : `${err.message} ${t.retryIn.replace('{seconds}', String(seconds))}`;
  };
  const remember = (message: ThreadMessage): void => {
    thread = { id: thread.id, messages: [...thread.messages, message] };
    store.save(thread);
  };
  /** The turns sent with a follow-up: answered exchanges only, without citation markers (they numbered old sources). */
  const history = (): ChatTurn[] => {
    const turns: ChatTurn[] = [];
    const m = thread.messages;
    for (let i = 0; i + 1 < m.length; i++) {
      if (m[i]!.role === 'user' && m[i + 1]!.role === 'assistant' && !m[i + 1]!.refused) {
        turns.push({ role: 'user', content: m[i]!.text }, { role: 'assistant', content: m[i + 1]!.text.replace(/\s?\[\d{1,3}\]/g, '') });
      }
    }
    return turns.slice(-MAX_HISTORY_TURNS);
  };

  // ---- The widget: the launcher (entry) at once; the panel (the kit-ui chunk) on intent, open(), autoOpen or inline. ----
  let widget: Widget | null = null;
  let widgetModule: WidgetModule | null = null;
  let widgetPlacement: Placement | null = null;
  let placement: Placement = config.placement ?? 'launcher';
  let uiStrings: WidgetStrings | null = null;
  let wantOpen = false;
  let statusText: [string, number | undefined] | null = null;
  let startError: KitError | null = null;
  /** The answer streaming now, so a panel that appears mid-answer can show it from its start. */
  let live: { partial: string; view: AnswerView | null } | null = null;
  const site = config.context.scope !== 'page';
  const language = (wanted: string | null) => pickUiLanguage(wanted, typeof document !== 'undefined' ? document.documentElement.lang : null);
  let uiLanguage = language(config.language);
  const strings = (): Readonly<WidgetStrings> => widgetModule!.panelStrings(uiStrings, settings, site, config.strings);
  /** The launcher's name before the panel's strings exist: the snippet's, the owner's, the language's, English. */
  const launcherLabel = (): string => config.strings.launcher || settings?.theme.launcher_label || settings?.name || (site && config.strings.titleSite)
    || (uiStrings ? (site ? uiStrings.titleSite : uiStrings.launcher) : site ? 'Ask about this site' : 'Ask about this page');
  const targetElement = (): HTMLElement | null => {
    const t = config.target;
    if (t && typeof t === 'object') return t as HTMLElement;
    try {
      return typeof t === 'string' ? document.querySelector<HTMLElement>(t) : null;
    } catch {
      return null;
    }
  };
  let shell: Shell | null = null;
  const showShell = (): void => {
    if (!wantWidget || destroyed || shell || widget || placement === 'inline') return;
    shell = createShell(host.mount ?? document.body, false, launcherLabel());
    const on = (type: string, fn: () => void) => shell!.launcher!.addEventListener(type, fn, { signal: shell!.early.signal });
    // Intent (hover, focus, touch) starts the panel's download, so it is there by the time the click lands.
    for (const type of ['pointerenter', 'focus', 'touchstart']) on(type, () => void loadPanel());
    on('click', () => instance.open());
  };
  const relabel = (): void => {
    const l = shell?.launcher;
    if (l && !widget) {
      l.setAttribute('aria-label', launcherLabel());
      l.title = launcherLabel();
    }
  };
  /** Builds (or rebuilds, when the owner's placement arrives) the panel and shows the kept thread in it. */
  const mountWidget = (): void => {
    if (!widgetModule || destroyed) return;
    const wasOpen = widget?.isOpen() ?? false;
    let target: HTMLElement | null = null;
    let where = placement;
    if (where === 'inline' && !(target = targetElement())) {
      report(new KitError('invalid_config', 'target matches no element: the widget shows as a launcher instead.', { details: { option: 'target' } }));
      where = 'launcher';
    }
    if (widget) {
      widget.destroy();
      widget = null;
      shell = null;
    }
    if (where === 'inline') {
      shell?.host.remove();
      shell = null;
    } else showShell();
    widgetPlacement = placement; // what was asked for: a fallback is not retried on every settings update
    const w = widgetModule.createWidget({
      strings: strings(),
      placement: where,
      sidebar: config.sidebar,
      ...(target ? { target } : {}),
      ...(shell ? { shell } : {}),
      shortcut: config.shortcut,
      ...(host.mount ? { mount: host.mount } : {}),
      onAsk: (question) => { instance.ask(question).catch(() => { /* shown in the widget and sent to on('error') */ }); },
      onStop: () => current?.abort(STOPPED),
      onOpenChange: (open) => { wantOpen = open; emitter.emit(open ? 'open' : 'close', {}); },
      onNewConversation: () => instance.newConversation(),
    });
    widget = w;
    widgetModule.applySettings(w, settings);
    widgetModule.showThread(w, thread.messages, offerFeedback);
    if (live) {
      live.view = w.startAnswer();
      live.view.append(live.partial);
    }
    if (startError) w.showError(visible(startError, w.strings()));
    if (statusText) w.setStatus(...statusText);
    if (wasOpen || wantOpen) w.open();
  };
  const offerFeedback = (view: AnswerView, id: string): void => {
    view.offerFeedback?.((rating, comment) => instance.feedback(id, rating, comment ? { comment } : {}), { allowComment: (settings?.logging.mode ?? 'off') !== 'off' });
  };
  /** The UI strings of the chosen language (a chunk unless English). */
  let stringsLoad: Promise<void> = Promise.resolve();
  const chooseLanguage = (lang: UiLanguage): Promise<void> => {
    uiLanguage = lang;
    stringsLoad = loadUiStrings(lang).then((s) => {
      if (uiLanguage !== lang) return;
      uiStrings = s;
      relabel();
    }, () => undefined);
    return stringsLoad;
  };
  let panel: Promise<Widget | null> | null = null;
  const loadPanel = (): Promise<Widget | null> => {
    read();
    if (!wantWidget) return Promise.resolve(null);
    panel ??= Promise.all([loadWidget(), stringsLoad]).then(([m]) => {
      widgetModule = m;
      mountWidget();
      return widget;
    }).catch((err) => {
      if (!destroyed) report(new KitError('internal_error', 'The Kit widget could not be loaded.', { cause: err }));
      return null;
    });
    return panel;
  };
  if (wantWidget) {
    if (uiLanguage !== 'en') void chooseLanguage(uiLanguage);
    showShell();
    // Inline and autoOpen show the panel at once, and a shortcut needs it (the panel owns the key listener) before
    // the visitor's first key press; otherwise it loads on the visitor's intent or open().
    if (placement === 'inline' || config.autoOpen || config.shortcut) void loadPanel();
    if (config.autoOpen) wantOpen = true;
  }

  // The owner's settings (snippet options win): language, placement, greeting, starters, theme, notice — as soon as
  // `GET /config` answers, before the page is read.
  let owned: Promise<void> | undefined;
  const own = (s: PlatformAssistant | null): Promise<void> => (owned = (async () => {
    settings = s;
    if (wantWidget && s) {
      const lang = language(config.language ?? s.language);
      if (lang !== uiLanguage) await chooseLanguage(lang);
      placement = config.placement ?? s.placement;
      if (placement === 'inline' && !config.target) placement = 'launcher';
      if (shell) applyTheme(shell.host, s.theme);
      relabel();
      if (placement === 'inline' && !panel) void loadPanel();
    }
    // (destroy() removes the widget)
    if (widget) {
      if (placement !== widgetPlacement) mountWidget();
      else {
        widget.setStrings(strings());
        widgetModule!.applySettings(widget, s);
      }
    }
  })());
  // The runtime starts at once (its chunk, `GET /config`); the page is read on the first sign of use (`read`). A site's
  // crawl starts then too, from its own chunk beside the runtime's (issue 12 §7: the sitemap and the first pages do
  // not wait for the runtime to load and run).
  const siteReading = site ? reading.then(() => import(/* webpackChunkName: "kit-crawl" */ './site-context.js')).then((m) => m.startSite(config, lifetime.signal)) : undefined;
  siteReading?.catch(() => undefined); // the runtime reports it when it reads; a start that failed first never does
  const assistant: Promise<Assistant> = startAssistant()
    .then((start) => start(config, host, { emit: (e, p) => { if (!destroyed) emitter.emit(e, p); }, signal: lifetime.signal, conversationId: () => thread.id, read: reading, settings: own, site: siteReading }))
    .then(async (a) => {
      if (destroyed) { a.destroy(); throw destroyedError(); }
      await owned;
      started = a;
      statusText = null;
      widget?.setStatus('');
      emitter.emit('ready', a.ready);
      return a;
    });
  assistant.catch((err) => {
    if (destroyed) return;
    const e = toError(err);
    lifetime.abort(e); // the start is over: a crawl it never joined stops
    startError = e;
    widget?.showError(visible(e, widget.strings()));
    report(e);
  });
  // A local engine chosen after the first answer ('auto', docs/sdk.md): the model's download status line ends with it.
  emitter.on('mode', () => {
    if (!started || statusText === null) return;
    statusText = null;
    widget?.setStatus('');
  });
  emitter.on('progress', (p) => {
    const share = p.total ? p.loaded / p.total : undefined;
    const t = widget?.strings();
    if (!t) return;
    const text = p.phase === 'crawl'
      ? t.readingSite.replace('{loaded}', String(p.loaded)).replace('{total}', String(p.total))
      : t.loadingModel.replace('{percent}', String(Math.round((share ?? 0) * 100)));
    statusText = [text, share];
    widget!.setStatus(text, share);
  });

  async function runAsk(question: string, signal: AbortSignal | undefined): Promise<Answer> {
    const controller = new AbortController();
    current = controller;
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const onLifetimeAbort = () => controller.abort(lifetime.signal.reason);
    lifetime.signal.addEventListener('abort', onLifetimeAbort, { once: true });
    const turns = history();
    // The question shows, and the answer starts, at once: while the page or the site is still being read too.
    widget?.showUserMessage(question);
    remember({ role: 'user', text: question });
    emitter.emit('message', { role: 'user', text: question, citations: [], refused: false });
    // Without a panel yet (nobody opened it), the answer is kept in the thread and shown when it opens.
    const answering = (live = { partial: '', view: widget?.startAnswer() ?? null });
    try {
      // The assistant that never started answers the question with why, rather than not at all (below).
      const a = await assistant;
      if (destroyed) throw destroyedError();
      const answer: Answer = await a.ask(question, turns, {
        signal: controller.signal,
        onToken: (text) => { answering.partial += text; answering.view?.append(text); emitter.emit('token', { text }); },
      }).catch((err) => {
        // Stop keeps what was said so far: the visitor chose to stop, nothing failed.
        if (controller.signal.reason !== STOPPED) throw err;
        return { text: answering.partial, citations: [], refused: false, mode: a.ready.mode, model: a.ready.model } satisfies Answer;
      });
      live = null;
      const view = answering.view;
      const contact = settings?.contact_url ?? null;
      if (answer.refused) view?.refuse(answer.text, contact);
      else view?.setCitations(answer.citations);
      view?.done();
      if (answer.id && answer.text && view && !answer.refused) offerFeedback(view, answer.id);
      if (answer.text) {
        remember({ role: 'assistant', text: answer.text, ...(answer.citations.length ? { citations: answer.citations } : {}), ...(answer.refused ? { refused: true, contact } : {}), ...(answer.id ? { id: answer.id } : {}) });
      }
      emitter.emit('message', { role: 'assistant', text: answer.text, citations: answer.citations, refused: answer.refused, ...(answer.id ? { id: answer.id } : {}) });
      return answer;
    } catch (err) {
      live = null;
      const e = toError(err);
      if (answering.view && widget) answering.view.fail(visible(e, widget.strings()));
      throw e;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      lifetime.signal.removeEventListener('abort', onLifetimeAbort);
      if (current === controller) current = null;
    }
  }

  const instance = {
    get destroyed() { return destroyed; },
    get conversationId() { return thread.id; },
    ask(question: string, options: AskOptions = {}): Promise<Answer> {
      if (destroyed) return Promise.reject(destroyedError());
      if (typeof question !== 'string' || question.trim() === '') return Promise.reject(new KitError('invalid_request', 'ask(question): question must be a non-empty string.'));
      if (question.length > MAX_QUESTION_CHARS) return Promise.reject(new KitError('payload_too_large', `ask(question): question is longer than ${MAX_QUESTION_CHARS} characters.`));
      if (options.signal?.aborted) return Promise.reject(new KitError('network_error', 'The request was cancelled.'));
      read();
      // One at a time, in call order: a second ask waits for the first (the conversation is one thread).
      const run = queue.then(() => runAsk(question.trim(), options.signal));
      queue = run.catch(() => undefined);
      return run.catch((err) => {
        const e = toError(err);
        if (!destroyed) report(e);
        throw e;
      });
    },
    newConversation() {
      if (destroyed) return;
      current?.abort(STOPPED);
      store.clear();
      thread = { id: newConversationId(), messages: [] };
      widget?.clear();
    },
    async feedback(messageId: string, rating: 'up' | 'down', options: { comment?: string } = {}): Promise<{ commentStored: boolean }> {
      if (destroyed) throw destroyedError();
      if (typeof messageId !== 'string' || !/^(req|msg)_[0-9A-Za-z]{8,64}$/.test(messageId)) throw new KitError('invalid_request', 'feedback(messageId): pass the id of an answer (answer.id).');
      if (rating !== 'up' && rating !== 'down') throw new KitError('invalid_request', "feedback(messageId, rating): rating must be 'up' or 'down'.");
      read();
      const a = await assistant;
      try {
        return await a.feedback(messageId, rating, options.comment?.trim().slice(0, 500) || undefined);
      } catch (err) {
        throw toError(err);
      }
    },
    open() {
      if (destroyed) return;
      wantOpen = true;
      if (widget) widget.open();
      else void loadPanel();
    },
    close() {
      if (destroyed) return;
      wantOpen = false;
      widget?.close();
    },
    on<K extends keyof KitEvents>(event: K, fn: (payload: KitEvents[K]) => void): () => void {
      if (destroyed) return () => undefined;
      if (event === 'ready') read();
      return emitter.on(event, fn);
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      lifetime.abort(destroyedError());
      if (started) started.destroy();
      else assistant.then((a) => a.destroy(), () => undefined);
      widget?.destroy();
      shell?.host.remove();
      widget = null;
      shell = null;
      emitter.clear();
    },
  };
  if (config.onReady) instance.on('ready', config.onReady);
  return instance;
}
