import type { BeaconQuestion } from '../adapters/browser/question-beacon.js';
import { createItemSender } from '../adapters/browser/question-batches.js';
import type { QueuedQuestion } from './insights.js';

/**
 * The owner's-loop code a page needs only once it holds a session (after a remote answer or a vote): the beacon's
 * text path and feedback. One lazy chunk, so nothing of it loads before the first answer.
 */
export { sendFeedback } from '../adapters/remote/send-feedback.js';

/** Sends queued questions with their text, as the organisation logs them (`full` keeps the answer). */
export function createTextSender(logging: 'redacted' | 'full') {
  return createItemSender<QueuedQuestion>((q): BeaconQuestion => ({
    message_id: q.messageId,
    conversation_id: q.conversation_id,
    asked_at: q.askedAt.toISOString(),
    page_url: q.page_url,
    mode: q.mode,
    ...(q.model ? { model: q.model.slice(0, 200) } : {}),
    outcome: q.outcome,
    ...(q.errorCode ? { error_code: q.errorCode } : {}),
    question: q.question.slice(0, 4_000),
    ...(logging === 'full' && q.answer ? { answer: q.answer.slice(0, 4_000) } : {}),
    citations: q.citations.slice(0, 20).map((c) => ({ url: c.url, title: c.title.slice(0, 300) })),
    latency_ms: Math.max(0, Math.round(q.latencyMs)),
  }));
}
