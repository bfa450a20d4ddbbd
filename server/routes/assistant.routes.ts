import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';
import { prefixedId } from '../http/schemas.js';
import {
  AssistantSettingsInput,
  AssistantSettingsView,
  KeyAssistantSettingsView,
  LoggingSettingsInput,
  LoggingSettingsView,
  loggingView,
  overridesView,
  settingsValues,
  toAssistantPatch,
} from '../http/assistant-schemas.js';
import type { AssistantSettingsService, Precondition } from '../services/assistant-settings-service.js';
import { unwrap } from '../services/service-result.js';

const KeyId = z.object({ id: prefixedId('key') });

/** The ETag of a settings version. */
export const etagOf = (version: number): string => `"${version}"`;

/** If-Match: `*`, or one or more ETags (`"3"`, `W/"3"`); anything else matches no version. */
export function parseIfMatch(header: string): Precondition {
  const value = header.trim();
  if (value === '') return { kind: 'none' };
  if (value === '*') return { kind: 'any' };
  const versions = value
    .split(',')
    .map((part) => /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(part)?.[1])
    .filter((v): v is string => v !== undefined)
    .map(Number);
  return { kind: 'version', versions };
}

const IF_MATCH_DOC =
  'Send `If-Match` with the `ETag` (or `"<version>"`) you read: a stale one is `412 precondition_failed`, none is `428 precondition_required`; `If-Match: *` overwrites whatever is there.';

/** GET/PATCH /assistant, GET/PATCH/DELETE /keys/{id}/assistant, GET/PATCH /org/question-logging. */
export function assistantRoutes(settings: AssistantSettingsService): Route[] {
  const orgView = (s: Awaited<ReturnType<AssistantSettingsService['getOrg']>>) => {
    const v = unwrap(s);
    return {
      status: 200,
      headers: { ETag: etagOf(v.version), 'Cache-Control': 'no-store' },
      body: { ...settingsValues(v.value), version: v.version, updated_at: v.updatedAt?.toISOString() ?? null, updated_by: v.updatedBy },
    };
  };
  const keyView = (s: Awaited<ReturnType<AssistantSettingsService['getKey']>>) => {
    const v = unwrap(s);
    return {
      status: 200,
      headers: { ETag: etagOf(v.version), 'Cache-Control': 'no-store' },
      body: { key_id: v.keyId, overrides: overridesView(v.overrides), effective: settingsValues(v.effective), version: v.version, updated_at: v.updatedAt?.toISOString() ?? null, updated_by: v.updatedBy },
    };
  };
  return [
    defineRoute({
      method: 'get',
      path: '/assistant',
      operationId: 'getAssistantSettings',
      summary: "The organization's assistant settings",
      description: 'Name, greeting, starter questions, instructions for model engines, refusal message and contact URL, theme, UI language and placement. Every key inherits them unless it overrides a field (`/keys/{id}/assistant`). `GET /config` delivers them to the SDK; options in the site\'s snippet still win.',
      tags: ['Assistant'],
      auth: { kind: 'jwt', permission: 'assistant:read' },
      responses: { 200: { description: 'The settings; the ETag header names their version.', schema: AssistantSettingsView } },
      async handler({ auth }) {
        return orgView(await settings.getOrg(auth));
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/assistant',
      operationId: 'updateAssistantSettings',
      summary: "Change the organization's assistant settings",
      description: `Absent fields keep their value; null resets a field to Kit's default. ${IF_MATCH_DOC} Visitors see the change within KIT_SETTINGS_CACHE_TTL_MS (5 s).`,
      tags: ['Assistant'],
      auth: { kind: 'jwt', permission: 'assistant:write' },
      body: AssistantSettingsInput,
      responses: { 200: { description: 'The new settings and their ETag.', schema: AssistantSettingsView } },
      errors: ['precondition_failed', 'precondition_required'],
      async handler({ auth, body, ctx }) {
        return orgView(await settings.updateOrg(auth, toAssistantPatch(body), parseIfMatch(ctx.get('if-match'))));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/keys/{id}/assistant',
      operationId: 'getKeyAssistantSettings',
      summary: "A key's assistant overrides and what its visitors get",
      tags: ['Assistant'],
      auth: { kind: 'jwt', permission: 'assistant:read' },
      params: KeyId,
      responses: { 200: { description: "The key's overrides (version 0: none yet) and the effective settings.", schema: KeyAssistantSettingsView } },
      async handler({ auth, params }) {
        return keyView(await settings.getKey(auth, params.id));
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/keys/{id}/assistant',
      operationId: 'updateKeyAssistantSettings',
      summary: "Override assistant settings for one key (e.g. a second site)",
      description: `Fields given override the organization's for this key; null removes an override (the key inherits again). ${IF_MATCH_DOC} A rotated key's successor starts with the same overrides; deleting the key deletes them.`,
      tags: ['Assistant'],
      auth: { kind: 'jwt', permission: 'assistant:write' },
      params: KeyId,
      body: AssistantSettingsInput,
      responses: { 200: { description: 'The overrides and effective settings, with the new ETag.', schema: KeyAssistantSettingsView } },
      errors: ['precondition_failed', 'precondition_required'],
      async handler({ auth, params, body, ctx }) {
        return keyView(await settings.updateKey(auth, params.id, toAssistantPatch(body), parseIfMatch(ctx.get('if-match'))));
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/keys/{id}/assistant',
      operationId: 'clearKeyAssistantSettings',
      summary: "Remove a key's overrides (it inherits everything again)",
      tags: ['Assistant'],
      auth: { kind: 'jwt', permission: 'assistant:write' },
      params: KeyId,
      responses: { 204: { description: 'Removed (also when there were none).' } },
      async handler({ auth, params }) {
        unwrap(await settings.clearKey(auth, params.id));
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/org/question-logging',
      operationId: 'getQuestionLogging',
      summary: 'Whether visitors\' questions are logged, and for how long',
      description: 'Default: `mode: off` (only counts per day, page, mode and outcome; no text), `retention_days: 30`. docs/privacy.md says exactly what each mode stores.',
      tags: ['Insights'],
      auth: { kind: 'jwt', permission: 'assistant:read' },
      responses: { 200: { description: 'The settings; the ETag header names their version.', schema: LoggingSettingsView } },
      async handler({ auth }) {
        const s = unwrap(await settings.getLogging(auth));
        return { status: 200, headers: { ETag: etagOf(s.version), 'Cache-Control': 'no-store' }, body: loggingView(s) };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/org/question-logging',
      operationId: 'updateQuestionLogging',
      summary: 'Turn question logging on or off, set retention and the visitor notice',
      description: `Owners and admins only: this decides what is stored about visitors. Rows older than \`retention_days\` are deleted by the hourly purge; turning logging off keeps existing rows until then (delete conversations to remove them sooner). ${IF_MATCH_DOC}`,
      tags: ['Insights'],
      auth: { kind: 'jwt', permission: 'privacy:manage' },
      body: LoggingSettingsInput,
      responses: { 200: { description: 'The new settings and their ETag.', schema: LoggingSettingsView } },
      errors: ['precondition_failed', 'precondition_required'],
      async handler({ auth, body, ctx }) {
        const s = unwrap(
          await settings.updateLogging(
            auth,
            { mode: body.mode, retentionDays: body.retention_days, keepQueryString: body.keep_query_string, notice: body.notice },
            parseIfMatch(ctx.get('if-match')),
          ),
        );
        return { status: 200, headers: { ETag: etagOf(s.version), 'Cache-Control': 'no-store' }, body: loggingView(s) };
      },
    }),
  ];
}
