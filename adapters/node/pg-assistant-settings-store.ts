import type { Knex } from 'knex';
import type { AssistantSettingsPatch } from '../../core/assistant/index.js';
import { DEFAULT_LOGGING_SETTINGS, type LoggingSettings } from '../../core/insights/index.js';
import type { AssistantSettingsStorePort, StoredSettings } from '../../core/ports/assistant-settings.port.js';

interface SettingsRow {
  settings: AssistantSettingsPatch | string;
  version: number;
  updated_at: Date;
  updated_by: string | null;
}

interface LoggingRow {
  mode: LoggingSettings['mode'];
  retention_days: number;
  keep_query_string: boolean;
  notice: string | null;
  version: number;
  updated_at: Date;
}

const EMPTY: StoredSettings = Object.freeze({ patch: Object.freeze({}), version: 0, updatedAt: null, updatedBy: null });

const stored = (row: SettingsRow | undefined): StoredSettings | null =>
  row ? { patch: typeof row.settings === 'string' ? (JSON.parse(row.settings) as AssistantSettingsPatch) : row.settings, version: row.version, updatedAt: row.updated_at, updatedBy: row.updated_by } : null;

const logging = (row: LoggingRow | undefined): LoggingSettings =>
  row
    ? { mode: row.mode, retentionDays: row.retention_days, keepQueryString: row.keep_query_string, notice: row.notice, version: row.version, updatedAt: row.updated_at }
    : DEFAULT_LOGGING_SETTINGS;

/**
 * Settings rows on PostgreSQL or PGlite. A versioned write is one statement — an insert when `expected` is 0, an
 * update guarded by `version = expected` otherwise — so two editors holding the same ETag cannot both win.
 */
export function createPgAssistantSettingsStore(knex: Knex): AssistantSettingsStorePort {
  async function currentVersion(table: string, where: Record<string, string>): Promise<number> {
    const row = await knex(table).where(where).first<{ version: number } | undefined>('version');
    return row?.version ?? 0;
  }

  return {
    async read(orgId, keyId) {
      const scopes = keyId === null ? ['*'] : ['*', keyId];
      const rows = await knex('assistant_settings').where({ org_id: orgId }).whereIn('scope', scopes).select<Array<SettingsRow & { scope: string }>>('scope', 'settings', 'version', 'updated_at', 'updated_by');
      const byScope = new Map(rows.map((r) => [r.scope, r]));
      return { org: stored(byScope.get('*')) ?? EMPTY, key: keyId === null ? null : (stored(byScope.get(keyId)) ?? EMPTY) };
    },

    async write(orgId, scope, patch, expected, by, at) {
      const scopeId = scope === '*' ? '*' : scope.keyId;
      const keyId = scope === '*' ? null : scope.keyId;
      const json = JSON.stringify(patch);
      let rows: SettingsRow[];
      if (expected === 0) {
        rows = (await knex('assistant_settings')
          .insert({ org_id: orgId, scope: scopeId, key_id: keyId, settings: json, version: 1, updated_at: at, updated_by: by })
          .onConflict(['org_id', 'scope'])
          .ignore()
          .returning(['settings', 'version', 'updated_at', 'updated_by'])) as SettingsRow[];
      } else if (expected === null) {
        rows = (await knex('assistant_settings')
          .insert({ org_id: orgId, scope: scopeId, key_id: keyId, settings: json, version: 1, updated_at: at, updated_by: by })
          .onConflict(['org_id', 'scope'])
          .merge({ settings: json, version: knex.raw('assistant_settings.version + 1'), updated_at: at, updated_by: by })
          .returning(['settings', 'version', 'updated_at', 'updated_by'])) as SettingsRow[];
      } else {
        rows = (await knex('assistant_settings')
          .where({ org_id: orgId, scope: scopeId, version: expected })
          .update({ settings: json, version: expected + 1, updated_at: at, updated_by: by })
          .returning(['settings', 'version', 'updated_at', 'updated_by'])) as SettingsRow[];
      }
      if (rows.length === 0) return { ok: false, current: await currentVersion('assistant_settings', { org_id: orgId, scope: scopeId }) };
      return { ok: true, value: stored(rows[0])! };
    },

    async clear(orgId, keyId) {
      const where = { org_id: orgId, scope: keyId };
      const found = await knex('assistant_settings').where(where).first('scope');
      if (found) await knex('assistant_settings').where(where).delete();
      return found !== undefined;
    },

    async readLogging(orgId) {
      return logging(await knex('question_logging').where({ org_id: orgId }).first<LoggingRow | undefined>());
    },

    async writeLogging(orgId, s, expected, by, at) {
      const values = { mode: s.mode, retention_days: s.retentionDays, keep_query_string: s.keepQueryString, notice: s.notice, updated_at: at, updated_by: by };
      let rows: LoggingRow[];
      if (expected === 0) {
        rows = (await knex('question_logging').insert({ org_id: orgId, ...values, version: 1 }).onConflict('org_id').ignore().returning('*')) as LoggingRow[];
      } else if (expected === null) {
        rows = (await knex('question_logging')
          .insert({ org_id: orgId, ...values, version: 1 })
          .onConflict('org_id')
          .merge({ ...values, version: knex.raw('question_logging.version + 1') })
          .returning('*')) as LoggingRow[];
      } else {
        rows = (await knex('question_logging').where({ org_id: orgId, version: expected }).update({ ...values, version: expected + 1 }).returning('*')) as LoggingRow[];
      }
      if (rows.length === 0) return { ok: false, current: await currentVersion('question_logging', { org_id: orgId }) };
      return { ok: true, value: logging(rows[0]) };
    },
  };
}
