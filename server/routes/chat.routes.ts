import type { Logger } from 'pino';
import { z } from 'zod';
import { KitError } from '../../core/errors/index.js';
import type { KeyAuth } from '../auth/auth-context.js';
import type { ServerConfig } from '../config.js';
import { createJsonSink, createSseSink } from '../http/chat-sinks.js';
import { defineRoute, type Route } from '../http/route.js';
import { CONVERSATION_ID, ConversationId, HttpUrl, MAX_URL_CHARS, parsesAsHttpUrl } from '../http/schemas.js';
import type { ChatService } from '../services/chat-service.js';
import { observeChatForLog } from '../http/question-log-sink.js';
import type { QuestionLogService } from '../services/question-log-service.js';
import type { AssistantSettingsService } from '../services/assistant-settings-service.js';
import { unwrap } from '../services/service-result.js';

/** Most turns a request may carry (earlier turns plus the question). */
export const MAX_MESSAGES = 50;
/** Most sources a request may carry. */
export const MAX_SOURCES = 100;

export const ChatBody = z
  .strictObject({
    messages: z
      .array(z.strictObject({ role: z.enum(['user', 'assistant']), content: z.string() }))
      .min(1, 'must hold the question')
      .max(MAX_MESSAGES, `at most ${MAX_MESSAGES} messages`)
      .meta({ description: 'Earlier turns (user/assistant), oldest first; the last is the user\'s question.' }),
    sources: z
      .array(z.strictObject({ url: HttpUrl, title: z.string().max(1_000, 'must be at most 1000 characters'), text: z.string() }))
      .max(MAX_SOURCES, `at most ${MAX_SOURCES} sources`)
      .meta({ description: 'The passages to answer from, numbered 1..n for citations. Their total text is limited by max_context_chars.' }),
    model: z.string().max(100, 'must be at most 100 characters').default('auto').meta({ description: "Ignored beyond 'auto' for now: the server's engine answers and `start` names it." }),
    stream: z.boolean().default(true),
    page_url: HttpUrl.optional().meta({ description: 'The page the visitor asked on, for the question log (its query string is dropped unless the organization keeps it).' }),
    conversation_id: ConversationId.optional().meta({ description: "The SDK's id of this conversation: logged questions are grouped (and deleted) by it." }),
  })
  .meta({ id: 'ChatRequest' });

/** Results of the http(s) URL check of {@link HttpUrl} for the URLs seen lately (a page's sources repeat). */
const urlChecks = new Map<string, boolean>();
const URL_CHECKS_MAX = 1_000;

function isHttpUrl(v: unknown): boolean {
  if (typeof v !== 'string' || v.length > MAX_URL_CHARS) return false;
  let ok = urlChecks.get(v);
  if (ok === undefined) {
    ok = parsesAsHttpUrl(v);
    if (urlChecks.size >= URL_CHECKS_MAX) urlChecks.clear();
    urlChecks.set(v, ok);
  }
  return ok;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Whether `v` has no key outside `allowed` (a strict object's rule). */
function onlyKeys(v: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in v) if (!allowed.has(key)) return false;
  return true;
}
const BODY_KEYS = new Set(['messages', 'sources', 'model', 'stream', 'page_url', 'conversation_id']);
const MESSAGE_KEYS = new Set(['role', 'content']);
const SOURCE_KEYS = new Set(['url', 'title', 'text']);

/**
 * {@link ChatBody} checked by hand, for `/chat`'s every request: the body as the schema parses it (defaults applied),
 * or undefined for anything it does not accept at once — the schema then decides and words the error. Accepts
 * nothing the schema refuses (test/server/routes/chat-body.test.ts compares them).
 */
export function checkChatBody(raw: unknown): z.output<typeof ChatBody> | undefined {
  if (!isRecord(raw) || !onlyKeys(raw, BODY_KEYS)) return undefined;
  const { messages, sources, model = 'auto', stream = true, page_url: pageUrl, conversation_id: conversationId } = raw;
  if (!Array.isArray(messages) || messages.length < 1 || messages.length > MAX_MESSAGES) return undefined;
  for (const m of messages) {
    if (!isRecord(m) || !onlyKeys(m, MESSAGE_KEYS) || (m.role !== 'user' && m.role !== 'assistant') || typeof m.content !== 'string') return undefined;
  }
  if (!Array.isArray(sources) || sources.length > MAX_SOURCES) return undefined;
  for (const s of sources) {
    if (!isRecord(s) || !onlyKeys(s, SOURCE_KEYS) || !isHttpUrl(s.url) || typeof s.title !== 'string' || s.title.length > 1_000 || typeof s.text !== 'string') return undefined;
  }
  if (typeof model !== 'string' || model.length > 100 || typeof stream !== 'boolean') return undefined;
  if (pageUrl !== undefined && !isHttpUrl(pageUrl)) return undefined;
  if (conversationId !== undefined && (typeof conversationId !== 'string' || !CONVERSATION_ID.test(conversationId))) return undefined;
  const body: z.output<typeof ChatBody> = {
    // Checked above to hold exactly the schema's keys and types: the parsed JSON's own arrays, no copy.
    messages: messages as z.output<typeof ChatBody>['messages'],
    sources: sources as z.output<typeof ChatBody>['sources'],
    model,
    stream,
  };
  if (pageUrl !== undefined) body.page_url = pageUrl as string;
  if (conversationId !== undefined) body.conversation_id = conversationId;
  return body;
}

const Usage = z.strictObject({ input_tokens: z.number().int(), output_tokens: z.number().int() });
const ChatAnswer = z
  .strictObject({
    id: z.string().meta({ description: 'The request id.' }),
    text: z.string(),
    citations: z.array(z.strictObject({ index: z.number().int(), url: z.string(), title: z.string() })),
    refused: z.boolean(),
    model: z.string(),
    finish_reason: z.enum(['stop', 'length', 'refused']),
    usage: Usage,
  })
  .meta({ id: 'ChatAnswer', description: 'The answer of `stream: false`.' });

const EventStream = z.string().meta({
  description:
    'Server-sent events, each with an increasing `id:`, and a `: keep-alive` comment at least every 15 s. `start {request_id, model, mode}`, then `delta {text}` and `citation {index, url, title}` (index 1-based into sources) — or `refusal {message}` — then `done {finish_reason: stop|length|refused, usage: {input_tokens, output_tokens}}`. An `error {error: {code, message, request_id}}` event ends the stream instead of `done`.',
});

/** What the chat route needs. */
export interface ChatRouteDeps {
  readonly config: ServerConfig;
  readonly chat: ChatService;
  /** Where finished questions are reported (issue 13); absent = nothing is logged. */
  readonly questionLog?: QuestionLogService;
  /** The owner's instructions for model engines (issue 13); absent = none. */
  readonly assistant?: AssistantSettingsService;
  /** Where a stream cut for a stalled reader is reported. */
  readonly logger?: Pick<Logger, 'warn'>;
}

/** POST /chat (CONTRACT §4). */
export function chatRoutes({ config, chat, questionLog, assistant, logger }: ChatRouteDeps): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/chat',
      operationId: 'chat',
      summary: 'Answer a question from the given sources (streamed)',
      description:
        'A publishable key with its `Kit-Session`, or a secret key (servers, Mode B). Before any model call: sizes against the plan, per-key, per-session and per-organization requests per minute, and a reservation of the request\'s worst case (input estimate + the plan\'s `max_output_tokens`) against what is left of the monthly token quota; then the grounding gate on the sources (an ungrounded question gets a `refusal` and no model call). Answers are capped at `max_output_tokens` (`finish_reason: length`). Errors found before the stream starts are plain JSON errors with their status.',
      tags: ['Chat'],
      auth: { kind: 'key', kinds: ['publishable', 'secret'] },
      body: ChatBody,
      fastBody: checkChatBody,
      bodyLimitBytes: (auth: KeyAuth) => config.plans[auth.orgTier].maxBodyBytes,
      responses: {
        200: {
          description: 'The answer: an event stream, or one JSON object with `stream: false`.',
          contentType: 'text/event-stream',
          schema: EventStream,
          alternatives: { 'application/json': ChatAnswer },
        },
      },
      errors: ['session_required', 'payload_too_large', 'rate_limited', 'quota_exceeded', 'upstream_unavailable'],
      async handler({ auth, body, ctx, requestId }) {
        const session = ctx.get('kit-session') || null;
        const origin = ctx.get('origin') || null;
        // Read before admission: admission reserves the request's worst case against the month, and only the chat's
        // settle point releases it — a lookup failing after admission would hold the reservation until the sweep.
        // Cached per key (KIT_SETTINGS_CACHE_TTL_MS), so refused requests cost a map lookup.
        const instructions = assistant ? (await assistant.resolveForKey(auth.orgId, auth.keyId)).settings.instructions : null;
        const admitted = unwrap(await chat.admit(auth, body, session, origin, requestId, instructions));
        const rl = admitted.rateLimit;
        ctx.set('RateLimit', `limit=${rl.limit}, remaining=${rl.remaining}, reset=${rl.resetSeconds}`);
        ctx.set('RateLimit-Policy', `${rl.limit};w=60`);
        const logged = <S extends Parameters<ChatService['run']>[2]>(sink: S) =>
          questionLog
            ? observeChatForLog(sink, { auth, requestId, question: admitted.question, pageUrl: body.page_url ?? null, conversationId: body.conversation_id ?? null, now: () => questionLog.now() }, (q) => questionLog.report(q))
            : sink;
        if (body.stream) {
          const sse = createSseSink(ctx, {
            keepAliveMs: config.sseKeepAliveMs,
            writeStallMs: config.sseWriteStallMs,
            requestId,
            onStall: (id) => logger?.warn({ request_id: id, stall_ms: config.sseWriteStallMs }, 'chat stream cut: the client stopped reading'),
          });
          await chat.run(admitted, requestId, logged(sse));
          return undefined;
        }
        const sink = createJsonSink(ctx, requestId);
        await chat.run(admitted, requestId, logged(sink));
        if (sink.error) throw new KitError(sink.error.code, sink.error.message);
        return { status: 200, headers: { 'Cache-Control': 'no-store' }, body: sink.answer };
      },
    }),
  ];
}
