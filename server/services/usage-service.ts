import { inject, injectable } from 'inversify';
import type { Logger } from 'pino';
import type { UsageEvent, UsageGroupBy, UsageStorePort, UsageSummary } from '../../core/ports/usage-store.port.js';
import type { MemberAuth } from '../auth/auth-context.js';
import { TOKENS, type Clock } from '../tokens.js';
import { ok, refuse, type ServiceResult } from './service-result.js';

/** Default report window when `from` is absent: the 30 whole UTC days before `to`'s day, and that day up to `to`. */
export const DEFAULT_USAGE_DAYS = 30;
/** Longest report window: 366 days. */
export const MAX_USAGE_DAYS = 366;

const DAY_MS = 86_400_000;
/** How often settled usage rows are rolled into the daily rollup reports read (each replica; they skip each other's rows). */
export const ROLLUP_EVERY_MS = 2_000;

/**
 * Usage reports for the dashboard, read from daily rollups kept off the request path (every ROLLUP_EVERY_MS) plus
 * the rows not rolled yet, so a report is exact at any moment and costs the same at a million rows as at a thousand.
 */
@injectable()
export class UsageService {
  #timer: NodeJS.Timeout | null = null;
  #rolling: Promise<unknown> = Promise.resolve();

  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.UsageStore) private readonly usage: UsageStorePort,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    /**
     * Resolves once this process's answered chats of an organisation have their usage rows settled (ChatService
     * `settledFor`): /chat answers before its settlement is written, and a report read on the replica that answered
     * must still see the chat settled. Chats answered by another replica may read `reserved` for a few ms.
     */
    private readonly settledFor: (orgId: string) => Promise<void> = async () => undefined,
  ) {}

  /** Starts rolling usage rows up every `everyMs` (the timer never keeps the process alive). */
  startRollups(everyMs = ROLLUP_EVERY_MS): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.rollUp(), everyMs);
    this.#timer.unref();
  }

  /** Rolls every settled row up now; resolves with how many were rolled. */
  rollUp(): Promise<number> {
    const run = this.#rolling.then(() =>
      this.usage.rollUp().catch((err: unknown) => {
        this.logger.warn({ err: { message: (err as Error).message } }, 'usage rollup failed');
        return 0;
      }),
    );
    this.#rolling = run;
    return run;
  }

  /** Stops the timer and waits for a rollup in progress. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#rolling;
  }

  /** Totals and breakdown over [from, to); refusals count as requests and in `refusals`. */
  async report(auth: MemberAuth, range: { from?: Date | undefined; to?: Date | undefined; groupBy: UsageGroupBy }): Promise<ServiceResult<UsageSummary & { from: Date; to: Date }>> {
    const now = this.clock();
    const to = range.to ?? now;
    // Whole days are read from the rollups and a partial day row by row: the default starts at a midnight.
    const from = range.from ?? new Date(Math.floor(to.getTime() / DAY_MS) * DAY_MS - DEFAULT_USAGE_DAYS * DAY_MS);
    if (from.getTime() >= to.getTime()) return refuse('invalid_request', 'from: must be before to');
    if (to.getTime() - from.getTime() > MAX_USAGE_DAYS * DAY_MS) return refuse('invalid_request', `from: the range may span at most ${MAX_USAGE_DAYS} days`);
    // No row is newer than now, so a range reaching the present may read its last day whole, from the rollups: read
    // row by row, today alone is a day's rows by evening (~35,000 at a million a month: 50–80 ms a report, issue 12.3).
    const readTo = to.getTime() >= now.getTime() ? new Date(Math.ceil(to.getTime() / DAY_MS) * DAY_MS) : to;
    await this.settledFor(auth.orgId);
    const summary = await this.usage.summarize(auth.orgId, { from, to: readTo, groupBy: range.groupBy });
    return ok({ ...summary, from, to });
  }

  /** Records one metered request; idempotent per `requestId`. */
  record(event: UsageEvent): Promise<'recorded' | 'duplicate'> {
    return this.usage.record(event);
  }
}
