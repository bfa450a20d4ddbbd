import { createHmac } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { QuestionCount, QuestionFacts, QuestionMode, QuestionOutcome, Rating } from '../../core/insights/index.js';
import type { QuestionLogPort } from '../../core/ports/question-log.port.js';
import type { RateLimiterPort } from '../../core/ports/rate-limiter.port.js';
import type { KeyAuth } from '../auth/auth-context.js';
import type { ServerConfig } from '../config.js';
import { TOKENS, type Clock, type PlatformSecrets } from '../tokens.js';
import type { AssistantSettingsService } from './assistant-settings-service.js';
import { newQuestionId, type QuestionLogService } from './question-log-service.js';
import { rateLimited } from './rate-limit-refusal.js';
import { ok, refuse, type ServiceResult } from './service-result.js';
import type { SessionTokens } from './session-tokens.js';

/** Longest feedback comment. */
export const MAX_COMMENT_CHARS = 500;
/** A beacon may carry a session this long after it expired: pages are hidden long after the last question. */
export const BEACON_SESSION_GRACE_MS = 60 * 60_000;
/** Beacons per key per minute for each chat request per minute of the key's plan (free: 10 × 60 = 600). */
export const BEACONS_PER_KEY_PER_CHAT_MINUTE = 10;
/** Questions one beacon may count in all (the SDK sends at 20, and never more than 50). */
export const MAX_BEACON_COUNTED = 50;
/** A question reported by the browser may be this old. */
const MAX_ITEM_AGE_MS = 24 * 60 * 60_000;

/** One question answered (or refused) in the browser, as the beacon carries it. */
export interface BeaconItem extends QuestionFacts {
  readonly conversationId: string | null;
  readonly askedAt: Date;
}

/** Counts the beacon carries with logging off (never text). */
export interface BeaconCount {
  readonly pageUrl: string | null;
  readonly mode: QuestionMode;
  readonly outcome: QuestionOutcome;
  readonly count: number;
}

/**
 * The visitor's side of insights: the SDK's beacon (questions answered or refused in the browser, which never reach
 * `/chat`) and thumbs with an optional comment. Text (questions, comments) needs a browser session of the key and
 * origin, which the page already holds (a remote answer or the vote itself solved its challenge), so a public key alone
 * cannot write text into the log; counts of outcomes need only the key and origin. What is stored depends on the
 * organisation's logging mode. Abuse analysis: docs/privacy.md "Who can write to the log".
 */
@injectable()
export class VisitorInsightsService {
  constructor(
    @inject(TOKENS.Config) private readonly config: ServerConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.SessionTokens) private readonly sessions: SessionTokens,
    @inject(TOKENS.RateLimiter) private readonly limiter: RateLimiterPort,
    @inject(TOKENS.QuestionLogStore) private readonly store: QuestionLogPort,
    @inject(TOKENS.QuestionLogService) private readonly log: QuestionLogService,
    @inject(TOKENS.AssistantSettingsService) private readonly settings: AssistantSettingsService,
    @inject(TOKENS.PlatformSecrets) private readonly secrets: PlatformSecrets,
  ) {}

  /** Thumbs up or down (and a comment) on an answer; replaces the visitor's earlier vote on it. */
  async feedback(
    auth: KeyAuth,
    session: string | null,
    origin: string | null,
    input: { messageId: string; rating: Rating; comment: string | null },
  ): Promise<ServiceResult<{ commentStored: boolean }>> {
    const now = this.clock();
    const sid = this.#session(auth, session, origin, now);
    if (!sid.ok) return sid;
    const perMinute = this.config.insights.feedbackPerSessionPerMinute;
    const limit = await this.limiter.hit(`feedback:session:${sid.value}`, perMinute, 60, now);
    if (!limit.allowed) return rateLimited(limit, now, `This session is over its ${perMinute} feedback posts per minute; retry later.`);
    const logging = await this.settings.logging(auth.orgId);
    // Comments are text: stored only while the organisation logs questions, and masked like them.
    const comment = logging.mode !== 'off' && input.comment ? (await this.log.redactor()).redact(input.comment).text : null;
    const written = await this.store.rate({ orgId: auth.orgId, keyId: auth.keyId, messageId: input.messageId, rating: input.rating, comment, at: now, newId: newQuestionId() });
    if (written === 'unchanged') return refuse('invalid_api_key', 'This key was deleted.');
    return ok({ commentStored: comment !== null });
  }

  /**
   * Questions answered in the browser (text only when the organisation logs) and counts of outcomes. Counts need only
   * the publishable key and its origin: the SDK sends them on page hide and must never solve a bot challenge for that.
   * Items carry text and need a session the page already holds. Limited per session (items) or per client IP (counts),
   * then per key (BEACONS_PER_KEY_PER_CHAT_MINUTE × the plan's requests per minute): a forged flood from many addresses
   * stays within what the key's own traffic could report.
   */
  async beacon(
    auth: KeyAuth,
    session: string | null,
    origin: string | null,
    ip: string,
    input: { items: readonly BeaconItem[]; counts: readonly BeaconCount[] },
  ): Promise<ServiceResult<{ accepted: number }>> {
    const now = this.clock();
    let client: { bucket: string; limit: number; what: string };
    if (input.items.length > 0) {
      if (!session) return refuse('session_required', 'Questions with text need the browser session the page already holds (Kit-Session); send counts only without one.');
      const sid = this.#session(auth, session, origin, new Date(now.getTime() - BEACON_SESSION_GRACE_MS));
      if (!sid.ok) return sid;
      client = { bucket: `beacon:session:${sid.value}`, limit: this.config.insights.beaconsPerSessionPerMinute, what: 'This session' };
    } else {
      // A keyed hash, not the address: the counter row (kept about two minutes) must not store the visitor's IP.
      const address = createHmac('sha256', this.secrets.sessionSecret).update(ip).digest('base64url').slice(0, 22);
      client = { bucket: `beacon:ip:${auth.keyId}:${address}`, limit: this.config.insights.beaconsPerIpPerMinute, what: 'This address' };
    }
    const byClient = await this.limiter.hit(client.bucket, client.limit, 60, now);
    if (!byClient.allowed) return rateLimited(byClient, now, `${client.what} is over its ${client.limit} beacons per minute; retry later.`);
    const perKey = BEACONS_PER_KEY_PER_CHAT_MINUTE * this.config.plans[auth.orgTier].requestsPerMinute;
    const byKey = await this.limiter.hit(`beacon:key:${auth.keyId}`, perKey, 60, now);
    if (!byKey.allowed) return rateLimited(byKey, now, `This key is over its ${perKey} beacons per minute; retry later.`);
    const clamp = (d: Date) => new Date(Math.min(now.getTime(), Math.max(now.getTime() - MAX_ITEM_AGE_MS, d.getTime())));
    for (const item of input.items) {
      this.log.report({
        orgId: auth.orgId,
        keyId: auth.keyId,
        messageId: item.messageId,
        conversationId: item.conversationId,
        askedAt: clamp(item.askedAt),
        pageUrl: item.pageUrl,
        mode: item.mode,
        model: item.model,
        outcome: item.outcome,
        errorCode: item.errorCode,
        question: item.question,
        answer: item.answer,
        citations: item.citations,
        latencyMs: item.latencyMs,
        source: 'sdk',
      });
    }
    const day = now.toISOString().slice(0, 10);
    const counts: QuestionCount[] = input.counts.map((c) => ({ orgId: auth.orgId, keyId: auth.keyId, day, page: c.pageUrl, mode: c.mode, outcome: c.outcome, questions: c.count }));
    this.log.reportCounts(counts);
    return ok({ accepted: input.items.length + input.counts.length });
  }

  #session(auth: KeyAuth, token: string | null, origin: string | null, at: Date): ServiceResult<string> {
    if (auth.keyKind !== 'publishable') return ok(`key:${auth.keyId}`);
    if (!token) return refuse('session_required', 'Send the browser session (Kit-Session): solve the bot challenge at POST /v1/session first.');
    const verified = this.sessions.verify(token, { keyId: auth.keyId, origin }, at);
    if (!verified.ok) return refuse('session_required', 'The session is invalid, expired, or was issued for another key or origin; get a new one at POST /v1/session.');
    return ok(verified.value.sessionId);
  }
}
