import { z } from 'zod';
import type { Tier } from '../core/ports/account-store.port.js';

/** What one tier allows (CONTRACT §6). `GET /config` shows the browser-facing part as `limits`. */
export interface PlanLimits {
  /** `auto` = the SDK picks local or remote; `local` refuses `/chat`; `remote` never runs a local model. */
  readonly mode: 'auto' | 'local' | 'remote';
  /** Default local model size the SDK loads. */
  readonly model: 'auto' | 'nano' | 'small' | 'balanced' | 'quality';
  /** `/chat` requests per key per minute (fixed one-minute windows, shared by replicas). */
  readonly requestsPerMinute: number;
  /** `/chat` requests per browser session per minute. */
  readonly sessionRequestsPerMinute: number;
  /** `/chat` requests per organisation per minute, over all its keys (so more keys do not mean more traffic). */
  readonly orgRequestsPerMinute: number;
  /** Active keys (not revoked, not expiring after a rotation) an organisation may hold. */
  readonly maxKeys: number;
  /**
   * Longest answer in tokens: sent upstream as `max_tokens` and enforced on the stream (an upstream that ignores it is
   * cut off with `finish_reason: length`). Admission reserves the request's input estimate plus this against the month.
   */
  readonly maxOutputTokens: number;
  /** Input plus output tokens per organisation per calendar month (UTC). */
  readonly monthlyTokens: number;
  /** Characters of the question (the last message). */
  readonly maxQuestionChars: number;
  /** Characters of the sources' text, and separately of the earlier turns. */
  readonly maxContextChars: number;
  /** Pages the SDK may crawl (the SDK's own hard cap is 100). */
  readonly maxPages: number;
  /** Lifetime of a browser session from `POST /session`. */
  readonly sessionTtlSeconds: number;
  /** Largest `/chat` body in bytes. */
  readonly maxBodyBytes: number;
}

/** Body bytes allowed for a plan whose operator did not set `max_body_bytes`: room for the characters at 4 bytes each, plus JSON. */
export function defaultBodyBytes(maxContextChars: number, maxQuestionChars: number): number {
  return 4 * (2 * maxContextChars + maxQuestionChars) + 64 * 1024;
}

function plan(requestsPerMinute: number, sessionRequestsPerMinute: number, orgRequestsPerMinute: number, maxKeys: number, maxOutputTokens: number, monthlyTokens: number): PlanLimits {
  return Object.freeze({
    mode: 'auto',
    model: 'auto',
    requestsPerMinute,
    sessionRequestsPerMinute,
    orgRequestsPerMinute,
    maxKeys,
    maxOutputTokens,
    monthlyTokens,
    maxQuestionChars: 1_000,
    maxContextChars: 60_000,
    maxPages: 100,
    sessionTtlSeconds: 600,
    maxBodyBytes: defaultBodyBytes(60_000, 1_000),
  });
}

/** CONTRACT §6 defaults; `KIT_PLAN_LIMITS` overrides any field of any tier. */
export const DEFAULT_PLANS: Readonly<Record<Tier, PlanLimits>> = Object.freeze({
  free: plan(60, 10, 120, 5, 512, 200_000),
  pro: plan(600, 20, 1_200, 25, 1_024, 5_000_000),
  business: plan(3_000, 30, 6_000, 100, 2_048, 50_000_000),
});

const count = (min: number, max: number) => z.number().int('must be a whole number').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`);

const PlanOverride = z.strictObject({
  mode: z.enum(['auto', 'local', 'remote']).optional(),
  model: z.enum(['auto', 'nano', 'small', 'balanced', 'quality']).optional(),
  requests_per_minute: count(1, 1_000_000).optional(),
  session_requests_per_minute: count(1, 1_000_000).optional(),
  org_requests_per_minute: count(1, 10_000_000).optional(),
  max_keys: count(1, 1_000_000).optional(),
  max_output_tokens: count(1, 1_000_000).optional(),
  monthly_tokens: count(0, 1e15).optional(),
  max_question_chars: count(1, 100_000).optional(),
  max_context_chars: count(0, 10_000_000).optional(),
  max_pages: count(1, 100).optional(),
  session_ttl_seconds: count(30, 86_400).optional(),
  max_body_bytes: count(1024, 64 * 1024 * 1024).optional(),
});

/** The JSON of `KIT_PLAN_LIMITS`: `{ "<tier>": { "<snake_case field>": value } }`, every part optional. */
export const PlanOverrides = z.strictObject({ free: PlanOverride.optional(), pro: PlanOverride.optional(), business: PlanOverride.optional() });

/** Applies operator overrides to the defaults. */
export function resolvePlans(overrides: z.infer<typeof PlanOverrides>): Readonly<Record<Tier, PlanLimits>> {
  const out = {} as Record<Tier, PlanLimits>;
  for (const tier of ['free', 'pro', 'business'] as const) {
    const base = DEFAULT_PLANS[tier];
    const o = overrides[tier] ?? {};
    const maxContextChars = o.max_context_chars ?? base.maxContextChars;
    const maxQuestionChars = o.max_question_chars ?? base.maxQuestionChars;
    out[tier] = Object.freeze({
      mode: o.mode ?? base.mode,
      model: o.model ?? base.model,
      requestsPerMinute: o.requests_per_minute ?? base.requestsPerMinute,
      sessionRequestsPerMinute: o.session_requests_per_minute ?? base.sessionRequestsPerMinute,
      orgRequestsPerMinute: o.org_requests_per_minute ?? base.orgRequestsPerMinute,
      maxKeys: o.max_keys ?? base.maxKeys,
      maxOutputTokens: o.max_output_tokens ?? base.maxOutputTokens,
      monthlyTokens: o.monthly_tokens ?? base.monthlyTokens,
      maxQuestionChars,
      maxContextChars,
      maxPages: o.max_pages ?? base.maxPages,
      sessionTtlSeconds: o.session_ttl_seconds ?? base.sessionTtlSeconds,
      maxBodyBytes: o.max_body_bytes ?? defaultBodyBytes(maxContextChars, maxQuestionChars),
    });
  }
  return Object.freeze(out);
}
