import { inject, injectable } from 'inversify';
import { applyAssistantPatch, DEFAULT_ASSISTANT_SETTINGS, mergeAssistantPatches, type AssistantSettings, type AssistantSettingsPatch } from '../../core/assistant/index.js';
import type { LoggingSettings } from '../../core/insights/index.js';
import type { AssistantSettingsStorePort, StoredSettings, VersionedWrite } from '../../core/ports/assistant-settings.port.js';
import type { KeyStorePort } from '../../core/ports/key-store.port.js';
import type { MemberAuth } from '../auth/auth-context.js';
import type { ServerConfig } from '../config.js';
import { TOKENS, type Clock } from '../tokens.js';
import { ok, refuse, type ServiceResult } from './service-result.js';

/** A settings document as the API shows it: the effective values and the version its ETag names. */
export interface VersionedSettings<T> {
  readonly value: T;
  readonly version: number;
  readonly updatedAt: Date | null;
  readonly updatedBy: string | null;
}

/** A key's layer: its overrides and what the key's visitors get. */
export interface KeyAssistantSettings {
  readonly keyId: string;
  readonly overrides: AssistantSettingsPatch;
  readonly effective: AssistantSettings;
  readonly version: number;
  readonly updatedAt: Date | null;
  readonly updatedBy: string | null;
}

/** What GET /config hands the SDK for a key (PLAN.md "Shared shapes"). */
export interface ResolvedAssistant {
  readonly settings: AssistantSettings;
  readonly logging: { readonly mode: LoggingSettings['mode']; readonly notice: string | null };
}

/** If-Match as the routes parse it: a version, `*` (any), or absent. */
export type Precondition = { readonly kind: 'version'; readonly versions: readonly number[] } | { readonly kind: 'any' } | { readonly kind: 'none' };

const NO_SUCH_KEY = 'No such key in this organization.';

/**
 * Assistant settings (issue 13 §1): the organisation's defaults and each key's overrides (a key inherits every field
 * it does not override), versioned so a write names the version it was based on (ETag/If-Match) and two editors
 * cannot silently overwrite each other. Also the organisation's question-logging choice. `/config` reads both through
 * a short in-process cache (KIT_SETTINGS_CACHE_TTL_MS), so a change reaches visitors within that bound on every replica.
 */
@injectable()
export class AssistantSettingsService {
  readonly #cache = new Map<string, { readonly at: number; readonly value: Promise<ResolvedAssistant> }>();
  readonly #loggingCache = new Map<string, { readonly at: number; readonly value: Promise<LoggingSettings> }>();

  constructor(
    @inject(TOKENS.Config) private readonly config: ServerConfig,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AssistantSettingsStore) private readonly store: AssistantSettingsStorePort,
    @inject(TOKENS.KeyStore) private readonly keys: KeyStorePort,
  ) {}

  async getOrg(auth: MemberAuth): Promise<ServiceResult<VersionedSettings<AssistantSettings>>> {
    const { org } = await this.store.read(auth.orgId, null);
    return ok(this.#versioned(applyAssistantPatch(DEFAULT_ASSISTANT_SETTINGS, org.patch), org));
  }

  async updateOrg(auth: MemberAuth, patch: AssistantSettingsPatch, precondition: Precondition): Promise<ServiceResult<VersionedSettings<AssistantSettings>>> {
    const { org } = await this.store.read(auth.orgId, null);
    const expected = this.#expected(precondition, org.version);
    if (!expected.ok) return expected;
    const written = await this.store.write(auth.orgId, '*', mergeAssistantPatches(org.patch, patch), expected.value, auth.userId, this.clock());
    const stored = this.#written(written);
    if (!stored.ok) return stored;
    this.#cache.clear();
    return ok(this.#versioned(applyAssistantPatch(DEFAULT_ASSISTANT_SETTINGS, stored.value.patch), stored.value));
  }

  async getKey(auth: MemberAuth, keyId: string): Promise<ServiceResult<KeyAssistantSettings>> {
    if (!(await this.#liveKey(auth.orgId, keyId))) return refuse('not_found', NO_SUCH_KEY);
    const { org, key } = await this.store.read(auth.orgId, keyId);
    return ok(this.#keyView(keyId, org, key!));
  }

  async updateKey(auth: MemberAuth, keyId: string, patch: AssistantSettingsPatch, precondition: Precondition): Promise<ServiceResult<KeyAssistantSettings>> {
    if (!(await this.#liveKey(auth.orgId, keyId))) return refuse('not_found', NO_SUCH_KEY);
    const { key } = await this.store.read(auth.orgId, keyId);
    const expected = this.#expected(precondition, key!.version);
    if (!expected.ok) return expected;
    // null in a key's patch removes that override: the key inherits the organisation's value again.
    const merged: Record<string, unknown> = { ...mergeAssistantPatches(key!.patch, patch) };
    const theme: Record<string, unknown> = { ...(merged.theme as object | undefined) };
    for (const [k, v] of Object.entries(patch)) if (v === null) delete merged[k];
    for (const [k, v] of Object.entries(patch.theme ?? {})) if (v === null) delete theme[k];
    if (Object.keys(theme).length > 0) merged.theme = theme;
    else delete merged.theme;
    const written = this.#written(await this.store.write(auth.orgId, { keyId }, merged as AssistantSettingsPatch, expected.value, auth.userId, this.clock()));
    if (!written.ok) return written;
    this.#cache.delete(keyId);
    const { org } = await this.store.read(auth.orgId, null);
    return ok(this.#keyView(keyId, org, written.value));
  }

  async clearKey(auth: MemberAuth, keyId: string): Promise<ServiceResult<void>> {
    if (!(await this.#liveKey(auth.orgId, keyId))) return refuse('not_found', NO_SUCH_KEY);
    await this.store.clear(auth.orgId, keyId);
    this.#cache.delete(keyId);
    return ok(undefined);
  }

  async getLogging(auth: MemberAuth): Promise<ServiceResult<LoggingSettings>> {
    return ok(await this.store.readLogging(auth.orgId));
  }

  async updateLogging(auth: MemberAuth, change: Partial<Omit<LoggingSettings, 'version' | 'updatedAt'>>, precondition: Precondition): Promise<ServiceResult<LoggingSettings>> {
    const current = await this.store.readLogging(auth.orgId);
    const expected = this.#expected(precondition, current.version);
    if (!expected.ok) return expected;
    const next = {
      mode: change.mode ?? current.mode,
      retentionDays: change.retentionDays ?? current.retentionDays,
      keepQueryString: change.keepQueryString ?? current.keepQueryString,
      notice: change.notice === undefined ? current.notice : change.notice,
    };
    const written = await this.store.writeLogging(auth.orgId, next, expected.value, auth.userId, this.clock());
    if (!written.ok) return refuse('precondition_failed', `The question-logging settings changed since you read them (now version ${written.current}); read them again.`);
    this.#cache.clear();
    this.#loggingCache.delete(auth.orgId);
    return ok(written.value);
  }

  /** The organisation's logging settings, cached like /config's (the chat path and the beacon read them). */
  logging(orgId: string): Promise<LoggingSettings> {
    return this.#cached(this.#loggingCache, orgId, () => this.store.readLogging(orgId));
  }

  /** The effective assistant for a key, as GET /config delivers it. */
  resolveForKey(orgId: string, keyId: string): Promise<ResolvedAssistant> {
    return this.#cached(this.#cache, keyId, async () => {
      const [{ org, key }, logging] = await Promise.all([this.store.read(orgId, keyId), this.logging(orgId)]);
      const settings = applyAssistantPatch(applyAssistantPatch(DEFAULT_ASSISTANT_SETTINGS, org.patch), key?.patch ?? {});
      return { settings, logging: { mode: logging.mode, notice: logging.mode === 'off' ? null : logging.notice } };
    });
  }

  #cached<T>(cache: Map<string, { readonly at: number; readonly value: Promise<T> }>, id: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = cache.get(id);
    if (hit && now - hit.at < this.config.insights.settingsCacheTtlMs) return hit.value;
    const value = load();
    if (this.config.insights.settingsCacheTtlMs > 0) {
      if (cache.size > 10_000) cache.clear(); // bounded: a flood of keys cannot grow it without end
      cache.set(id, { at: now, value });
      value.catch(() => cache.delete(id));
    }
    return value;
  }

  async #liveKey(orgId: string, keyId: string): Promise<boolean> {
    const key = await this.keys.find(orgId, keyId);
    return key !== null && key.revokedAt === null;
  }

  #expected(precondition: Precondition, current: number): ServiceResult<number | null> {
    if (precondition.kind === 'none') return refuse('precondition_required', 'Send If-Match with the ETag (or version) you read; If-Match: * overwrites whatever is there.');
    if (precondition.kind === 'any') return ok(null);
    if (!precondition.versions.includes(current)) return refuse('precondition_failed', `The settings changed since you read them (now version ${current}); read them again.`);
    return ok(current);
  }

  #written(result: VersionedWrite<StoredSettings>): ServiceResult<StoredSettings> {
    if (result.ok) return ok(result.value);
    return refuse('precondition_failed', `The settings changed since you read them (now version ${result.current}); read them again.`);
  }

  #versioned<T>(value: T, stored: StoredSettings): VersionedSettings<T> {
    return { value, version: stored.version, updatedAt: stored.updatedAt, updatedBy: stored.updatedBy };
  }

  #keyView(keyId: string, org: StoredSettings, key: StoredSettings): KeyAssistantSettings {
    return {
      keyId,
      overrides: key.patch,
      effective: applyAssistantPatch(applyAssistantPatch(DEFAULT_ASSISTANT_SETTINGS, org.patch), key.patch),
      version: key.version,
      updatedAt: key.updatedAt,
      updatedBy: key.updatedBy,
    };
  }
}
