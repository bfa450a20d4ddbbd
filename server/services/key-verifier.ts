import { inject, injectable } from 'inversify';
import { fail, ok, type Result } from '../../core/errors/index.js';
import { parseKey, type KeyKind } from '../../core/keys/key-format.js';
import type { Tier } from '../../core/ports/account-store.port.js';
import { keyStatus, type KeyLookup, type KeyStorePort } from '../../core/ports/key-store.port.js';
import type { ServerConfig } from '../config.js';
import { sha256Hex } from '../ids.js';
import { TOKENS, type Clock } from '../tokens.js';
import { LastUsedTracker } from './last-used-tracker.js';

/** A key that verified: what the routes of part 2 need to authorise and meter a request. */
export interface VerifiedKey {
  readonly id: string;
  readonly kind: KeyKind;
  readonly orgId: string;
  readonly orgTier: Tier;
  readonly allowedOrigins: readonly string[];
  readonly ipAllowlist: readonly string[];
}

/** Largest number of cached lookups (positive and negative); the oldest is dropped first. */
export const KEY_CACHE_MAX_ENTRIES = 10_000;

interface CacheEntry {
  readonly lookup: KeyLookup | null;
  readonly fetchedAt: number;
}

/**
 * Verifies API keys: prefix and CRC32 checksum first (a malformed key costs no database query), then the
 * SHA-256 of the key is looked up behind an in-process cache. A cached lookup is used for at most
 * `keyCacheTtlMs` (default 5 s), so a key deleted on another replica stops working within that bound;
 * deleting, rotating or editing a key on this replica evicts it at once. Expiry is checked against the
 * clock on every call, cached or not.
 */
@injectable()
export class KeyVerifier {
  readonly #cache = new Map<string, CacheEntry>();

  constructor(
    @inject(TOKENS.Config) private readonly config: ServerConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.KeyStore) private readonly keys: KeyStorePort,
    @inject(TOKENS.LastUsedTracker) private readonly lastUsed: LastUsedTracker,
  ) {}

  async verify(value: string): Promise<Result<VerifiedKey, 'invalid_api_key'>> {
    if (!parseKey(value).ok) return fail('invalid_api_key', 'malformed key');
    const hash = sha256Hex(value);
    const now = this.clock();
    const lookup = await this.#lookup(hash, now.getTime());
    if (!lookup || keyStatus(lookup.key, now) === 'revoked') return fail('invalid_api_key', 'unknown, revoked or expired key');
    const { key } = lookup;
    return ok({ id: key.id, kind: key.kind, orgId: key.orgId, orgTier: lookup.orgTier, allowedOrigins: key.allowedOrigins, ipAllowlist: key.ipAllowlist });
  }

  /**
   * Records a use of the key (`last_used_at`): called once a request with it is admitted — its origin or address
   * allowed — so neither a refused request nor the console's own preview (a grant on Kit's pages) counts as a use.
   */
  used(keyId: string): void {
    this.lastUsed.touch(keyId, this.clock());
  }

  /** Drops a key from this replica's cache (after delete, rotate or edit). */
  evict(hash: string): void {
    this.#cache.delete(hash);
  }

  async #lookup(hash: string, now: number): Promise<KeyLookup | null> {
    const cached = this.#cache.get(hash);
    if (cached && now - cached.fetchedAt < this.config.keyCacheTtlMs) return cached.lookup;
    const lookup = await this.keys.findByHash(hash);
    if (this.config.keyCacheTtlMs > 0) {
      this.#cache.delete(hash);
      if (this.#cache.size >= KEY_CACHE_MAX_ENTRIES) this.#cache.delete(this.#cache.keys().next().value!);
      this.#cache.set(hash, { lookup, fetchedAt: now });
    }
    return lookup;
  }
}
