import { createQuestionBeacon, type QuestionBeaconOptions } from '../adapters/browser/question-beacon.js';
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
  /** `not_found`: the engine on the device found no answer in the page (`done.found: false`) and said so. */
  readonly outcome: 'answered' | 'not_found' | 'refused' | 'error';
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
  const beacon = options.plan ? createQuestionBeacon<QueuedQuestion>({ url: `${options.client.baseUrl}/beacon`, apiKey: options.apiKey, session: options.client.heldSession, ...options.beacon }) : null;
  let text: Promise<typeof import('./insights-text.js')> | null = null;
  const loadText = () =>
    (text ??= import(/* webpackChunkName: "kit-insights" */ './insights-text.js').then((m) => {
      if (logging !== 'off') beacon?.sendItemsWith(m.createTextSender(logging));
      return m;
    }));
  return {
    get conversationId() {
      return conversation();
    },
    newMessageId: () => randomId('msg'),
    report(q) {
      const queued = { ...q, page_url: q.pageUrl, conversation_id: conversation() };
      if (logging === 'off') beacon?.count(queued);
      else beacon?.question(queued);
    },
    async remoteAnswered() {
      if (logging !== 'off' && beacon) await loadText().catch(() => undefined);
    },
    async feedback(messageId, rating, comment) {
      const { sendFeedback } = await loadText();
      return sendFeedback(options.client, options.transport, options.apiKey, { message_id: messageId, rating, ...(comment ? { comment: comment.slice(0, 500) } : {}) });
    },
    destroy() {
      beacon?.destroy();
    },
  };
}
