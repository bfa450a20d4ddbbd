import { inject, injectable } from 'inversify';
import type { Logger } from 'pino';
import { DEFAULT_REPLACEMENT } from '../../core/config/defaults.js';
import { cleanPageUrl, normalizeQuestion, type LoggingSettings, type QuestionCount, type QuestionReport } from '../../core/insights/index.js';
import type { QuestionLogEntry, QuestionLogPort } from '../../core/ports/question-log.port.js';
import { loadRedactor, type Redactor } from '../../core/redaction/index.js';
import type { ServerConfig } from '../config.js';
import { randomBase62, sha256Hex } from '../ids.js';
import { TOKENS, type Clock } from '../tokens.js';
import type { AssistantSettingsService } from './assistant-settings-service.js';

/** Questions written per statement. */
const BATCH = 500;
/** Longest answer text kept in `full` mode. */
export const MAX_LOGGED_ANSWER_CHARS = 8_000;
/** Longest question kept (the plans cap questions lower; the beacon is checked against this too). */
export const MAX_LOGGED_QUESTION_CHARS = 4_000;

/** A new question-log row id. */
export const newQuestionId = (): string => `qst_${randomBase62(24)}`;

/**
 * The write side of the question log (issue 13 §2; STYLE.md: "insights are a service over a QuestionLogPort, written on
 * the chat path without blocking it"). `report` only queues; a timer (KIT_QUESTION_LOG_FLUSH_MS after the first
 * question queued since the last write started, or at once when BATCH are queued) takes ONE batch, redacts it with
 * core's redactor (secrets and personal data, always, in both logging modes), drops the page's query string unless the
 * organisation keeps it, and writes counts (always) and questions (when the organisation logs them) in two statements.
 * Questions that arrive while a batch is being written wait for the next timer: under load the log costs two
 * statements per interval (each with its triggers), not two per handful of chats — on the embedded database every
 * statement is a turn of its one worker thread, shared with every chat's admission and settlement.
 * A database outage costs log rows, never answers: the queue is bounded (KIT_QUESTION_LOG_QUEUE_MAX, oldest dropped).
 */
@injectable()
export class QuestionLogService {
  #queue: QuestionReport[] = [];
  #counts: QuestionCount[] = [];
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();
  #redactor: Promise<Redactor> | null = null;
  #dropped = 0;
  #stopped = false;

  constructor(
    @inject(TOKENS.Config) private readonly config: ServerConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.QuestionLogStore) private readonly store: QuestionLogPort,
    @inject(TOKENS.AssistantSettingsService) private readonly settings: AssistantSettingsService,
  ) {}

  /** Queues one question; returns at once and never throws. */
  report(question: QuestionReport): void {
    if (this.#stopped) return;
    this.#queue.push(question);
    if (this.#queue.length > this.config.insights.logQueueMax) {
      this.#queue.shift();
      if (this.#dropped++ % 1000 === 0) this.logger.warn({ dropped: this.#dropped }, 'question log queue full: dropping the oldest questions');
    }
    if (this.#queue.length >= BATCH) this.#schedule(0);
    else this.#schedule(this.config.insights.logFlushMs);
  }

  /** The platform's clock (tests move it). */
  now(): Date {
    return this.clock();
  }

  /** Queues counts reported without text (the SDK's beacon with logging off); page URLs are cleaned here. */
  reportCounts(counts: readonly QuestionCount[]): void {
    if (this.#stopped || counts.length === 0) return;
    this.#counts.push(...counts.slice(0, Math.max(0, this.config.insights.logQueueMax - this.#counts.length)));
    this.#schedule(this.config.insights.logFlushMs);
  }

  /** Questions waiting to be written. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Writes everything queued so far (tests, shutdown). */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#flushing = this.#flushing.then(async () => {
      while (this.#queue.length > 0 || this.#counts.length > 0) {
        const batch = this.#queue.splice(0, BATCH);
        const counts = this.#counts.splice(0, BATCH);
        try {
          await this.#write(batch, counts);
        } catch (err) {
          this.logger.warn({ err: { message: (err as Error).message }, questions: batch.length }, 'could not write the question log; dropping this batch');
        }
      }
    });
    return this.#flushing;
  }

  /** Stops taking questions and writes what is queued. */
  async stop(): Promise<void> {
    await this.flush();
    this.#stopped = true;
  }

  /** Core's redactor with secrets and personal data on: what every stored text goes through. */
  redactor(): Promise<Redactor> {
    this.#redactor ??= loadRedactor({ secrets: true, pii: true, patterns: [], replacement: DEFAULT_REPLACEMENT });
    return this.#redactor;
  }

  /** A page URL as logs keep it: no fragment or credentials, the query only when kept, personal data masked. */
  async cleanUrl(url: string | null, keepQuery: boolean): Promise<string | null> {
    const clean = cleanPageUrl(url, keepQuery);
    return clean === null ? null : (await this.redactor()).redact(clean).text;
  }

  #schedule(ms: number): void {
    if (this.#timer) {
      if (ms > 0) return;
      clearTimeout(this.#timer);
    }
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#flushOne();
    }, ms);
    this.#timer.unref();
  }

  /** The timer's flush: one batch, behind any write under way; what is left waits for the next timer. */
  #flushOne(): void {
    this.#flushing = this.#flushing.then(async () => {
      if (this.#queue.length === 0 && this.#counts.length === 0) return;
      const batch = this.#queue.splice(0, BATCH);
      const counts = this.#counts.splice(0, BATCH);
      try {
        await this.#write(batch, counts);
      } catch (err) {
        this.logger.warn({ err: { message: (err as Error).message }, questions: batch.length }, 'could not write the question log; dropping this batch');
      }
      if (this.#queue.length >= BATCH || this.#counts.length >= BATCH) this.#schedule(0);
      else if (this.#queue.length > 0 || this.#counts.length > 0) this.#schedule(this.config.insights.logFlushMs);
    });
  }

  async #write(batch: readonly QuestionReport[], reportedCounts: readonly QuestionCount[]): Promise<void> {
    const redactor = await this.redactor();
    const redact = (text: string): string => redactor.redact(text).text;
    // Pages and citations repeat across a batch (every chat on a page, the same sources): each distinct URL and title
    // is cleaned once per batch. Questions are not: each is redacted on its own.
    const cleaned = new Map<string, Promise<string | null>>();
    const cleanUrl = (url: string | null, keepQuery: boolean): Promise<string | null> => {
      if (url === null) return Promise.resolve(null);
      const id = `${keepQuery ? 'q' : '-'}${url}`;
      let clean = cleaned.get(id);
      if (clean === undefined) cleaned.set(id, (clean = this.cleanUrl(url, keepQuery)));
      return clean;
    };
    const titles = new Map<string, string>();
    const redactTitle = (title: string): string => {
      let clean = titles.get(title);
      if (clean === undefined) titles.set(title, (clean = redact(title.slice(0, 300))));
      return clean;
    };
    const settingsByOrg = new Map<string, LoggingSettings>();
    for (const orgId of new Set(batch.map((q) => q.orgId))) settingsByOrg.set(orgId, await this.settings.logging(orgId));
    const counts: QuestionCount[] = [];
    for (const c of reportedCounts) counts.push({ ...c, page: (await cleanUrl(c.page, false))?.slice(0, 500) ?? null });
    const entries: QuestionLogEntry[] = [];
    for (const q of batch) {
      const logging = settingsByOrg.get(q.orgId)!;
      counts.push({
        orgId: q.orgId,
        keyId: q.keyId,
        day: q.askedAt.toISOString().slice(0, 10),
        page: (await cleanUrl(q.pageUrl, false))?.slice(0, 500) ?? null,
        mode: q.mode,
        outcome: q.outcome,
        questions: 1,
      });
      if (logging.mode === 'off') continue;
      const question = redact(q.question.slice(0, MAX_LOGGED_QUESTION_CHARS));
      entries.push({
        id: newQuestionId(),
        orgId: q.orgId,
        keyId: q.keyId,
        messageId: q.messageId,
        conversationId: q.conversationId ?? q.messageId,
        createdAt: q.askedAt,
        pageUrl: await cleanUrl(q.pageUrl, logging.keepQueryString),
        mode: q.mode,
        model: q.model?.slice(0, 200) ?? null,
        outcome: q.outcome,
        errorCode: q.errorCode?.slice(0, 64) ?? null,
        question,
        questionHash: sha256Hex(normalizeQuestion(question)).slice(0, 32),
        answer: logging.mode === 'full' && q.answer ? redact(q.answer.slice(0, MAX_LOGGED_ANSWER_CHARS)) : null,
        citations: await Promise.all(q.citations.slice(0, 20).map(async (c) => ({ url: (await cleanUrl(c.url, logging.keepQueryString)) ?? '', title: redactTitle(c.title) }))),
        latencyMs: q.latencyMs === null ? null : Math.max(0, Math.min(2_147_483_647, Math.round(q.latencyMs))),
        source: q.source,
      });
    }
    await this.store.addCounts(counts);
    await this.store.insertQuestions(entries);
  }
}
