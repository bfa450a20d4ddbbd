import type { Citation } from '../../core/sources.js';
import type { QuestionOutcome, QuestionReport } from '../../core/insights/index.js';
import type { KeyAuth } from '../auth/auth-context.js';
import type { ChatSink } from '../services/chat-service.js';

/** What the chat route knows about a question before it is answered. */
export interface ChatQuestionContext {
  readonly auth: KeyAuth;
  readonly requestId: string;
  readonly question: string;
  readonly pageUrl: string | null;
  readonly conversationId: string | null;
  readonly now: () => Date;
}

/**
 * Observes a chat's events on their way to the visitor and reports the finished question to the question log when
 * the sink ends — the point where the outcome is known. It never delays an event: it only copies what passes.
 * A stream that ends without `done` or `refusal` (the engine failed, the visitor left, the server stopped) is an `error`;
 * a `done` with `found: false` (the engine found no answer in the sources) is `not_found`.
 */
export function observeChatForLog(sink: ChatSink, context: ChatQuestionContext, report: (question: QuestionReport) => void): ChatSink {
  const askedAt = context.now();
  let model: string | null = null;
  let outcome: QuestionOutcome | null = null;
  let errorCode: string | null = null;
  let answer = '';
  const citations: Citation[] = [];
  let reported = false;
  return {
    get signal() {
      return sink.signal;
    },
    open: () => sink.open(),
    send(event) {
      switch (event.type) {
        case 'start':
          model = event.model;
          break;
        case 'delta':
          if (answer.length < 16_000) answer += event.text;
          break;
        case 'citation':
          citations.push({ url: event.url, title: event.title });
          break;
        case 'refusal':
          outcome = 'refused';
          break;
        case 'done':
          outcome ??= event.finishReason === 'refused' ? 'refused' : event.found === false ? 'not_found' : 'answered';
          break;
        case 'error':
          outcome = 'error';
          errorCode = event.code;
          break;
      }
      return sink.send(event);
    },
    async end() {
      try {
        await sink.end();
      } finally {
        if (!reported) {
          reported = true;
          const finalOutcome = outcome ?? 'error';
          report({
            orgId: context.auth.orgId,
            keyId: context.auth.keyId,
            messageId: context.requestId,
            conversationId: context.conversationId,
            askedAt,
            pageUrl: context.pageUrl,
            mode: 'remote',
            model,
            outcome: finalOutcome,
            errorCode: finalOutcome === 'error' ? (errorCode ?? (sink.signal.aborted ? 'client_gone' : 'upstream_unavailable')) : null,
            question: context.question,
            // What the visitor read, also when the engine found nothing (its "closest it comes" quote helps the owner).
            answer: finalOutcome === 'answered' || finalOutcome === 'not_found' ? answer : null,
            citations,
            latencyMs: context.now().getTime() - askedAt.getTime(),
            source: 'server',
          });
        }
      }
    },
  };
}
