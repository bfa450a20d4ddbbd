import { inject, injectable } from 'inversify';
import { keyDisplay, type KeyKind } from '../../core/keys/key-format.js';
import type { Page } from '../../core/ports/account-store.port.js';
import type { ApiKeyRecord, KeyStorePort } from '../../core/ports/key-store.port.js';
import type { MemberAuth } from '../auth/auth-context.js';
import { newId, newKeyValue, sha256Hex } from '../ids.js';
import { MAX_IP_ENTRIES, normalizeIpEntry } from '../keys/ip-allowlist.js';
import { MAX_ALLOWED_ORIGINS, normalizeOriginPattern } from '../keys/origin-policy.js';
import type { ServerConfig } from '../config.js';
import { TOKENS, type Clock } from '../tokens.js';
import { KeyVerifier } from './key-verifier.js';
import { ok, refuse, type ServiceResult } from './service-result.js';

/** A key and its full value, which the API shows exactly once. */
export interface IssuedKey {
  readonly key: ApiKeyRecord;
  readonly secret: string;
}

export interface KeyInput {
  readonly name?: string | undefined;
  readonly allowedOrigins?: readonly string[] | undefined;
  readonly ipAllowlist?: readonly string[] | undefined;
}

/** Longest grace period of a rotation: 7 days (CONTRACT §3). */
export const MAX_ROTATION_GRACE_SECONDS = 604_800;

const NO_SUCH_KEY = 'No such key.';

function normalizeAll<C extends string>(field: string, values: readonly string[], max: number, one: (v: string) => { ok: true; value: string } | { ok: false; code: C; reason: string }): ServiceResult<string[]> {
  if (values.length > max) return refuse('invalid_request', `${field}: at most ${max} entries`);
  const out = new Set<string>();
  for (const value of values) {
    const normalized = one(value);
    if (!normalized.ok) return refuse('invalid_request', `${field}: ${normalized.reason}`);
    out.add(normalized.value);
  }
  return ok([...out]);
}

/**
 * Key management for the dashboard (CONTRACT §1, §3): create, list, edit, rotate with a grace period,
 * delete. Values are shown once; only their SHA-256 is kept (plus the value of publishable keys, which are public).
 */
@injectable()
export class KeyService {
  constructor(
    @inject(TOKENS.Config) private readonly config: ServerConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.KeyStore) private readonly keys: KeyStorePort,
    @inject(TOKENS.KeyVerifier) private readonly verifier: KeyVerifier,
  ) {}

  async list(auth: MemberAuth, page: { limit: number; startingAfter?: string | undefined; includeRevoked: boolean }): Promise<ServiceResult<Page<ApiKeyRecord>>> {
    const result = await this.keys.list(auth.orgId, { ...page, now: this.clock() });
    return result.ok ? result : refuse('invalid_request', 'starting_after: not a key of this organization');
  }

  /** Creates a key, unless the organisation already holds its plan's `max_keys` active keys (`conflict`). */
  async create(auth: MemberAuth, kind: KeyKind, input: KeyInput & { readonly name: string }): Promise<ServiceResult<IssuedKey>> {
    const lists = this.#lists(kind, input);
    if (!lists.ok) return lists;
    const value = newKeyValue(kind);
    const key = this.#record(auth, kind, value, input.name, lists.value.allowedOrigins ?? [], lists.value.ipAllowlist ?? []);
    const inserted = await this.keys.insert(key, (tier) => this.config.plans[tier].maxKeys);
    if (!inserted.ok) {
      return refuse('conflict', `The ${inserted.tier} plan allows ${inserted.limit} active keys per organization; delete a key you no longer use, or upgrade the plan.`, {
        max_keys: inserted.limit ?? 0,
        active_keys: inserted.active ?? inserted.limit ?? 0,
      }, { public: true });
    }
    return ok({ key, secret: value });
  }

  async update(auth: MemberAuth, id: string, input: KeyInput): Promise<ServiceResult<ApiKeyRecord>> {
    const current = await this.keys.find(auth.orgId, id);
    if (!current) return refuse('not_found', NO_SUCH_KEY);
    const lists = this.#lists(current.kind, input);
    if (!lists.ok) return lists;
    const updated = await this.keys.update(auth.orgId, id, { name: input.name, ...lists.value });
    if (!updated) return refuse('not_found', NO_SUCH_KEY);
    this.verifier.evict(updated.hash);
    return ok(updated);
  }

  async rotate(auth: MemberAuth, id: string, graceSeconds: number): Promise<ServiceResult<IssuedKey & { readonly previous: ApiKeyRecord }>> {
    const current = await this.keys.find(auth.orgId, id);
    if (!current) return refuse('not_found', NO_SUCH_KEY);
    const now = this.clock();
    const value = newKeyValue(current.kind);
    const successor = this.#record(auth, current.kind, value, current.name, current.allowedOrigins, current.ipAllowlist);
    const rotated = await this.keys.rotate(auth.orgId, id, successor, new Date(now.getTime() + graceSeconds * 1000));
    if (!rotated.ok) {
      return rotated.code === 'not_found' ? refuse('not_found', NO_SUCH_KEY) : refuse('conflict', 'This key was already rotated; rotate its successor or delete it.');
    }
    this.verifier.evict(current.hash);
    return ok({ key: successor, secret: value, previous: rotated.value });
  }

  async remove(auth: MemberAuth, id: string): Promise<ServiceResult<void>> {
    const revoked = await this.keys.revoke(auth.orgId, id, this.clock());
    if (!revoked) return refuse('not_found', NO_SUCH_KEY);
    this.verifier.evict(revoked.hash);
    return ok(undefined);
  }

  #lists(kind: KeyKind, input: KeyInput): ServiceResult<{ allowedOrigins?: string[]; ipAllowlist?: string[] }> {
    const out: { allowedOrigins?: string[]; ipAllowlist?: string[] } = {};
    if (input.allowedOrigins !== undefined) {
      if (kind !== 'publishable' && input.allowedOrigins.length > 0) return refuse('invalid_request', 'allowed_origins: only publishable keys have allowed origins');
      const origins = normalizeAll('allowed_origins', input.allowedOrigins, MAX_ALLOWED_ORIGINS, normalizeOriginPattern);
      if (!origins.ok) return origins;
      out.allowedOrigins = origins.value;
    }
    if (input.ipAllowlist !== undefined) {
      if (kind !== 'secret' && input.ipAllowlist.length > 0) return refuse('invalid_request', 'ip_allowlist: only secret keys have an IP allowlist');
      const ips = normalizeAll('ip_allowlist', input.ipAllowlist, MAX_IP_ENTRIES, normalizeIpEntry);
      if (!ips.ok) return ips;
      out.ipAllowlist = ips.value;
    }
    return ok(out);
  }

  #record(auth: MemberAuth, kind: KeyKind, value: string, name: string, allowedOrigins: readonly string[], ipAllowlist: readonly string[]): ApiKeyRecord {
    const { prefix, last4 } = keyDisplay(value);
    return {
      id: newId('key'),
      orgId: auth.orgId,
      kind,
      name,
      prefix,
      last4,
      value: kind === 'publishable' ? value : null,
      hash: sha256Hex(value),
      allowedOrigins,
      ipAllowlist,
      createdAt: this.clock(),
      createdBy: auth.userId,
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
    };
  }
}
