import type { Language } from './language.js';
import { resourcesFor } from './resources.js';

export { QUESTION_WORDS } from './question-words.js';

/**
 * The stopwords of `lang` as loaded now, normalised like page words: empty until its pack loads (English is
 * always there). A corpus's own stopwords are `corpus.resources.stopwords`.
 */
export function stopwordsOf(lang: Language): ReadonlySet<string> {
  return resourcesFor(lang).stopwords;
}

/** True for a stopword of `lang` (when its pack is loaded) or a question word of any language. */
export function isStopword(word: string, lang: Language): boolean {
  return resourcesFor(lang).isStopword(word);
}
