import type { Language } from './language.js';
import { loadLanguage } from './load-language.js';
import { resourcesFor } from './resources.js';

/**
 * Rank (1 = most frequent) of a term in the general-language frequency list of `lang`, or Infinity when the
 * term is not among its most frequent words or the list is not loaded. Terms are stems, so "centuries" and
 * "century" share a rank. English, French, German, Spanish and Portuguese have lists; the others do not.
 */
export function commonRank(term: string, lang: Language): number {
  return resourcesFor(lang).commonRank(term);
}

/** True when `lang`'s common-word list is available to {@link commonRank}. */
export function hasCommonWords(lang: Language): boolean {
  return resourcesFor(lang).hasCommonWords;
}

/**
 * Loads `lang`'s pack and resolves whether it has a common-word list.
 * @deprecated Use prepareCorpus (or loadLanguage before buildCorpus): a corpus built before its pack loads keeps
 * the fallback resources, common words included.
 */
export async function loadCommonWords(lang: Language): Promise<boolean> {
  await loadLanguage(lang);
  return hasCommonWords(lang);
}
