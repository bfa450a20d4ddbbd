/**
 * The content script's root (bitwarden's bootstrap-autofill pattern): guards against a second injection into the
 * same page, runs Kit.init in the extension's isolated world with the extension's host options, serves the QA panel,
 * and has one destroy() that removes every listener it added and the widget with it.
 */
import type { KitHostOptions, ContextSnapshot } from '../../sdk/assistant.js';
import type { KitInstance } from '../../sdk/types.js';
import { isToContent, type ContentToPanel, type QaVerdict, type QaView, type ToContent } from '../messages.js';
import { kitInitOptions, type AssistantSettings, type ConnectionOptions } from '../settings.js';
import { pageAddress, watchLocation } from './location-watch.js';

/** Delay between an address change and the assistant re-reading the page (SPAs render after pushState). */
export const SPA_REFRESH_DELAY_MS = 300;
/** Errors kept for the QA panel. */
const MAX_ERRORS = 5;
const GUARD = Symbol.for('kit.extension.content');

export interface ContentDeps {
  /** The popup's settings, the connection, and the values redaction keeps visible on this site. */
  readonly loadConfig: () => Promise<{ settings: AssistantSettings; connection: ConnectionOptions | null; allow?: readonly string[] }>;
  /** Calls `fn` when the popup or options page changed what the assistant should do. */
  readonly onConfigChanged: (fn: () => void) => () => void;
  /** Messages from the background and the QA panel; `fn` answers with a promise or returns undefined. */
  readonly onMessage: (fn: (message: unknown) => Promise<unknown> | undefined) => () => void;
  readonly notifyPanels: (message: ContentToPanel) => void;
  /** The extension's transport (background fetch) and local engine (offscreen document). */
  readonly host: Pick<KitHostOptions, 'transport' | 'localEngine'>;
  readonly init: (options: unknown, host: KitHostOptions) => KitInstance;
  readonly window: Window;
}

export interface ContentBootstrap {
  readonly destroyed: boolean;
  destroy(): void;
}

/** Starts the assistant in this page once: a second injection returns the running one. */
export function bootstrap(deps: ContentDeps): ContentBootstrap {
  const scope = globalThis as unknown as Record<symbol, ContentBootstrap | undefined>;
  const existing = scope[GUARD];
  if (existing && !existing.destroyed) return existing;
  const created = createContentBootstrap(deps, () => {
    if (scope[GUARD] === created) delete scope[GUARD];
  });
  scope[GUARD] = created;
  return created;
}

function createContentBootstrap(deps: ContentDeps, onGone: () => void): ContentBootstrap {
  const win = deps.window;
  let destroyed = false;
  let instance: KitInstance | null = null;
  let generation = 0;
  let open = false;
  let staleAddress = false;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let view: { engine: QaView['engine']; ready: boolean; errors: { code: string; message: string }[]; snapshot: ContextSnapshot | null } = fresh();

  function fresh() {
    return { engine: null, ready: false, errors: [] as { code: string; message: string }[], snapshot: null };
  }
  const notify = (): void => deps.notifyPanels({ type: 'qa/updated', url: win.location.href });
  const addError = (e: { code: string; message: string }): void => {
    view.errors = [...view.errors, { code: e.code, message: e.message }].slice(-MAX_ERRORS);
    notify();
  };

  async function start(): Promise<void> {
    const mine = ++generation;
    const { settings, connection, allow = [] } = await deps.loadConfig();
    if (destroyed || mine !== generation) return;
    if (!connection) {
      addError({ code: 'invalid_config', message: 'Set the endpoint and the publishable key in the extension options.' });
      return;
    }
    try {
      const kit = deps.init(kitInitOptions(settings, connection, allow), {
        ...deps.host,
        inspect: (snapshot) => {
          if (mine !== generation) return;
          view.snapshot = snapshot;
          notify();
        },
      });
      instance = kit;
      kit.on('mode', (m) => { view.engine = { mode: m.mode, model: m.model, reason: m.reason }; notify(); });
      kit.on('ready', (r) => { view.ready = true; view.engine = { mode: r.mode, model: r.model, reason: view.engine?.reason ?? '' }; notify(); });
      kit.on('error', addError);
      kit.on('open', () => { open = true; });
      kit.on('close', () => {
        open = false;
        if (staleAddress) scheduleRefresh();
      });
    } catch (err) {
      const e = err as { code?: string; message?: string };
      addError({ code: e.code ?? 'internal_error', message: e.message ?? 'Kit could not start.' });
    }
  }

  function restart(): void {
    if (destroyed) return;
    staleAddress = false;
    open = false;
    instance?.destroy();
    instance = null;
    view = fresh();
    notify();
    void start();
  }

  function scheduleRefresh(): void {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(restart, SPA_REFRESH_DELAY_MS);
  }

  // A single-page app moved to another address: read the new page. While the visitor is talking to the assistant it
  // is left alone (ask() re-reads a changed page by itself); the refresh then happens when the widget closes.
  const stopWatching = watchLocation(win, () => {
    if (open) staleAddress = true;
    else scheduleRefresh();
  });

  // Alt+Shift+K opens and closes the assistant.
  const onKeydown = (event: KeyboardEvent): void => {
    if (!event.altKey || !event.shiftKey || event.ctrlKey || event.metaKey || event.code !== 'KeyK' || !instance) return;
    event.preventDefault();
    if (open) instance.close();
    else instance.open();
  };
  win.addEventListener('keydown', onKeydown, true);

  const stopConfig = deps.onConfigChanged(restart);

  const answer = (message: ToContent): Promise<unknown> => {
    switch (message.type) {
      case 'content/ping':
        return Promise.resolve({ on: true });
      case 'content/off':
        self.destroy();
        return Promise.resolve({ on: false });
      case 'qa/get':
        return Promise.resolve(qaView());
      case 'qa/check': {
        const snapshot = view.snapshot;
        if (!snapshot) return Promise.resolve(null);
        const v = snapshot.checkGrounding(String(message.question).slice(0, 4_000));
        return Promise.resolve({ grounded: v.grounded, matched: [...v.matched], reason: v.reason } satisfies QaVerdict);
      }
    }
  };
  const stopMessages = deps.onMessage((message) => (isToContent(message) ? answer(message) : undefined));

  function qaView(): QaView {
    const s = view.snapshot;
    return {
      url: pageAddress(win.location.href),
      engine: view.engine,
      ready: view.ready,
      errors: view.errors,
      context: s ? { pages: s.pages.map((p) => ({ url: p.url, title: p.title, text: p.text })), stats: s.stats, redacted: { ...s.redacted } } : null,
    };
  }

  const self: ContentBootstrap = {
    get destroyed() { return destroyed; },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      generation++;
      clearTimeout(refreshTimer);
      instance?.destroy(); // removes the widget, aborts requests (their Ports close) and drops the SDK's listeners
      instance = null;
      stopWatching();
      win.removeEventListener('keydown', onKeydown, true);
      stopConfig();
      stopMessages();
      onGone();
    },
  };
  void start();
  return self;
}
