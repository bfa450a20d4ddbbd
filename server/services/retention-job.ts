import { inject, injectable } from 'inversify';
import type { Logger } from 'pino';
import { DEFAULT_RETENTION_DAYS } from '../../core/insights/index.js';
import type { JobSchedulePort } from '../../core/ports/job-schedule.port.js';
import type { QuestionLogPort } from '../../core/ports/question-log.port.js';
import type { ServerConfig } from '../config.js';
import { TOKENS, type Clock } from '../tokens.js';

/** The job's name in `scheduled_jobs`. */
export const PURGE_JOB = 'question-log-purge';
/** Daily counts (no text) are kept this long, whatever the question retention. */
export const COUNT_RETENTION_DAYS = 400;
/** How often a replica looks whether the purge is due (ms). */
const CHECK_EVERY_MS = 60_000;
/** Rows per DELETE. */
const PURGE_BATCH = 5_000;

/**
 * The retention purge (issue 13 §2): deletes logged questions and votes older than each organisation's retention
 * (default 30 days) and daily counts older than 400 days. Due every KIT_PURGE_INTERVAL_MINUTES; the schedule lives in
 * the database (`scheduled_jobs`), so with several replicas one of them runs each due purge, and a restart runs a purge
 * that fell due while the server was down at once.
 */
@injectable()
export class RetentionJob {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<unknown> = Promise.resolve();

  constructor(
    @inject(TOKENS.Config) private readonly config: ServerConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.JobSchedule) private readonly schedule: JobSchedulePort,
    @inject(TOKENS.QuestionLogStore) private readonly store: QuestionLogPort,
  ) {}

  /** Checks now and then every minute (an unref'd timer: it never keeps the process alive). */
  start(): void {
    if (this.#timer) return;
    const tick = (): void => {
      this.#running = this.#running.then(() => this.runDue()).catch((err: unknown) => this.logger.warn({ err: { message: (err as Error).message } }, 'retention purge failed'));
    };
    this.#timer = setInterval(tick, CHECK_EVERY_MS);
    this.#timer.unref();
    tick();
  }

  /** Runs the purge if it is due and this replica claims it. */
  async runDue(): Promise<{ readonly ran: boolean; readonly questions: number; readonly counts: number }> {
    const now = this.clock();
    if (!(await this.schedule.claim(PURGE_JOB, now, this.config.insights.purgeIntervalMinutes * 60_000))) return { ran: false, questions: 0, counts: 0 };
    try {
      const purged = await this.store.purge(now, { defaultDays: DEFAULT_RETENTION_DAYS, countDays: COUNT_RETENTION_DAYS, batch: PURGE_BATCH });
      await this.schedule.finish(PURGE_JOB, this.clock(), `deleted ${purged.questions} questions and ${purged.counts} counts`);
      if (purged.questions + purged.counts > 0) this.logger.info({ questions: purged.questions, counts: purged.counts }, 'retention purge');
      return { ran: true, ...purged };
    } catch (err) {
      await this.schedule.finish(PURGE_JOB, this.clock(), `failed: ${(err as Error).message}`).catch(() => undefined);
      throw err;
    }
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
  }
}
