import type { AssistantSettingsPatch } from '../assistant/assistant-settings.js';
import type { LoggingSettings } from '../insights/question-log-types.js';

/** One stored layer of settings: the organisation's (`scope` '*') or a key's overrides. */
export interface StoredSettings {
  readonly patch: AssistantSettingsPatch;
  /** 0 when nothing was ever stored. */
  readonly version: number;
  readonly updatedAt: Date | null;
  readonly updatedBy: string | null;
}

/** Why a versioned write did not happen. */
export type VersionConflict = { readonly ok: false; readonly current: number };
export type VersionedWrite<T> = { readonly ok: true; readonly value: T } | VersionConflict;

/** Assistant settings and question-logging settings, versioned for If-Match (compare-and-set in one statement). */
export interface AssistantSettingsStorePort {
  /** The organisation's layer and, when `keyId` is given, that key's overrides. */
  read(orgId: string, keyId: string | null): Promise<{ readonly org: StoredSettings; readonly key: StoredSettings | null }>;
  /** Replaces a layer when its version is `expected` (or any version when null); the new version is `expected + 1`. */
  write(orgId: string, scope: '*' | { keyId: string }, patch: AssistantSettingsPatch, expected: number | null, by: string, at: Date): Promise<VersionedWrite<StoredSettings>>;
  /** Removes a key's overrides; false when there were none. */
  clear(orgId: string, keyId: string): Promise<boolean>;
  readLogging(orgId: string): Promise<LoggingSettings>;
  writeLogging(orgId: string, settings: Omit<LoggingSettings, 'version' | 'updatedAt'>, expected: number | null, by: string, at: Date): Promise<VersionedWrite<LoggingSettings>>;
}
