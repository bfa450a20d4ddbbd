import type { ReplayStorePort } from '../../core/ports/replay-store.port.js';

/** Options of the in-memory replay store. */
export interface MemoryReplayStoreOptions {
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
  /** Claims kept before expired ones are swept on insert. Default 100 000. */
  readonly sweepAbove?: number;
}

/**
 * A replay store for ONE process (development, tests, a single replica). Replicas sharing a database need the
 * table-backed store; with this one a solution could be accepted once per replica.
 */
export function createMemoryReplayStore(options: MemoryReplayStoreOptions = {}): ReplayStorePort & { readonly size: number } {
  const now = options.now ?? Date.now;
  const sweepAbove = options.sweepAbove ?? 100_000;
  const claims = new Map<string, number>();
  const sweep = (t: number): void => {
    for (const [id, expires] of claims) if (expires <= t) claims.delete(id);
  };
  return {
    get size() {
      return claims.size;
    },
    async claimOnce(id: string, expiresAt: Date): Promise<boolean> {
      const t = now();
      const existing = claims.get(id);
      if (existing !== undefined && existing > t) return false;
      if (claims.size >= sweepAbove) sweep(t);
      claims.set(id, expiresAt.getTime());
      return true;
    },
  };
}
