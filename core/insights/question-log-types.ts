import type { Citation } from '../sources.js';

/** Where an answer came from: the Platform API, a model on the device, or the device's extractive fallback. */
export type QuestionMode = 'local' | 'remote' | 'extractive';
/**
 * How a question ended: `answered`; `not_found`, the engine ran but found no answer in the pages and said so (core's
 * extractive engine, `done.found: false` on the inference port: content the site lacks, a coverage gap like a refusal);
 * `refused`, the grounding gate found the question off-topic (no engine ran); `error`.
 */
export type QuestionOutcome = 'answered' | 'not_found' | 'refused' | 'error';
/** The organisation's choice (issue 13 §2): nothing, questions (redacted), or questions and answers (redacted). */
export type LoggingMode = 'off' | 'redacted' | 'full';
export type Rating = 'up' | 'down';

export const QUESTION_MODES: readonly QuestionMode[] = Object.freeze(['local', 'remote', 'extractive']);
export const QUESTION_OUTCOMES = Object.freeze(['answered', 'not_found', 'refused', 'error'] as const) satisfies readonly QuestionOutcome[];
export const LOGGING_MODES: readonly LoggingMode[] = Object.freeze(['off', 'redacted', 'full']);

/** Default retention of logged questions, in days. */
export const DEFAULT_RETENTION_DAYS = 30;

/** An organisation's question-logging settings. */
export interface LoggingSettings {
  readonly mode: LoggingMode;
  readonly retentionDays: number;
  /** Keep page URLs' query strings (default false: dropped). */
  readonly keepQueryString: boolean;
  /** The notice the widget shows while logging is on; null = the widget's default text. */
  readonly notice: string | null;
  /** 0 until first written. */
  readonly version: number;
  readonly updatedAt: Date | null;
}

export const DEFAULT_LOGGING_SETTINGS: LoggingSettings = Object.freeze({
  mode: 'off',
  retentionDays: DEFAULT_RETENTION_DAYS,
  keepQueryString: false,
  notice: null,
  version: 0,
  updatedAt: null,
});

/** What is known of one asked question wherever it is recorded: the chat path, the SDK's beacon, the log. */
export interface QuestionFacts {
  /** `req_…` for answers of the Platform API, `msg_…` for answers made in the browser: what feedback refers to. */
  readonly messageId: string;
  readonly pageUrl: string | null;
  readonly mode: QuestionMode;
  readonly model: string | null;
  readonly outcome: QuestionOutcome;
  readonly errorCode: string | null;
  readonly question: string;
  readonly answer: string | null;
  readonly citations: readonly Citation[];
  readonly latencyMs: number | null;
}

/** One question as the chat path or the SDK's beacon reports it, before redaction. */
export interface QuestionReport extends QuestionFacts {
  readonly orgId: string;
  readonly keyId: string | null;
  readonly conversationId: string | null;
  readonly askedAt: Date;
  readonly source: 'server' | 'sdk';
}

/** A stored question (already redacted), with the visitor's feedback when there is some. */
export interface LoggedQuestion extends QuestionFacts {
  readonly id: string;
  readonly orgId: string;
  readonly keyId: string | null;
  readonly conversationId: string;
  readonly createdAt: Date;
  readonly source: 'server' | 'sdk';
  readonly rating: Rating | null;
  readonly comment: string | null;
  readonly ratedAt: Date | null;
}

/** Questions counted per UTC day, key, page (no query), mode and outcome: kept with logging off too (no text). */
export interface QuestionCount {
  readonly orgId: string;
  readonly keyId: string | null;
  /** YYYY-MM-DD (UTC). */
  readonly day: string;
  readonly page: string | null;
  readonly mode: QuestionMode;
  readonly outcome: QuestionOutcome;
  readonly questions: number;
}
