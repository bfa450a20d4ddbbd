import { LANGUAGES } from '../../../core/text/language.js';
import { loadLanguage } from '../../../core/text/load-language.js';
import { isLanguageLoaded, unloadLanguages } from '../../../core/text/resources.js';

/**
 * Mocha hooks for a suite that needs the language packs unloaded (English only): packs are process-wide, so the
 * ones loaded before the suite are loaded again after it, leaving other suites as they found them.
 */
export function onlyEnglish(): void {
  let loaded: string[] = [];
  beforeEach(() => {
    loaded = LANGUAGES.filter(isLanguageLoaded);
    unloadLanguages();
  });
  afterEach(async () => {
    unloadLanguages();
    for (const lang of LANGUAGES) if (loaded.includes(lang)) await loadLanguage(lang);
  });
}
