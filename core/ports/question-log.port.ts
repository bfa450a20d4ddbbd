import type { Page, PageRequest } from './account-store.port.js';
import type { LoggedQuestion, QuestionCount, QuestionMode, QuestionOutcome, Rating } from '../insights/question-log-types.js';

/** A row ready to store: redacted, with its grouping hash and its own id. */
export type QuestionLogEntry = Omit<LoggedQuestion, 'rating' | 'comment' | 'ratedAt'> & { readonly questionHash: string };

/** Filters of the question list, search and export. */
export interface QuestionFilter {
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
  readonly keyId?: string | undefined;
  readonly outcome?: QuestionOutcome | undefined;
  readonly mode?: QuestionMode | undefined;
  /** Exact page URL as stored (query dropped unless kept). */
  readonly page?: string | undefined;
  readonly rating?: Rating | undefined;
  /** Words that must all occur in the question. */
  readonly search?: string | undefined;
  readonly conversationId?: string | undefined;
}

/** A group of questions with the same normalised text. */
export interface QuestionGroup {
  readonly questionHash: string;
  /** The newest question of the group, as stored. */
  readonly example: string;
  readonly total: number;
  readonly answered: number;
  /** Answered "not found on the page" (outcome `not_found`). */
  readonly notFound: number;
  readonly refused: number;
  readonly errors: number;
  readonly thumbsUp: number;
  readonly thumbsDown: number;
  readonly lastSeenAt: Date;
}

/**
 * A coverage gap: a group with refusals, not-found answers or thumbs down (ranked by their sum), and where it was
 * asked (the pages of those questions).
 */
export interface CoverageGap extends QuestionGroup {
  readonly pages: ReadonlyArray<{ readonly url: string | null; readonly count: number }>;
}

export interface GroupQuery {
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
  readonly keyId?: string | undefined;
  readonly limit: number;
}

/** What feedback did to the stored answer. */
export type FeedbackWrite = 'rated_question' | 'stored_vote' | 'unchanged';

/** Persistence of the question log, its counts and its summaries (on PostgreSQL or PGlite). */
export interface QuestionLogPort {
  /**
   * Stores logged questions. A row whose message already has a question is left as it is (retries and duplicate
   * beacons); a vote stored earlier for the same message is kept. Rows of revoked keys are dropped. Returns rows stored.
   */
  insertQuestions(entries: readonly QuestionLogEntry[]): Promise<number>;
  /** Adds question counts (summed per day, key, page, mode and outcome). */
  addCounts(counts: readonly QuestionCount[]): Promise<void>;
  /**
   * Records a visitor's vote (and comment, already redacted, or null) on a message, replacing an earlier vote. The
   * vote is kept even when no question is logged for the message (yet): a question logged later joins it. A key
   * that was deleted meanwhile stores nothing (`unchanged`).
   */
  rate(input: { orgId: string; keyId: string | null; messageId: string; rating: Rating; comment: string | null; at: Date; newId: string }): Promise<FeedbackWrite>;
  /** Newest first, keyset-paged by id. `bad_cursor` when `startingAfter` is not a logged question of this organisation. */
  list(orgId: string, filter: QuestionFilter, page: PageRequest): Promise<Page<LoggedQuestion> | 'bad_cursor'>;
  get(orgId: string, id: string): Promise<LoggedQuestion | null>;
  /** Every row of the filter, newest first, read in chunks (CSV and data export). */
  stream(orgId: string, filter: QuestionFilter): AsyncIterable<LoggedQuestion>;
  /** Deletes a conversation (its questions and votes); returns rows deleted. */
  deleteConversation(orgId: string, conversationId: string): Promise<number>;
  /** Groups, most asked first; with `from`, `to` or `keyId` over whole UTC days as `daily` (from per-day summaries). */
  topQuestions(orgId: string, query: GroupQuery): Promise<readonly QuestionGroup[]>;
  coverageGaps(orgId: string, query: GroupQuery & { readonly pagesPerGap: number }): Promise<readonly CoverageGap[]>;
  /** Question counts per UTC day, mode and outcome, over the whole UTC days [from's day, to) (to's day counts unless to is midnight). */
  daily(orgId: string, range: { from: Date; to: Date; keyId?: string | undefined }): Promise<ReadonlyArray<{ day: string; mode: QuestionMode; outcome: QuestionOutcome; questions: number }>>;
  /** Votes per UTC day of the vote, over the same whole days as `daily`. */
  dailyFeedback(orgId: string, range: { from: Date; to: Date; keyId?: string | undefined }): Promise<ReadonlyArray<{ day: string; up: number; down: number }>>;
  /**
   * Deletes rows older than each organisation's retention (`defaultDays` when it set none) and counts older than
   * `countDays`, in batches of `batch`; returns rows deleted.
   */
  purge(now: Date, options: { defaultDays: number; countDays: number; batch: number }): Promise<{ questions: number; counts: number }>;
}
