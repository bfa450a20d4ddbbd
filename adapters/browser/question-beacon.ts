/** One question answered (or refused) in the browser, in the beacon's wire shape (POST /v1/beacon `items`). */
export interface BeaconQuestion {
  readonly message_id: string;
  readonly conversation_id: string;
  readonly asked_at: string;
  readonly page_url?: string;
  /** `remote` only with outcome `refused`: the gate refused it here, so the service never saw it. */
  readonly mode: 'local' | 'extractive' | 'remote';
  readonly model?: string;
  readonly outcome: 'answered' | 'refused' | 'error';
  readonly error_code?: string;
  readonly question: string;
  readonly answer?: string;
  readonly citations?: ReadonlyArray<{ readonly url: string; readonly title: string }>;
  readonly latency_ms?: number;
}

/** Options of the beacon. */
export interface QuestionBeaconOptions {
  /** `…/v1/beacon`. */
  readonly url: string;
  /** The publishable key (sendBeacon cannot send an Authorization header). */
  readonly apiKey: string;
  /** Questions per beacon before it is sent without waiting for the page to hide. Default 20. */
  readonly batchSize?: number;
  /** Largest body (bytes); sendBeacon's quota is 64 KiB for a whole page. Default 60 000. */
  readonly maxBytes?: number;
  /** Default: `navigator.sendBeacon`, then `fetch(…, { keepalive: true })`. Resolves false when the browser refused it. */
  readonly send?: (url: string, body: string) => boolean;
  /** Where page-hide events come from. Default: `window` and `document`. */
  readonly events?: { readonly window: EventTarget; readonly document: EventTarget & { readonly visibilityState: string } };
}

/** The SDK's batched beacon (issue 13 §2): adapters/browser, so the SDK core never touches navigator or the DOM. */
export interface QuestionBeacon {
  /** Queues a question with its text (only while the organisation logs questions). */
  question(item: BeaconQuestion): void;
  /** Counts an outcome on a page (with logging off: never text). */
  count(entry: { readonly page_url?: string; readonly mode: 'local' | 'extractive' | 'remote'; readonly outcome: 'answered' | 'refused' | 'error' }): void;
  /** The browser session to send with the next beacon (the server checks it like /chat's). */
  setSession(token: string | null): void;
  /** Sends what is queued now (page hide, a full batch). Nothing is sent without a session. */
  flush(): void;
  /** Questions and count rows waiting. */
  readonly pending: number;
  /** Sends what is queued, then stops listening. */
  destroy(): void;
}

const defaultSend = (url: string, body: string): boolean => {
  // text/plain keeps sendBeacon a "simple" request: no CORS preflight, which a beacon on unload could not wait for.
  const blob = new Blob([body], { type: 'text/plain;charset=UTF-8' });
  if (typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url, blob)) return true;
  if (typeof fetch !== 'function') return false;
  fetch(url, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'text/plain;charset=UTF-8' }, credentials: 'omit', mode: 'cors' }).catch(() => undefined);
  return true;
};

/**
 * Collects questions answered in the browser and sends them in batches: when a batch fills, and when the page is
 * hidden (`visibilitychange` to hidden, `pagehide`) — the last moment a page can send anything, and the one
 * `sendBeacon` exists for. A batch larger than `maxBytes` is split; one item alone over it loses its answer text first.
 */
export function createQuestionBeacon(options: QuestionBeaconOptions): QuestionBeacon {
  const batchSize = options.batchSize ?? 20;
  const maxBytes = options.maxBytes ?? 60_000;
  const send = options.send ?? defaultSend;
  let items: BeaconQuestion[] = [];
  const counts = new Map<string, { page_url?: string; mode: 'local' | 'extractive' | 'remote'; outcome: 'answered' | 'refused' | 'error'; count: number }>();
  let session: string | null = null;
  let destroyed = false;

  const body = (batch: readonly BeaconQuestion[], rows: readonly object[]): string => JSON.stringify({ key: options.apiKey, session, items: batch, counts: rows });
  const bytes = (text: string): number => new TextEncoder().encode(text).length;

  function flush(): void {
    if (!session || (items.length === 0 && counts.size === 0)) return;
    const rows = [...counts.values()].slice(0, 50);
    for (const r of rows) counts.delete(`${r.page_url ?? ''}\u0000${r.mode}\u0000${r.outcome}`);
    const queue = items;
    items = [];
    let batch: BeaconQuestion[] = [];
    let first = true;
    const emit = (): void => {
      send(options.url, body(batch, first ? rows : []));
      first = false;
      batch = [];
    };
    for (const raw of queue) {
      let item = raw;
      if (bytes(body([item], [])) > maxBytes) item = { ...raw, answer: undefined, citations: [] } as BeaconQuestion;
      if (bytes(body([item], [])) > maxBytes) continue; // cannot be sent at all
      if (batch.length >= 50 || bytes(body([...batch, item], first ? rows : [])) > maxBytes) emit();
      batch.push(item);
    }
    if (batch.length > 0 || first) emit();
  }

  const onVisibility = (): void => {
    if (events?.document.visibilityState === 'hidden') flush();
  };
  const onPageHide = (): void => flush();
  const events = options.events ?? (typeof window !== 'undefined' ? { window, document } : null);
  events?.document.addEventListener('visibilitychange', onVisibility);
  events?.window.addEventListener('pagehide', onPageHide);

  return {
    question(item) {
      if (destroyed) return;
      items.push(item);
      if (items.length >= batchSize) flush();
    },
    count(entry) {
      if (destroyed) return;
      const id = `${entry.page_url ?? ''}\u0000${entry.mode}\u0000${entry.outcome}`;
      const row = counts.get(id) ?? { ...(entry.page_url ? { page_url: entry.page_url } : {}), mode: entry.mode, outcome: entry.outcome, count: 0 };
      row.count = Math.min(1000, row.count + 1);
      counts.set(id, row);
      if (counts.size >= batchSize) flush();
    },
    setSession(token) {
      session = token;
    },
    flush,
    get pending() {
      return items.length + counts.size;
    },
    destroy() {
      if (destroyed) return;
      flush();
      destroyed = true;
      events?.document.removeEventListener('visibilitychange', onVisibility);
      events?.window.removeEventListener('pagehide', onPageHide);
    },
  };
}
