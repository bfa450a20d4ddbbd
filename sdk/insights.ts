import { createQuestionBeacon, type QuestionBeacon } from '../adapters/browser/question-beacon.js';
import type { PlatformClient, PlatformConfig } from '../adapters/remote/platform-client.js';
import type { Citation } from '../core/sources.js';

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
  /** Reports a question the service never saw (answered on the device, or refused by the gate here). */
  report(question: BrowserQuestion): void;
  feedback(messageId: string, rating: 'up' | 'down', comment?: string): Promise<{ commentStored: boolean }>;
  destroy(): void;
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function randomId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  let out = '';
  for (const b of bytes) out += ALPHABET[b % 62];
  return `${prefix}_${out}`;
}

/**
 * Reports what the service cannot see itself, following the organisation's choice in `/config`: with logging off only
 * counts of outcomes per page (never text), otherwise each question (the server masks it before storing). Nothing is
 * sent without a plan (the service is unreachable) or when `apiKey` goes to a Mode B proxy that does not relay beacons.
 */
export function createQuestionReporter(options: { client: PlatformClient; apiKey: string; plan: PlatformConfig | null }): QuestionReporter {
  const conversationId = randomId('cnv');
  const logging = options.plan?.assistant?.logging.mode ?? 'off';
  let beacon: QuestionBeacon | null = null;
  const refreshSession = (): void => {
    options.client.getSession().then((s) => beacon?.setSession(s.token), () => undefined);
  };
  return {
    conversationId,
    newMessageId: () => randomId('msg'),
    report(q) {
      if (!options.plan) return;
      beacon ??= createQuestionBeacon({ url: `${options.client.baseUrl}/beacon`, apiKey: options.apiKey });
      refreshSession();
      if (logging === 'off') {
        beacon.count({ page_url: q.pageUrl, mode: q.mode, outcome: q.outcome });
        return;
      }
      beacon.question({
        message_id: q.messageId,
        conversation_id: conversationId,
        asked_at: q.askedAt.toISOString(),
        page_url: q.pageUrl,
        mode: q.mode,
        ...(q.model ? { model: q.model.slice(0, 200) } : {}),
        outcome: q.outcome,
        ...(q.errorCode ? { error_code: q.errorCode } : {}),
        question: q.question.slice(0, 4_000),
        ...(logging === 'full' && q.answer ? { answer: q.answer.slice(0, 4_000) } : {}),
        citations: q.citations.slice(0, 20).map((c) => ({ url: c.url, title: c.title.slice(0, 300) })),
        latency_ms: Math.max(0, Math.round(q.latencyMs)),
      });
    },
    feedback(messageId, rating, comment) {
      return options.client.feedback({ message_id: messageId, rating, ...(comment ? { comment: comment.slice(0, 500) } : {}) });
    },
    destroy() {
      beacon?.destroy();
      beacon = null;
    },
  };
}
