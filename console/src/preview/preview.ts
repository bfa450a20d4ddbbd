/**
 * The preview page's script (framed by the console's install view, same origin). It waits for the console's
 * message — the key, a short-lived preview grant and the settings being edited — and starts Kit with them: the
 * grant rides along as `Kit-Preview` (so a key restricted to the owner's real site still works here), and the
 * settings replace the saved ones in the `/config` answer, so unsaved edits show at once.
 */
interface PreviewMessage {
  readonly type: 'kit-console-preview';
  readonly apiKey: string;
  readonly previewToken: string;
  readonly assistant: Record<string, unknown> | null;
}

interface KitInstance {
  destroy(): void;
  open(): void;
  on(event: 'message', fn: (message: { role: 'user' | 'assistant' }) => void): () => void;
  on(event: 'error', fn: () => void): () => void;
}

interface KitGlobal {
  init(options: Record<string, unknown>, host?: Record<string, unknown>): KitInstance;
}

type HttpRequest = { method: string; url: string; headers: Record<string, string>; body?: string; signal?: AbortSignal };

let current: KitInstance | null = null;
/** A question of the owner's is being answered: a restart now would throw its answer away. */
let answering = false;
/** Settings that came while an answer was under way: applied once it is in (only the latest counts). */
let waiting: PreviewMessage | null = null;

function transport(message: PreviewMessage) {
  return {
    async request(request: HttpRequest) {
      const response = await fetch(request.url, {
        method: request.method,
        headers: { ...request.headers, 'kit-preview': message.previewToken },
        ...(request.body === undefined ? {} : { body: request.body }),
        ...(request.signal ? { signal: request.signal } : {}),
        credentials: 'omit',
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name.toLowerCase()] = value));
      if (message.assistant && request.method === 'GET' && new URL(request.url).pathname.endsWith('/v1/config') && response.ok) {
        const config = (await response.json()) as Record<string, unknown>;
        const saved = (config.assistant ?? {}) as Record<string, unknown>;
        const merged = { ...config, assistant: { ...saved, ...message.assistant, logging: saved.logging ?? { mode: 'off', notice: null } } };
        return { status: response.status, headers, body: JSON.stringify(merged) };
      }
      return { status: response.status, headers, body: await response.text() };
    },
  };
}

/** (Re)starts the assistant with these settings. */
function start(Kit: KitGlobal, message: PreviewMessage, status: HTMLElement | null): void {
  current?.destroy();
  answering = false;
  const instance = Kit.init({ apiKey: message.apiKey, endpoint: `${location.origin}/v1` }, { transport: transport(message) });
  current = instance;
  const settled = (): void => {
    answering = false;
    // In a task of its own, not inside the instance's event; a question that starts meanwhile is waited for too.
    setTimeout(() => {
      const next = waiting;
      if (answering || !next || current !== instance) return;
      waiting = null;
      start(Kit, next, status);
    }, 0);
  };
  instance.on('message', (m) => (m.role === 'user' ? (answering = true) : settled()));
  instance.on('error', settled);
  // Not opened by itself: the widget focuses its question box when it opens, which would pull keyboard focus out of
  // the settings form on every restart (and a panel in a frame this narrow is modal: Tab wraps inside it).
  if (status) status.textContent = 'The assistant is running with the settings on the left: open it with its button.';
}

window.addEventListener('message', (event: MessageEvent<PreviewMessage>) => {
  if (event.origin !== location.origin || event.source !== window.parent || event.data?.type !== 'kit-console-preview') return;
  const Kit = (window as unknown as { Kit?: KitGlobal }).Kit;
  const status = document.getElementById('preview-status');
  if (!Kit) {
    if (status) status.textContent = 'The Kit SDK is not built on this server (npm run build).';
    return;
  }
  // An owner who asked just before the settings changed gets the answer first: the restart waits for it.
  if (answering) {
    waiting = event.data;
    if (status) status.textContent = 'New settings: the assistant restarts with them once this answer is in.';
    return;
  }
  start(Kit, event.data, status);
});
