/**
 * Remembers one-time tokens (bot-challenge solutions) so each is accepted once, across every replica that shares
 * the store. Adapters: in-memory (one process, development and tests) and a database table (production).
 */
export interface ReplayStorePort {
  /**
   * Atomically records `id`; true the first time, false when it was already claimed and has not expired.
   * `expiresAt` is when the token stops being valid anyway, after which the record may be forgotten.
   */
  claimOnce(id: string, expiresAt: Date): Promise<boolean>;
}
