/** One question answered (or refused) in the browser, in the beacon's wire shape (POST /v1/beacon `items`). */
export interface BeaconQuestion {
  readonly message_id: string;
  readonly conversation_id: string;
  readonly asked_at: string;
  readonly page_url?: string;
  /** `remote` only with outcome `refused`: the gate refused it here, so the service never saw it. */
  readonly mode: 'local' | 'extractive' | 'remote';
  readonly model?: string;
  /** `not_found`: the engine found no answer in the page and said so (core's extractive engine). */
  readonly outcome: 'answered' | 'not_found' | 'refused' | 'error';
  readonly error_code?: string;
  readonly question: string;
  readonly answer?: string;
  readonly citations?: ReadonlyArray<{ readonly url: string; readonly title: string }>;
  readonly latency_ms?: number;
}

/** One outcome counted on a page (POST /v1/beacon `counts`): never text. */
export type BeaconCount = Pick<BeaconQuestion, 'page_url' | 'mode' | 'outcome'>;

/**
 * Sends queued questions with their text: `post` each body (`{ session, items }`; the key is added). Loaded with the
 * text path (adapters/browser/question-batches.ts), which turns them into wire items and splits them to fit a beacon.
 */
export type ItemSender<T> = (session: string, queued: readonly T[], post: (body: object) => void) => void;

/** Options of the beacon. */
export interface QuestionBeaconOptions {
  /** `…/v1/beacon`. */
  readonly url: string;
  /** The publishable key (sendBeacon cannot send an Authorization header). */
  readonly apiKey: string;
  /**
   * The browser session the page holds now, or null. The beacon never asks for one (that would mean solving a bot
   * challenge just to report): without a session, questions are sent as counts.
   */
  readonly session: () => string | null;
  /** Questions queued or counted before the beacon is sent without waiting for the page to hide. Default 20, at most 50. */
  readonly batchSize?: number;
  /** Default: `navigator.sendBeacon`, then `fetch(…, { keepalive: true })`. */
  readonly send?: (url: string, body: string) => void;
  /** Where page-hide events come from. Default: `window` and `document`. */
  readonly events?: { readonly window: EventTarget; readonly document: EventTarget & { readonly visibilityState: string } };
}

/**
 * The SDK's batched beacon (issue 13 §2): adapters/browser, so the SDK core never touches navigator or the DOM.
 * `T`: a queued question as the caller keeps it; the item sender makes it a wire item.
 */
export interface QuestionBeacon<T extends BeaconCount> {
  /** Queues a question with its text (only while the organisation logs questions). */
  question(item: T): void;
  /** Counts an outcome on a page (with logging off: never text). */
  count(entry: BeaconCount): void;
  /** From now on, questions go with their text whenever the page holds a session (until then: as counts). */
  sendItemsWith(sender: ItemSender<T>): void;
  /** Sends what is queued now (page hide, a full batch). */
  flush(): void;
  /** Questions waiting (queued or counted). */
  readonly pending: number;
  /** Sends what is queued, then stops listening. */
  destroy(): void;
}

const defaultSend = (url: string, body: string): void => {
  // text/plain keeps sendBeacon a "simple" request: no CORS preflight, which a beacon on unload could not wait for.
  if (!navigator.sendBeacon?.(url, new Blob([body], { type: 'text/plain;charset=UTF-8' }))) {
    fetch(url, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'text/plain;charset=UTF-8' }, credentials: 'omit' }).catch(() => undefined);
  }
};

/**
 * Collects what the browser answered or refused and sends it when the page is hidden (`visibilitychange` to hidden,
 * `pagehide`: the last moment a page can send, the one `sendBeacon` exists for) or when a batch fills — never at the
 * moment of a question. Counts travel with the key alone (one row per page, mode and outcome; a batch holds at most
 * 50 questions, within the server's 50 rows and 50 counted). Questions go with their text only once a sender is
 * plugged in and the page holds a session; otherwise they are counted. Small on purpose: it is in the runtime chunk,
 * before any answer.
 */
export function createQuestionBeacon<T extends BeaconCount>(options: QuestionBeaconOptions): QuestionBeacon<T> {
  const batchSize = Math.min(50, options.batchSize ?? 20);
  const send = options.send ?? defaultSend;
  const events = options.events ?? { window, document };
  let items: T[] = [];
  let rows = new Map<string, BeaconCount & { count: number }>();
  let counted = 0;
  let sendItems: ItemSender<T> | null = null;
  let live = true;

  const post = (body: object): void => send(options.url, JSON.stringify({ key: options.apiKey, ...body }));
  const tally = ({ page_url, mode, outcome }: BeaconCount): void => {
    const id = `${page_url} ${mode} ${outcome}`;
    const row = rows.get(id) ?? { ...(page_url ? { page_url } : {}), mode, outcome, count: 0 };
    row.count++;
    rows.set(id, row);
    counted++;
  };
  const flush = (): void => {
    const session = options.session();
    const queue = items;
    items = [];
    if (session && sendItems) sendItems(session, queue, post);
    else queue.forEach(tally);
    if (rows.size > 0) post({ counts: [...rows.values()] });
    rows = new Map();
    counted = 0;
  };
  const onHide = (): void => {
    if (events.document.visibilityState === 'hidden') flush();
  };
  const add = (push: () => void): void => {
    if (!live) return;
    push();
    if (items.length + counted >= batchSize) flush();
  };
  events.document.addEventListener('visibilitychange', onHide);
  events.window.addEventListener('pagehide', flush);

  return {
    question: (item) => add(() => items.push(item)),
    count: (entry) => add(() => tally(entry)),
    sendItemsWith: (sender) => void (sendItems = sender),
    flush,
    get pending() {
      return items.length + counted;
    },
    destroy() {
      if (!live) return;
      flush();
      live = false;
      events.document.removeEventListener('visibilitychange', onHide);
      events.window.removeEventListener('pagehide', flush);
    },
  };
}
