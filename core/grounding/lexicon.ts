import { LANGUAGES } from '../text/language.js';
import { isLanguageLoaded, resourcesFor, type GroundingWordList, type LanguageResources } from '../text/resources.js';

/** The grounding gate's word lists of some languages at once (a page's, a question's, English). */
export interface Lexicon {
  /** True when `word` (normalised) is in `list` of one of the languages. */
  has(list: GroundingWordList, word: string): boolean;
  /** True when `word` contains a word of `list` (Chinese and Japanese, where one segmented word may hold it). */
  within(list: GroundingWordList, word: string): boolean;
}

export function lexiconOf(resources: readonly LanguageResources[]): Lexicon {
  const rs = [...new Set(resources)];
  return {
    has: (list, word) => rs.some((r) => r.groundingWords(list).has(word)),
    within: (list, word) => rs.some((r) => { for (const s of r.groundingWords(list)) if (word.includes(s)) return true; return false; }),
  };
}

/**
 * The lexicon for reading a question: `first` (the page's resources, as its corpus was built) and every language
 * loaded now — a short question's language is often not detectable ("Résume cette page"), and a loaded pack's
 * words are never wrong for a question in it.
 */
export function questionLexicon(first: LanguageResources): Lexicon {
  return lexiconOf([first, ...LANGUAGES.filter(isLanguageLoaded).map(resourcesFor)]);
}
