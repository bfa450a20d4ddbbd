import { WORDS as EN } from './common-words/en.js';
import type { Language } from './language.js';
import { stemmerFor } from './stem.js';

// English ships with core; the other lists load on demand (loadCommonWords), about 16 kB gzipped each.
const lists = new Map<Language, string>([['en', EN]]);
const ranks = new Map<Language, ReadonlyMap<string, number>>();

/**
 * Rank (1 = most frequent) of a term in the general-language frequency list of `lang`, or Infinity when the
 * term is not among its most frequent words or the list is not loaded. Terms are stems, so "centuries" and
 * "century" share a rank. Chinese and Japanese have no list: every word counts as specific.
 */
export function commonRank(term: string, lang: Language): number {
  let map = ranks.get(lang);
  if (!map) {
    const list = lists.get(lang);
    if (list === undefined) return Infinity;
    map = buildRanks(list, lang);
    ranks.set(lang, map);
  }
  return map.get(term) ?? Infinity;
}

/** True when `lang`'s common-word list is available to {@link commonRank}. */
export function hasCommonWords(lang: Language): boolean {
  return lists.has(lang);
}

/**
 * Loads the common-word list of `lang` (French, German, Spanish, Portuguese; English is always there). Call it
 * once after buildCorpus for a page in one of those languages: until then the grounding gate treats every word
 * of the page as specific, which makes it more permissive. Resolves false for a language without a list.
 */
export async function loadCommonWords(lang: Language): Promise<boolean> {
  if (lists.has(lang)) return true;
  let words: string;
  switch (lang) {
    case 'fr': words = (await import('./common-words/fr.js')).WORDS; break;
    case 'de': words = (await import('./common-words/de.js')).WORDS; break;
    case 'es': words = (await import('./common-words/es.js')).WORDS; break;
    case 'pt': words = (await import('./common-words/pt.js')).WORDS; break;
    default: return false;
  }
  lists.set(lang, words);
  ranks.delete(lang);
  return true;
}

function buildRanks(list: string, lang: Language): ReadonlyMap<string, number> {
  const map = new Map<string, number>();
  const stem = stemmerFor(lang);
  let rank = 0;
  for (const w of list.split(' ')) {
    rank++;
    const s = stem(w);
    if (!map.has(s)) map.set(s, rank);
  }
  return map;
}
