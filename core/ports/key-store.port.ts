import type { Result } from '../errors/index.js';
import type { KeyKind } from '../keys/key-format.js';
import type { Page, PageRequest, Tier } from './account-store.port.js';

/** `active`; `expiring` (rotated, works until `expiresAt`); `revoked` (deleted, or past `expiresAt`). */
export type KeyStatus = 'active' | 'expiring' | 'revoked';

/** An API key as stored: the full value only for publishable keys, always the SHA-256 of the full key. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly orgId: string;
  readonly kind: KeyKind;
  readonly name: string;
  readonly prefix: string;
  readonly last4: string;
  readonly value: string | null;
  readonly hash: string;
  readonly allowedOrigins: readonly string[];
  readonly ipAllowlist: readonly string[];
  readonly createdAt: Date;
  readonly createdBy: string | null;
  readonly lastUsedAt: Date | null;
  readonly expiresAt: Date | null;
  readonly revokedAt: Date | null;
}

/** A key found by hash for verification, with what part 2 needs about its organisation. */
export interface KeyLookup {
  readonly key: ApiKeyRecord;
  readonly orgTier: Tier;
}

export interface KeyPatch {
  readonly name?: string | undefined;
  readonly allowedOrigins?: readonly string[] | undefined;
  readonly ipAllowlist?: readonly string[] | undefined;
}

/** Status of a stored key at `now`. */
export function keyStatus(key: Pick<ApiKeyRecord, 'expiresAt' | 'revokedAt'>, now: Date): KeyStatus {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt) return key.expiresAt.getTime() > now.getTime() ? 'expiring' : 'revoked';
  return 'active';
}

/**
 * Persistence of API keys. "Deleted" keys keep their row (usage refers to them) with `revokedAt` set;
 * every method scoped by `orgId` treats them as absent.
 */
export interface KeyStorePort {
  /**
   * Inserts the key unless its organisation already holds `maxActive(tier)` active keys (not revoked, not expiring);
   * the count and the insert are atomic per organisation, so parallel creations never pass the cap together.
   */
  insert(key: ApiKeyRecord, maxActive?: (tier: Tier) => number): Promise<Result<void, 'key_limit'> & { readonly tier?: Tier; readonly limit?: number; readonly active?: number }>;
  /** Newest first; revoked keys only when `includeRevoked`; `bad_cursor` when `startingAfter` is not in the list. */
  list(orgId: string, page: PageRequest & { readonly includeRevoked: boolean; readonly now: Date }): Promise<Result<Page<ApiKeyRecord>, 'bad_cursor'>>;
  find(orgId: string, id: string): Promise<ApiKeyRecord | null>;
  update(orgId: string, id: string, patch: KeyPatch): Promise<ApiKeyRecord | null>;
  /** Atomically gives `id` (which must be active) an expiry and inserts its successor. */
  rotate(orgId: string, id: string, successor: ApiKeyRecord, previousExpiresAt: Date): Promise<Result<ApiKeyRecord, 'not_found' | 'not_active'>>;
  /** Marks the key deleted and returns it; null when there is no such (undeleted) key. */
  revoke(orgId: string, id: string, now: Date): Promise<ApiKeyRecord | null>;
  /** Any key (even revoked) by the SHA-256 of its full value. */
  findByHash(hash: string): Promise<KeyLookup | null>;
  /** Records last use for many keys in one write; never moves `lastUsedAt` backwards. */
  touchLastUsed(uses: ReadonlyArray<{ readonly id: string; readonly at: Date }>): Promise<void>;
}
