/** The outcome of counting one hit in a fixed window. */
export interface RateLimitState {
  readonly allowed: boolean;
  /** Hits counted in the current window, this one included. */
  readonly count: number;
  readonly limit: number;
  readonly remaining: number;
  readonly resetAt: Date;
}

/**
 * Fixed-window counters shared by every replica (they live in the database).
 * A bucket is any string, e.g. `login:ip:203.0.113.9` or `chat:key:key_…`.
 */
export interface RateLimiterPort {
  /** Counts one hit and says whether it is within `limit` for the window of `windowSeconds` containing `now`. */
  hit(bucket: string, limit: number, windowSeconds: number, now: Date): Promise<RateLimitState>;
  /** The current window's state without counting a hit. */
  peek(bucket: string, limit: number, windowSeconds: number, now: Date): Promise<RateLimitState>;
  /**
   * Takes back one hit counted by `hit` with the same `windowSeconds` and `now` (never below zero): for limits that
   * reserve a place before a slow check and keep it only for some outcomes (failed logins).
   */
  undo(bucket: string, windowSeconds: number, now: Date): Promise<void>;
}
