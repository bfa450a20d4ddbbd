/** How an answer was produced. */
export type UsageMode = 'remote' | 'local';
export type UsageGroupBy = 'day' | 'key' | 'model' | 'mode';

/** One metered request (a `/chat` answer or refusal); `requestId` makes recording idempotent. */
export interface UsageEvent {
  readonly orgId: string;
  readonly keyId: string | null;
  readonly mode: UsageMode;
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly refused: boolean;
  readonly requestId: string;
  readonly createdAt: Date;
}

export interface UsageTotals {
  readonly requests: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly refusals: number;
}

export interface UsageSummary {
  readonly total: UsageTotals;
  /** Sorted by group; `group` is a UTC day (YYYY-MM-DD), key id, model or mode. */
  readonly breakdown: ReadonlyArray<UsageTotals & { readonly group: string | null }>;
}

/** Persistence of usage events, and the daily rollups reports are read from. */
export interface UsageStorePort {
  /** Records one event; a second event with the same `requestId` is ignored (`duplicate`). */
  record(event: UsageEvent): Promise<'recorded' | 'duplicate'>;
  /** Totals over `[from, to)`. */
  summarize(orgId: string, range: { readonly from: Date; readonly to: Date; readonly groupBy: UsageGroupBy }): Promise<UsageSummary>;
  /** Moves settled events into the daily rollup that reports read (off the request path); returns how many. */
  rollUp(): Promise<number>;
  /** Input plus output tokens over `[from, to)` (for monthly quotas). */
  tokensUsed(orgId: string, from: Date, to: Date): Promise<number>;
}
