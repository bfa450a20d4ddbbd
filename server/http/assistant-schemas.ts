import { z } from 'zod';
import {
  ASSISTANT_LANGUAGES,
  ASSISTANT_PLACEMENTS,
  MAX_STARTER_QUESTIONS,
  THEME_POSITIONS,
  THEME_SCHEMES,
  type AssistantSettings,
  type AssistantSettingsPatch,
} from '../../core/assistant/index.js';
import type { LoggingSettings } from '../../core/insights/index.js';
import { humanText, Timestamp } from './schemas.js';

// Control characters other than line breaks and tabs, bidi overrides and lone surrogates (see schemas.ts humanText).
const UNPRINTABLE_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Text that may span lines (instructions, notices): 1..max characters, no other control characters. */
export function multilineText(max: number) {
  return z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !LONE_SURROGATE.test(s) && !UNPRINTABLE_MULTILINE.test(s), 'must be printable text without control characters')
    .transform((s) => s.normalize('NFC').replace(/\r\n?/g, '\n'));
}

/** A URL with one of `schemes` (e.g. `https:`), at most 2048 characters, without credentials. */
export function urlWithScheme(schemes: readonly string[]) {
  return z
    .string()
    .trim()
    .max(2_048, 'must be at most 2048 characters')
    .refine((v) => {
      if (!URL.canParse(v)) return false;
      const u = new URL(v);
      return schemes.includes(u.protocol) && u.username === '' && u.password === '' && (u.protocol === 'mailto:' || u.hostname !== '');
    }, `must be a ${schemes.map((s) => s.replace(':', '')).join(' or ')} URL`);
}

/** `#rgb` or `#rrggbb`, stored as lower-case `#rrggbb`. */
export const HexColour = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour like #0b57d0')
  .transform((v) => (v.length === 4 ? `#${v[1]}${v[1]}${v[2]}${v[2]}${v[3]}${v[3]}` : v).toLowerCase());

/** Limits of each settings field (docs/api.md lists them). */
export const SETTINGS_LIMITS = Object.freeze({ name: 60, greeting: 300, starterQuestion: 150, instructions: 2_000, refusalMessage: 300, launcherLabel: 40, notice: 500 });

const Theme = z.strictObject({
  accent: HexColour.nullable().optional(),
  scheme: z.enum(THEME_SCHEMES).optional(),
  position: z.enum(THEME_POSITIONS).optional(),
  launcher_label: humanText(SETTINGS_LIMITS.launcherLabel).nullable().optional(),
  logo_url: urlWithScheme(['https:']).nullable().optional(),
});

/** PATCH body of /assistant and /keys/{id}/assistant: absent fields are unchanged; null clears (or, for a key, inherits). */
export const AssistantSettingsInput = z
  .strictObject({
    name: humanText(SETTINGS_LIMITS.name).nullable().optional(),
    greeting: humanText(SETTINGS_LIMITS.greeting).nullable().optional(),
    starter_questions: z
      .array(humanText(SETTINGS_LIMITS.starterQuestion))
      .max(MAX_STARTER_QUESTIONS, `at most ${MAX_STARTER_QUESTIONS} starter questions`)
      .nullable()
      .optional(),
    instructions: multilineText(SETTINGS_LIMITS.instructions).nullable().optional(),
    refusal_message: humanText(SETTINGS_LIMITS.refusalMessage).nullable().optional(),
    contact_url: urlWithScheme(['https:', 'mailto:']).nullable().optional(),
    theme: Theme.optional(),
    language: z.enum(ASSISTANT_LANGUAGES).optional(),
    placement: z.enum(ASSISTANT_PLACEMENTS).optional(),
  })
  .meta({ id: 'AssistantSettingsPatch', description: 'Fields to change; absent fields keep their value. On the organization, null resets a field to its default; on a key, null removes the override (the key inherits).' });

/** The API's snake_case patch as core's camelCase one (null starter_questions = none). */
export function toAssistantPatch(input: z.output<typeof AssistantSettingsInput>): AssistantSettingsPatch {
  const out: Record<string, unknown> = {};
  const set = (k: string, v: unknown) => {
    if (v !== undefined) out[k] = v;
  };
  set('name', input.name);
  set('greeting', input.greeting);
  set('starterQuestions', input.starter_questions);
  set('instructions', input.instructions);
  set('refusalMessage', input.refusal_message);
  set('contactUrl', input.contact_url);
  set('language', input.language);
  set('placement', input.placement);
  if (input.theme) {
    const theme: Record<string, unknown> = {};
    const t = input.theme;
    if (t.accent !== undefined) theme.accent = t.accent;
    if (t.scheme !== undefined) theme.scheme = t.scheme;
    if (t.position !== undefined) theme.position = t.position;
    if (t.launcher_label !== undefined) theme.launcherLabel = t.launcher_label;
    if (t.logo_url !== undefined) theme.logoUrl = t.logo_url;
    out.theme = theme;
  }
  return out as AssistantSettingsPatch;
}

const ThemeView = z.strictObject({
  accent: z.string().nullable(),
  scheme: z.enum(THEME_SCHEMES),
  position: z.enum(THEME_POSITIONS),
  launcher_label: z.string().nullable(),
  logo_url: z.string().nullable(),
});

const settingsFields = {
  name: z.string().nullable(),
  greeting: z.string().nullable(),
  starter_questions: z.array(z.string()).max(MAX_STARTER_QUESTIONS),
  instructions: z.string().nullable().meta({ description: 'For model engines only: added after the grounding rules, which it can never loosen.' }),
  refusal_message: z.string().nullable(),
  contact_url: z.string().nullable().meta({ description: 'An https: or mailto: URL offered with a refusal.' }),
  theme: ThemeView,
  language: z.enum(ASSISTANT_LANGUAGES),
  placement: z.enum(ASSISTANT_PLACEMENTS),
};

/** The effective settings, snake_case. */
export const AssistantSettingsValues = z.strictObject(settingsFields).meta({ id: 'AssistantSettingsValues' });

/** GET/PATCH /assistant. */
export const AssistantSettingsView = z
  .strictObject({
    ...settingsFields,
    version: z.number().int().meta({ description: 'What the ETag names ("<version>"); 0 until first saved.' }),
    updated_at: Timestamp.nullable(),
    updated_by: z.string().nullable(),
  })
  .meta({ id: 'AssistantSettings' });

/** GET/PATCH /keys/{id}/assistant. */
export const KeyAssistantSettingsView = z
  .strictObject({
    key_id: z.string(),
    overrides: z.record(z.string(), z.unknown()).meta({ description: "The fields this key overrides (snake_case, as in the PATCH body); everything else is the organization's." }),
    effective: AssistantSettingsValues,
    version: z.number().int(),
    updated_at: Timestamp.nullable(),
    updated_by: z.string().nullable(),
  })
  .meta({ id: 'KeyAssistantSettings' });

/** The `assistant` block of GET /config (PLAN.md "Shared shapes"). */
export const AssistantConfig = z
  .strictObject({
    ...settingsFields,
    logging: z.strictObject({
      mode: z.enum(['off', 'redacted', 'full']),
      notice: z.string().nullable().meta({ description: "Shown by the widget while mode is not off; null = the widget's default text." }),
    }),
  })
  .meta({ id: 'AssistantConfig', description: "The key's effective assistant settings (organization defaults, then the key's overrides). Options in the site's snippet win over these." });

/** core settings → the API's snake_case values. */
export function settingsValues(s: AssistantSettings): z.infer<typeof AssistantSettingsValues> {
  return {
    name: s.name,
    greeting: s.greeting,
    starter_questions: [...s.starterQuestions],
    instructions: s.instructions,
    refusal_message: s.refusalMessage,
    contact_url: s.contactUrl,
    theme: { accent: s.theme.accent, scheme: s.theme.scheme, position: s.theme.position, launcher_label: s.theme.launcherLabel, logo_url: s.theme.logoUrl },
    language: s.language,
    placement: s.placement,
  };
}

/** A key's stored overrides in the API's snake_case. */
export function overridesView(p: AssistantSettingsPatch): Record<string, unknown> {
  const names: Record<string, string> = { starterQuestions: 'starter_questions', refusalMessage: 'refusal_message', contactUrl: 'contact_url' };
  const themeNames: Record<string, string> = { launcherLabel: 'launcher_label', logoUrl: 'logo_url' };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(p)) {
    if (k === 'theme') out.theme = Object.fromEntries(Object.entries(v as object).map(([tk, tv]) => [themeNames[tk] ?? tk, tv]));
    else out[names[k] ?? k] = v;
  }
  return out;
}

/** PATCH body of /org/question-logging. */
export const LoggingSettingsInput = z
  .strictObject({
    mode: z.enum(['off', 'redacted', 'full']).optional(),
    retention_days: z.number().int('must be a whole number').min(1, 'must be at least 1').max(365, 'must be at most 365').optional(),
    keep_query_string: z.boolean().optional(),
    notice: multilineText(SETTINGS_LIMITS.notice).nullable().optional(),
  })
  .meta({ id: 'QuestionLoggingPatch' });

export const LoggingSettingsView = z
  .strictObject({
    mode: z.enum(['off', 'redacted', 'full']).meta({ description: 'off: counts only, no text. redacted: questions, with secrets and personal data masked. full: questions and answers, masked the same way.' }),
    retention_days: z.number().int(),
    keep_query_string: z.boolean(),
    notice: z.string().nullable(),
    version: z.number().int(),
    updated_at: Timestamp.nullable(),
  })
  .meta({ id: 'QuestionLogging' });

export function loggingView(s: LoggingSettings): z.infer<typeof LoggingSettingsView> {
  return { mode: s.mode, retention_days: s.retentionDays, keep_query_string: s.keepQueryString, notice: s.notice, version: s.version, updated_at: s.updatedAt ? s.updatedAt.toISOString() : null };
}
