/** UI languages the widget ships (or `auto`: the page's `lang`, then the browser's). */
export const ASSISTANT_LANGUAGES = Object.freeze(['auto', 'en', 'de', 'fr', 'es', 'pt', 'it', 'nl'] as const);
export const ASSISTANT_PLACEMENTS = Object.freeze(['launcher', 'sidebar', 'inline'] as const);
export const THEME_SCHEMES = Object.freeze(['auto', 'light', 'dark'] as const);
export const THEME_POSITIONS = Object.freeze(['bottom-right', 'bottom-left'] as const);
/** At most this many starter questions. */
export const MAX_STARTER_QUESTIONS = 6;

export type AssistantLanguage = (typeof ASSISTANT_LANGUAGES)[number];
export type AssistantPlacement = (typeof ASSISTANT_PLACEMENTS)[number];

export interface AssistantTheme {
  readonly accent: string | null;
  readonly scheme: (typeof THEME_SCHEMES)[number];
  readonly position: (typeof THEME_POSITIONS)[number];
  readonly launcherLabel: string | null;
  readonly logoUrl: string | null;
}

/** What a site owner sets for the assistant (issue 13 §1); `/config` delivers it, snippet options still win. */
export interface AssistantSettings {
  readonly name: string | null;
  readonly greeting: string | null;
  readonly starterQuestions: readonly string[];
  /** For model engines only: added after the grounding rules, never instead of them. */
  readonly instructions: string | null;
  readonly refusalMessage: string | null;
  /** The refusal's next step: an https: or mailto: URL. */
  readonly contactUrl: string | null;
  readonly theme: AssistantTheme;
  readonly language: AssistantLanguage;
  readonly placement: AssistantPlacement;
}

/** A partial change or a key's overrides: absent = unchanged / inherited. */
export type AssistantSettingsPatch = {
  readonly [K in Exclude<keyof AssistantSettings, 'theme'>]?: AssistantSettings[K];
} & { readonly theme?: Partial<AssistantTheme> };

/** Kit's defaults: nothing customised. */
export const DEFAULT_ASSISTANT_SETTINGS: AssistantSettings = Object.freeze({
  name: null,
  greeting: null,
  starterQuestions: Object.freeze([]) as readonly string[],
  instructions: null,
  refusalMessage: null,
  contactUrl: null,
  theme: Object.freeze({ accent: null, scheme: 'auto', position: 'bottom-right', launcherLabel: null, logoUrl: null }),
  language: 'auto',
  placement: 'launcher',
});

/** `base` with `patch` laid over it, field by field (the theme too); absent fields keep `base`'s value. */
export function applyAssistantPatch(base: AssistantSettings, patch: AssistantSettingsPatch): AssistantSettings {
  const theme: AssistantTheme = { ...base.theme };
  for (const [k, v] of Object.entries(patch.theme ?? {})) if (v !== undefined) (theme as unknown as Record<string, unknown>)[k] = v;
  const out: Record<string, unknown> = { ...base, theme };
  for (const [k, v] of Object.entries(patch)) if (k !== 'theme' && v !== undefined) out[k] = v;
  return out as unknown as AssistantSettings;
}

/** Two patches merged (`later` wins per field): how a stored override absorbs the next change. */
export function mergeAssistantPatches(earlier: AssistantSettingsPatch, later: AssistantSettingsPatch): AssistantSettingsPatch {
  const theme = { ...(earlier.theme ?? {}), ...(later.theme ?? {}) };
  const out: Record<string, unknown> = { ...earlier, ...later };
  if (Object.keys(theme).length > 0) out.theme = theme;
  else delete out.theme;
  return out as AssistantSettingsPatch;
}
