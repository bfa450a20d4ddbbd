import { inject, injectable } from 'inversify';
import type { UsageEvent, UsageGroupBy, UsageStorePort, UsageSummary } from '../../core/ports/usage-store.port.js';
import type { MemberAuth } from '../auth/auth-context.js';
import { TOKENS, type Clock } from '../tokens.js';
import { ok, refuse, type ServiceResult } from './service-result.js';

/** Default report window when `from` is absent: 30 days before `to`. */
export const DEFAULT_USAGE_DAYS = 30;
/** Longest report window: 366 days. */
export const MAX_USAGE_DAYS = 366;

const DAY_MS = 86_400_000;

/** Usage reports for the dashboard, and the recording entry point `/chat` (part 2) calls once per request. */
@injectable()
export class UsageService {
  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.UsageStore) private readonly usage: UsageStorePort,
  ) {}

  /** Totals and breakdown over [from, to); refusals count as requests and in `refusals`. */
  async report(auth: MemberAuth, range: { from?: Date | undefined; to?: Date | undefined; groupBy: UsageGroupBy }): Promise<ServiceResult<UsageSummary & { from: Date; to: Date }>> {
    const to = range.to ?? this.clock();
    const from = range.from ?? new Date(to.getTime() - DEFAULT_USAGE_DAYS * DAY_MS);
    if (from.getTime() >= to.getTime()) return refuse('invalid_request', 'from: must be before to');
    if (to.getTime() - from.getTime() > MAX_USAGE_DAYS * DAY_MS) return refuse('invalid_request', `from: the range may span at most ${MAX_USAGE_DAYS} days`);
    const summary = await this.usage.summarize(auth.orgId, { from, to, groupBy: range.groupBy });
    return ok({ ...summary, from, to });
  }

  /** Records one metered request; idempotent per `requestId`. */
  record(event: UsageEvent): Promise<'recorded' | 'duplicate'> {
    return this.usage.record(event);
  }
}
