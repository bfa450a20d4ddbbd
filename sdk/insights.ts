import type { ItemSender, QuestionBeacon, QuestionBeaconOptions } from '../adapters/browser/question-beacon.js';
import type { PlatformClient, PlatformConfig } from '../adapters/remote/platform-client.js';
import type { HttpTransportPort } from '../core/ports/http-transport.port.js';
import type { Citation } from '../core/sources.js';
import { randomId } from './ids.js';

/** A finished question in the browser, as the runtime reports it. */
export interface BrowserQuestion {
  readonly messageId: string;
  readonly question: string;
  readonly answer: string | null;
  readonly citations: readonly Citation[];
  /** `remote` only for refusals by the gate in the browser: those never reached the service. */
  readonly mode: 'local' | 'extractive' | 'remote';
  readonly model: string | null;
  readonly outcome: 'answered' | 'refused' | 'error';
  readonly errorCode?: string;
  readonly askedAt: Date;
  readonly latencyMs: number;
  readonly pageUrl: string;
}

/** The SDK's side of the owner's question log: message ids, the beacon, feedback. */
export interface QuestionReporter {
  readonly conversationId: string;
  newMessageId(): string;
  /** Queues a question the service never saw (answered on the device, or refused by the gate here): no request now. */
  report(question: BrowserQuestion): void;
  /**
   * Loads the beacon (a chunk, `kit-beacon`) ahead of the first report: the runtime calls it as soon as questions can
   * be answered or refused in the browser. A remote conversation never needs it (the service logs its questions).
   */
  prepare(): Promise<void>;
  /** A remote answer arrived: the page holds a session now, so questions can go with their text (when logged). */
  remoteAnswered(): Promise<void>;
  feedback(messageId: string, rating: 'up' | 'down', comment?: string): Promise<{ commentStored: boolean }>;
  destroy(): void;
}

/** A question waiting for the page to hide: what the beacon counts it by, and the rest for its text. */
export type QueuedQuestion = BrowserQuestion & { readonly page_url: string; readonly conversation_id: string };


/**
 * Reports what the service cannot see itself, following the organisation's choice in `/config`: with logging off only
 * counts of outcomes per page (never text), otherwise each question (the server masks it before storing). Everything
 * waits for the page to hide (or a full batch), and nothing here asks for a session: text goes only with the session
 * the page already holds (a remote answer or a vote solved its challenge), and the code that sends it (with feedback)
 * is a lazy chunk loaded at that point. Until then, and without one, questions are counted. Nothing is sent without a
 * plan (the service is unreachable).
 */
export function createQuestionReporter(options: {
  client: PlatformClient;
  transport: HttpTransportPort;
  apiKey: string;
  plan: PlatformConfig | null;
  /** The conversation's id when the instance keeps it (a new one per thread); default: one per reporter. */
  conversationId?: () => string;
  /** The beacon's transport and page events (tests); default: sendBeacon, `window` and `document`. */
  beacon?: Pick<QuestionBeaconOptions, 'send' | 'events'>;
}): QuestionReporter {
  const own = randomId('cnv');
  const conversation = options.conversationId ?? (() => own);
  const logging = options.plan?.assistant?.logging.mode ?? 'off';
  // The beacon is a chunk of its own: a conversation the service answers never reports from here.
  let beacon: QuestionBeacon<QueuedQuestion> | null = null;
  let loading: Promise<void> | null = null;
  let sender: ItemSender<QueuedQuestion> | null = null;
  let destroyed = false;
  /** Reported before the beacon's chunk arrived: queued into it when it does. */
  const waiting: QueuedQuestion[] = [];
  const put = (q: QueuedQuestion): void => (logging === 'off' ? beacon!.count(q) : beacon!.question(q));
  const prepare = (): Promise<void> => {
    if (!options.plan || beacon || destroyed) return Promise.resolve();
    return (loading ??= import(/* webpackChunkName: "kit-beacon" */ '../adapters/browser/question-beacon.js').then((m) => {
      if (destroyed) return;
      beacon = m.createQuestionBeacon<QueuedQuestion>({ url: `${options.client.baseUrl}/beacon`, apiKey: options.apiKey, session: options.client.heldSession, ...options.beacon });
      if (sender) beacon.sendItemsWith(sender);
      for (const q of waiting.splice(0)) put(q);
    }, () => {
      loading = null; // the next report tries again; what waits is kept
    }));
  };
  let text: Promise<typeof import('./insights-text.js')> | null = null;
  const loadText = () =>
    (text ??= import(/* webpackChunkName: "kit-insights" */ './insights-text.js').then((m) => {
      if (logging !== 'off') {
        sender = m.createTextSender(logging);
        beacon?.sendItemsWith(sender);
      }
      return m;
    }));
  return {
    get conversationId() {
      return conversation();
    },
    newMessageId: () => randomId('msg'),
    report(q) {
      if (!options.plan || destroyed) return;
      const queued = { ...q, page_url: q.pageUrl, conversation_id: conversation() };
      if (beacon) put(queued);
      else {
        waiting.push(queued);
        void prepare();
      }
    },
    prepare,
    async remoteAnswered() {
      if (logging !== 'off' && options.plan) await loadText().catch(() => undefined);
    },
    async feedback(messageId, rating, comment) {
      const { sendFeedback } = await loadText();
      return sendFeedback(options.client, options.transport, options.apiKey, { message_id: messageId, rating, ...(comment ? { comment: comment.slice(0, 500) } : {}) });
    },
    destroy() {
      destroyed = true;
      beacon?.destroy();
    },
  };
}
