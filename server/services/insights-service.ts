import { inject, injectable } from 'inversify';
import type { Page, PageRequest } from '../../core/ports/account-store.port.js';
import type { LoggedQuestion, QuestionMode, QuestionOutcome } from '../../core/insights/index.js';
import type { CoverageGap, QuestionFilter, QuestionGroup, QuestionLogPort } from '../../core/ports/question-log.port.js';
import type { MemberAuth } from '../auth/auth-context.js';
import { TOKENS, type Clock } from '../tokens.js';
import { ok, refuse, type ServiceResult } from './service-result.js';

/** Days an insights range covers when `from` is absent. */
export const DEFAULT_INSIGHTS_DAYS = 30;
/** Longest range of the daily counts, in days. */
export const MAX_INSIGHTS_DAYS = 400;
/** Pages listed per coverage gap. */
export const PAGES_PER_GAP = 5;

/** Questions per day by mode and outcome, and votes per day. */
export interface DailyInsights {
  readonly from: Date;
  readonly to: Date;
  readonly questions: ReadonlyArray<{ day: string; mode: QuestionMode; outcome: QuestionOutcome; questions: number }>;
  readonly feedback: ReadonlyArray<{ day: string; up: number; down: number }>;
}

/**
 * The read side of the question log for an organisation's members (issue 13 §2): list and search, one question, a
 * conversation, top questions and coverage gaps (from the per-question summary when unfiltered, from the per-day
 * summaries over whole UTC days for a range or key), counts per day, exports; and deleting a conversation. Every query is scoped to the caller's
 * organisation: an id of another organisation is `not_found`.
 */
@injectable()
export class InsightsService {
  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.QuestionLogStore) private readonly store: QuestionLogPort,
  ) {}

  async list(auth: MemberAuth, filter: QuestionFilter, page: PageRequest): Promise<ServiceResult<Page<LoggedQuestion>>> {
    const range = this.#range(filter.from, filter.to, null);
    if (!range.ok) return range;
    const result = await this.store.list(auth.orgId, filter, page);
    if (result === 'bad_cursor') return refuse('invalid_request', 'starting_after: not a question of this organization');
    return ok(result);
  }

  async get(auth: MemberAuth, id: string): Promise<ServiceResult<LoggedQuestion>> {
    const question = await this.store.get(auth.orgId, id);
    return question ? ok(question) : refuse('not_found', 'No such question in this organization.');
  }

  async conversation(auth: MemberAuth, conversationId: string): Promise<ServiceResult<readonly LoggedQuestion[]>> {
    const rows: LoggedQuestion[] = [];
    for await (const q of this.store.stream(auth.orgId, { conversationId })) rows.push(q);
    if (rows.length === 0) return refuse('not_found', 'No such conversation in this organization.');
    return ok(rows.reverse());
  }

  async deleteConversation(auth: MemberAuth, conversationId: string): Promise<ServiceResult<number>> {
    const deleted = await this.store.deleteConversation(auth.orgId, conversationId);
    return deleted > 0 ? ok(deleted) : refuse('not_found', 'No such conversation in this organization.');
  }

  async topQuestions(auth: MemberAuth, query: { from?: Date | undefined; to?: Date | undefined; keyId?: string | undefined; limit: number }): Promise<ServiceResult<readonly QuestionGroup[]>> {
    const range = this.#range(query.from, query.to, null);
    if (!range.ok) return range;
    return ok(await this.store.topQuestions(auth.orgId, query));
  }

  async coverageGaps(auth: MemberAuth, query: { from?: Date | undefined; to?: Date | undefined; keyId?: string | undefined; limit: number }): Promise<ServiceResult<readonly CoverageGap[]>> {
    const range = this.#range(query.from, query.to, null);
    if (!range.ok) return range;
    return ok(await this.store.coverageGaps(auth.orgId, { ...query, pagesPerGap: PAGES_PER_GAP }));
  }

  async daily(auth: MemberAuth, query: { from?: Date | undefined; to?: Date | undefined; keyId?: string | undefined }): Promise<ServiceResult<DailyInsights>> {
    const range = this.#range(query.from, query.to, DEFAULT_INSIGHTS_DAYS);
    if (!range.ok) return range;
    const { from, to } = range.value as { from: Date; to: Date };
    const [questions, feedback] = await Promise.all([
      this.store.daily(auth.orgId, { from, to, keyId: query.keyId }),
      this.store.dailyFeedback(auth.orgId, { from, to, keyId: query.keyId }),
    ]);
    return ok({ from, to, questions, feedback });
  }

  /** Every question of the filter, newest first (CSV export). */
  stream(auth: MemberAuth, filter: QuestionFilter): AsyncIterable<LoggedQuestion> {
    return this.store.stream(auth.orgId, filter);
  }

  #range(from: Date | undefined, to: Date | undefined, defaultDays: number | null): ServiceResult<{ from: Date | undefined; to: Date | undefined }> {
    const end = to ?? (defaultDays === null ? undefined : this.clock());
    const start = from ?? (defaultDays === null || !end ? undefined : new Date(end.getTime() - defaultDays * 86_400_000));
    if (start && end && start.getTime() >= end.getTime()) return refuse('invalid_request', 'from: must be before to');
    if (start && end && end.getTime() - start.getTime() > MAX_INSIGHTS_DAYS * 86_400_000) return refuse('invalid_request', `to: the range may cover at most ${MAX_INSIGHTS_DAYS} days`);
    return ok({ from: start, to: end });
  }
}
