import { z } from 'zod';
import { createMemoryRateLimiter } from '../../adapters/node/memory-rate-limiter.js';
import { KitError } from '../../core/errors/index.js';
import type { BotChallengePort } from '../../core/ports/bot-challenge.port.js';
import type { RateLimiterPort } from '../../core/ports/rate-limiter.port.js';
import type { ServerConfig } from '../config.js';
import { defineRoute, type Route } from '../http/route.js';
import { Timestamp } from '../http/schemas.js';
import { TierSchema } from '../http/views.js';
import type { PlanLimits } from '../plans.js';
import { rateLimited } from '../services/rate-limit-refusal.js';
import { unwrap } from '../services/service-result.js';
import type { SessionTokens } from '../services/session-tokens.js';
import type { AssistantSettingsService } from '../services/assistant-settings-service.js';
import { AssistantConfig, settingsValues } from '../http/assistant-schemas.js';
import type { Clock } from '../tokens.js';

const Limits = z
  .strictObject({
    requests_per_minute: z.number().int(),
    session_requests_per_minute: z.number().int(),
    max_question_chars: z.number().int(),
    max_context_chars: z.number().int(),
    max_pages: z.number().int(),
    session_ttl_seconds: z.number().int(),
    monthly_tokens: z.number().int(),
  })
  .meta({ id: 'PlanLimits', description: "The key's plan (CONTRACT §6): per-key and per-session requests per minute on /chat, sizes, the session lifetime and the monthly token quota." });

const BotChallenge = z
  .discriminatedUnion('provider', [
    z.strictObject({
      provider: z.literal('altcha'),
      challenge: z.strictObject({
        algorithm: z.enum(['SHA-1', 'SHA-256', 'SHA-512']),
        challenge: z.string(),
        maxnumber: z.number().int(),
        salt: z.string().meta({ description: 'Carries `expires=<unix seconds>`, the key id (`key=`) and the origin it was issued for: the solution opens a session for that key (and origin) only.' }),
        signature: z.string(),
      }),
    }),
    z.strictObject({ provider: z.literal('turnstile'), site_key: z.string() }),
    z.strictObject({ provider: z.literal('none') }),
  ])
  .meta({ id: 'BotChallenge', description: 'What to solve for POST /session: an ALTCHA proof of work, a Cloudflare Turnstile widget, or nothing (development, and secret keys).' });

const PlatformConfig = z
  .strictObject({
    tier: TierSchema,
    mode: z.enum(['auto', 'local', 'remote']),
    model: z.enum(['auto', 'nano', 'small', 'balanced', 'quality']),
    limits: Limits,
    bot_challenge: BotChallenge,
    assistant: AssistantConfig.optional().meta({ description: "The key's assistant settings (issue 13); absent only on servers without them." }),
  })
  .meta({ id: 'PlatformConfig' });

/** The browser-facing part of a plan, as `GET /config` shows it. */
export function limitsView(plan: PlanLimits): z.infer<typeof Limits> {
  return {
    requests_per_minute: plan.requestsPerMinute,
    session_requests_per_minute: plan.sessionRequestsPerMinute,
    max_question_chars: plan.maxQuestionChars,
    max_context_chars: plan.maxContextChars,
    max_pages: plan.maxPages,
    session_ttl_seconds: plan.sessionTtlSeconds,
    monthly_tokens: plan.monthlyTokens,
  };
}

/** What the browser routes need. */
export interface BrowserRouteDeps {
  readonly config: ServerConfig;
  readonly clock: Clock;
  readonly challenge: BotChallengePort;
  readonly sessions: SessionTokens;
  readonly limiter: RateLimiterPort;
  /** The site owner's assistant settings for `/config` (issue 13); absent = no `assistant` block. */
  readonly assistant?: AssistantSettingsService;
  /** The draft of a console preview on the owner's site (`Kit-Preview`, services/preview-grants.ts), or null. */
  readonly previewDraft?: (token: string, keyId: string, origin: string) => Record<string, unknown> | null;
}

/** The saved settings with a console preview's draft on top (theme field by field; no starter questions = none). */
function withDraft<T extends { theme: object; starter_questions: string[] }>(saved: T, draft: Record<string, unknown> | null | undefined): T {
  if (!draft) return saved;
  const defined = Object.fromEntries(Object.entries(draft).filter(([, v]) => v !== undefined));
  const out = { ...saved, ...defined, theme: { ...saved.theme, ...((defined.theme as object | undefined) ?? {}) } } as T;
  if (out.starter_questions === null) out.starter_questions = [];
  return out;
}

/** GET /config and POST /session: what the SDK asks before its first question. */
export function browserRoutes({ config, clock, challenge, sessions, limiter, assistant, previewDraft }: BrowserRouteDeps): Route[] {
  // A flood guard, per process: /config costs a challenge signature, never a database write (docs/api.md).
  const configLimiter = createMemoryRateLimiter();
  return [
    defineRoute({
      method: 'get',
      path: '/config',
      operationId: 'getConfig',
      summary: "The key's plan and the bot challenge to solve",
      description:
        'For a publishable key: the plan, the limits and a fresh bot challenge for this `Origin` (answered with CORS only for origins the key allows). At most `KIT_CONFIG_PER_MINUTE` (120) answers per minute per key and client IP on each server process, then `429 rate_limited`. For a secret key (Mode B proxies): the same plan with `bot_challenge: { provider: "none" }`, since secret keys need no session. Never cached (`Cache-Control: no-store`): every answer carries a new challenge.',
      tags: ['Browser'],
      auth: { kind: 'key', kinds: ['publishable', 'secret'] },
      responses: { 200: { description: 'The configuration.', schema: PlatformConfig } },
      errors: ['rate_limited'],
      async handler({ auth, ctx, ip }) {
        const now = clock();
        const limit = await configLimiter.hit(`config:${auth.keyId}:${ip}`, config.configRequestsPerMinute, 60, now);
        if (!limit.allowed) unwrap(rateLimited(limit, now, `Over ${config.configRequestsPerMinute} configuration requests per minute from this address for this key; retry later.`));
        const plan = config.plans[auth.orgTier];
        const origin = ctx.get('origin') || null;
        const [bot_challenge, resolved] = await Promise.all([
          auth.keyKind === 'secret' ? { provider: 'none' as const } : challenge.issue({ origin, keyId: auth.keyId }),
          assistant?.resolveForKey(auth.orgId, auth.keyId),
        ]);
        return {
          status: 200,
          headers: { 'Cache-Control': 'no-store' },
          body: {
            tier: auth.orgTier,
            mode: plan.mode,
            model: plan.model,
            limits: limitsView(plan),
            bot_challenge,
            ...(resolved ? { assistant: withDraft({ ...settingsValues(resolved.settings), logging: resolved.logging }, origin && ctx.get('kit-preview') ? previewDraft?.(ctx.get('kit-preview'), auth.keyId, origin) : null) } : {}),
          },
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/session',
      operationId: 'createSession',
      summary: 'Exchange a solved bot challenge for a browser session',
      description:
        'The `solution` of the challenge from GET /config (ALTCHA: the base64 payload; Turnstile: the widget token; `none`: null). Each solution is accepted once, on every replica. The session works with this key from this `Origin` only, for the plan\'s `session_ttl_seconds`; send it as `Kit-Session` on POST /chat. Sessions per key per minute are limited like chats (`requests_per_minute`).',
      tags: ['Browser'],
      auth: { kind: 'key', kinds: ['publishable'] },
      body: z.strictObject({
        provider: z.enum(['altcha', 'turnstile', 'none']),
        solution: z.string().max(8_192, 'must be at most 8192 characters').nullable(),
      }),
      responses: {
        201: {
          description: 'The session.',
          schema: z
            .strictObject({ session: z.string().meta({ description: 'Send as the Kit-Session header.' }), expires_at: Timestamp })
            .meta({ id: 'BrowserSession' }),
        },
      },
      errors: ['challenge_failed', 'rate_limited', 'upstream_unavailable'],
      async handler({ auth, body, ctx, ip }) {
        const plan = config.plans[auth.orgTier];
        const now = clock();
        const limit = await limiter.hit(`session:key:${auth.keyId}`, plan.requestsPerMinute, 60, now);
        if (!limit.allowed) unwrap(rateLimited(limit, now, `This key is over its ${plan.requestsPerMinute} sessions per minute; retry later.`));
        if (body.provider !== challenge.provider) {
          throw new KitError('challenge_failed', `This server uses the ${challenge.provider} bot challenge; get a fresh one from GET /v1/config.`);
        }
        const origin = ctx.get('origin') || null;
        const outcome = await challenge.verify(body.solution, { origin, keyId: auth.keyId, remoteIp: ip });
        if (!outcome.ok) throw new KitError(outcome.code, outcome.reason);
        const issued = sessions.issue({ keyId: auth.keyId, origin }, plan.sessionTtlSeconds, now);
        return { status: 201, headers: { 'Cache-Control': 'no-store' }, body: { session: issued.token, expires_at: issued.expiresAt.toISOString() } };
      },
    }),
  ];
}
