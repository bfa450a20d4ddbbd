import type { WidgetStrings } from './strings.js';

/** UI languages with strings (the grounding gate's languages that have a translation). */
export const UI_LANGUAGES = ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

/**
 * The UI language for `wanted` ('auto', a language tag, or null) and the page's `lang`: the first of them whose
 * primary subtag has strings, else English. An explicit language without strings means English, not the page's.
 */
export function pickUiLanguage(wanted: string | null | undefined, pageLang: string | null | undefined): UiLanguage {
  for (const tag of [wanted, pageLang]) {
    const primary = (tag ?? '').toLowerCase().split(/[-_]/)[0];
    if ((UI_LANGUAGES as readonly string[]).includes(primary!)) return primary as UiLanguage;
    if (tag && tag !== 'auto') break;
  }
  return 'en';
}

const LOADERS: Record<Exclude<UiLanguage, 'en'>, () => Promise<{ default: WidgetStrings }>> = {
  de: () => import(/* webpackChunkName: "kit-ui-de" */ './i18n/de.js'),
  fr: () => import(/* webpackChunkName: "kit-ui-fr" */ './i18n/fr.js'),
  es: () => import(/* webpackChunkName: "kit-ui-es" */ './i18n/es.js'),
  pt: () => import(/* webpackChunkName: "kit-ui-pt" */ './i18n/pt.js'),
  it: () => import(/* webpackChunkName: "kit-ui-it" */ './i18n/it.js'),
  nl: () => import(/* webpackChunkName: "kit-ui-nl" */ './i18n/nl.js'),
};

/** The strings of `lang`, a lazy chunk each; null for English (the panel's built-in defaults). */
export async function loadUiStrings(lang: UiLanguage): Promise<WidgetStrings | null> {
  return lang === 'en' ? null : (await LOADERS[lang]()).default;
}
