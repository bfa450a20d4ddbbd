import { LANGUAGES } from '../text/language.js';
import { PACK as EN } from '../text/packs/en.js';
import { installGroundingWords, isLanguageLoaded, resourcesFor, type GroundingWordList, type LanguageResources } from '../text/resources.js';

// English's gate words come with the gate: core/text installs English without them (packs/en-core.ts), so the SDK
// carries them only where it gates in the browser (docs/sdk.md "Budgets").
if (EN.grounding) installGroundingWords('en', EN.grounding);

/** The grounding gate's word lists of some languages at once (a page's, a question's, English). */
export interface Lexicon {
  /** True when `word` (normalised) is in `list` of one of the languages. */
  has(list: GroundingWordList, word: string): boolean;
  /** True when `word` contains a word of `list` (Chinese and Japanese, where one segmented word may hold it). */
  within(list: GroundingWordList, word: string): boolean;
  /** Where words of `list` occur in `text` (start, end pairs, in list order): Chinese and Japanese questions. */
  spans(list: GroundingWordList, text: string): number[];
  /** Every word of `list` in these languages. */
  all(list: GroundingWordList): ReadonlySet<string>;
}

/** One lexicon over the languages of `resources`: each list merged into one set on first use. */
export function lexiconOf(resources: readonly LanguageResources[]): Lexicon {
  const rs = [...new Set(resources)];
  const merged = new Map<GroundingWordList, ReadonlySet<string>>();
  const get = (list: GroundingWordList): ReadonlySet<string> => {
    let s = merged.get(list);
    if (!s) {
      const all = new Set<string>();
      for (const r of rs) for (const w of r.groundingWords(list)) all.add(w);
      merged.set(list, s = all);
    }
    return s;
  };
  return {
    has: (list, word) => get(list).has(word),
    all: get,
    within: (list, word) => { for (const s of get(list)) if (word.includes(s)) return true; return false; },
    spans: (list, text) => {
      const out: number[] = [];
      for (const s of get(list)) for (let i = text.indexOf(s); i >= 0; i = text.indexOf(s, i + 1)) out.push(i, i + s.length);
      return out;
    },
  };
}

// Resources values are immutable: a lexicon is reused while the same page resources and loaded packs are in force.
const cache = new WeakMap<LanguageResources, { readonly loaded: readonly LanguageResources[]; readonly lex: Lexicon }>();

/**
 * The lexicon for reading a question: `first` (the page's resources, as its corpus was built) and every language
 * loaded now — a short question's language is often not detectable ("Résume cette page"), and a loaded pack's
 * words are never wrong for a question in it.
 */
export function questionLexicon(first: LanguageResources): Lexicon {
  const loaded = LANGUAGES.filter(isLanguageLoaded).map(resourcesFor);
  const hit = cache.get(first);
  if (hit && hit.loaded.length === loaded.length && hit.loaded.every((r, i) => r === loaded[i])) return hit.lex;
  const lex = lexiconOf([first, ...loaded]);
  cache.set(first, { loaded, lex });
  return lex;
}
