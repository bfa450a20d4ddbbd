import { z } from 'zod';
import { KitError } from '../../core/errors/index.js';
import { QUESTION_OUTCOMES } from '../../core/insights/index.js';
import type { KeyAuth } from '../auth/auth-context.js';
import { originAllowed } from '../keys/origin-policy.js';
import { defineRoute, type Route } from '../http/route.js';
import { ConversationId, HttpUrl } from '../http/schemas.js';
import type { KeyVerifier } from '../services/key-verifier.js';
import { MAX_LOGGED_ANSWER_CHARS, MAX_LOGGED_QUESTION_CHARS } from '../services/question-log-service.js';
import { unwrap } from '../services/service-result.js';
import { MAX_BEACON_COUNTED, MAX_COMMENT_CHARS, type VisitorInsightsService } from '../services/visitor-insights-service.js';

/** Items and count rows per beacon. */
export const MAX_BEACON_ITEMS = 50;
/** sendBeacon's own quota is 64 KiB for everything a page has in flight. */
export const BEACON_BODY_LIMIT_BYTES = 64 * 1024;

const MessageId = z.string().regex(/^(req|msg)_[0-9A-Za-z]{8,64}$/, 'must be a message id (req_… or msg_…)');
const BrowserMode = z.enum(['local', 'extractive', 'remote']);
const Outcome = z.enum(QUESTION_OUTCOMES).meta({ description: '`not_found`: the engine on the device found no answer in the page and said so.' });

const BeaconItem = z.strictObject({
  message_id: MessageId.refine((v) => v.startsWith('msg_'), 'must be an SDK message id (msg_…)'),
  conversation_id: ConversationId.optional(),
  asked_at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }),
  page_url: HttpUrl.optional(),
  mode: BrowserMode.meta({ description: '`remote` only for questions the grounding gate refused in the browser: remote answers are logged by the server, never by the beacon.' }),
  model: z.string().max(200, 'must be at most 200 characters').optional(),
  outcome: Outcome,
  error_code: z.string().regex(/^[a-z_]{1,64}$/, 'must be an error code').optional(),
  question: z.string().min(1, 'must not be empty').max(MAX_LOGGED_QUESTION_CHARS, `must be at most ${MAX_LOGGED_QUESTION_CHARS} characters`),
  answer: z.string().max(MAX_LOGGED_ANSWER_CHARS, `must be at most ${MAX_LOGGED_ANSWER_CHARS} characters`).optional(),
  citations: z.array(z.strictObject({ url: HttpUrl, title: z.string().max(300, 'must be at most 300 characters') })).max(20, 'at most 20 citations').optional(),
  latency_ms: z.number().int('must be a whole number').min(0, 'must be at least 0').max(3_600_000, 'must be at most 3600000').optional(),
}).refine((i) => i.mode !== 'remote' || i.outcome === 'refused', { message: 'remote questions come from /chat; the beacon carries only those refused in the browser', path: ['mode'] });

const BeaconBody = z
  .strictObject({
    key: z.string().max(200, 'must be at most 200 characters').meta({ description: 'The publishable key (sendBeacon cannot send headers).' }),
    session: z
      .string()
      .max(2_048, 'must be at most 2048 characters')
      .optional()
      .meta({ description: 'The browser session (Kit-Session) the page already holds; accepted up to an hour past its expiry. Required with `items`; counts need none.' }),
    items: z.array(BeaconItem).max(MAX_BEACON_ITEMS, `at most ${MAX_BEACON_ITEMS} items`).default([]).meta({ description: 'Questions with their text: sent only while the organization logs questions.' }),
    counts: z
      .array(
        z
          .strictObject({ page_url: HttpUrl.optional(), mode: BrowserMode, outcome: Outcome, count: z.number().int('must be a whole number').min(1, 'must be at least 1').max(1_000, 'must be at most 1000') })
          .refine((c) => c.mode !== 'remote' || c.outcome === 'refused', { message: 'remote questions are counted by /chat', path: ['mode'] }),
      )
      .max(MAX_BEACON_ITEMS, `at most ${MAX_BEACON_ITEMS} counts`)
      .refine((rows) => rows.reduce((n, r) => n + r.count, 0) <= MAX_BEACON_COUNTED, `at most ${MAX_BEACON_COUNTED} questions counted per beacon`)
      .default([])
      .meta({ description: `Outcomes per page, never text: all of them with logging off, and the questions the page had no session to send with text. At most ${MAX_BEACON_COUNTED} questions in all.` }),
  })
  .meta({ id: 'Beacon' });

/** What the visitor routes need. */
export interface VisitorRouteDeps {
  readonly visitors: VisitorInsightsService;
  readonly keys: KeyVerifier;
}

/** POST /feedback (thumbs) and POST /beacon (questions answered in the browser). */
export function visitorRoutes({ visitors, keys }: VisitorRouteDeps): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/feedback',
      operationId: 'sendFeedback',
      summary: "A visitor's thumbs up or down on an answer",
      description:
        'With the browser session (`Kit-Session`), like /chat. A second vote on the same message replaces the first. The comment is masked (secrets and personal data) and stored only while the organization logs questions; with logging off only the vote is kept. Limited per session (KIT_FEEDBACK_PER_SESSION_PER_MINUTE, 10).',
      tags: ['Browser'],
      auth: { kind: 'key', kinds: ['publishable'] },
      body: z
        .strictObject({
          message_id: MessageId.meta({ description: "The answer's id: the `request_id` of /chat's `start` event, or the SDK's `msg_…` id for answers made in the browser." }),
          rating: z.enum(['up', 'down']),
          comment: z.string().trim().max(MAX_COMMENT_CHARS, `must be at most ${MAX_COMMENT_CHARS} characters`).optional(),
        })
        .meta({ id: 'Feedback' }),
      responses: { 200: { description: 'Recorded.', schema: z.strictObject({ message_id: z.string(), rating: z.enum(['up', 'down']), comment_stored: z.boolean() }) } },
      errors: ['session_required', 'rate_limited'],
      async handler({ auth, body, ctx }) {
        const result = unwrap(
          await visitors.feedback(auth, ctx.get('kit-session') || null, ctx.get('origin') || null, { messageId: body.message_id, rating: body.rating, comment: body.comment || null }),
        );
        return { status: 200, headers: { 'Cache-Control': 'no-store' }, body: { message_id: body.message_id, rating: body.rating, comment_stored: result.commentStored } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/beacon',
      operationId: 'sendBeacon',
      summary: 'Questions answered or refused in the browser (the SDK\'s batched beacon)',
      description:
        "Sent by `navigator.sendBeacon` when the page is hidden (and when a batch fills), so the key and session travel in the body and `text/plain` is accepted (no CORS preflight). Counts of outcomes per page need only the publishable key and an allowed `Origin` (the SDK never solves a bot challenge to report): limited per client address and key (KIT_BEACONS_PER_IP_PER_MINUTE, 30) and per key (10 × the plan's requests per minute). Items carry question text: sent only while the organization logs questions, and only with a session the page already holds (limited per session, KIT_BEACONS_PER_SESSION_PER_MINUTE, 20, and per key). The server applies the organization's current mode again and masks text before storing it.",
      tags: ['Browser'],
      auth: { kind: 'none' },
      body: BeaconBody,
      bodyMediaTypes: ['application/json', 'text/plain'],
      bodyLimitBytes: BEACON_BODY_LIMIT_BYTES,
      responses: { 202: { description: 'Accepted; written within KIT_QUESTION_LOG_FLUSH_MS.', schema: z.strictObject({ accepted: z.number().int().meta({ description: 'Items and count rows taken.' }) }) } },
      errors: ['invalid_api_key', 'forbidden', 'origin_not_allowed', 'session_required', 'rate_limited'],
      async handler({ body, ctx, ip }) {
        const verified = await keys.verify(body.key);
        if (!verified.ok) throw new KitError('invalid_api_key');
        const k = verified.value;
        if (k.kind !== 'publishable') throw new KitError('forbidden', 'The beacon takes a publishable key.');
        const origin = ctx.get('origin') || null;
        if (origin !== null && !originAllowed(k.allowedOrigins, origin)) throw new KitError('origin_not_allowed');
        keys.used(k.id);
        const auth: KeyAuth = { kind: 'key', keyId: k.id, keyKind: k.kind, orgId: k.orgId, orgTier: k.orgTier, allowedOrigins: k.allowedOrigins, ipAllowlist: k.ipAllowlist };
        const accepted = unwrap(
          await visitors.beacon(auth, body.session ?? null, origin, ip, {
            items: body.items.map((i) => ({
              messageId: i.message_id,
              conversationId: i.conversation_id ?? null,
              askedAt: new Date(i.asked_at),
              pageUrl: i.page_url ?? null,
              mode: i.mode,
              model: i.model ?? null,
              outcome: i.outcome,
              errorCode: i.error_code ?? null,
              question: i.question,
              answer: i.answer ?? null,
              citations: i.citations ?? [],
              latencyMs: i.latency_ms ?? null,
            })),
            counts: body.counts.map((c) => ({ pageUrl: c.page_url ?? null, mode: c.mode, outcome: c.outcome, count: c.count })),
          }),
        );
        return { status: 202, headers: { 'Cache-Control': 'no-store' }, body: { accepted: accepted.accepted } };
      },
    }),
  ];
}
