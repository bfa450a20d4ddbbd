import { COMMON_WORDS } from './common-words.data.js';
import type { Language } from './language.js';
import { stemmerFor } from './stem.js';

const ranks = new Map<Language, ReadonlyMap<string, number>>();

/**
 * Rank (1 = most frequent) of a term in the general-language frequency list of `lang`, or Infinity when the
 * term is not among its most frequent words. Terms are stems, so "centuries" and "century" share a rank.
 * Chinese and Japanese have no list here: every word counts as specific.
 */
export function commonRank(term: string, lang: Language): number {
  let map = ranks.get(lang);
  if (!map) {
    map = buildRanks(lang);
    ranks.set(lang, map);
  }
  return map.get(term) ?? Infinity;
}

function buildRanks(lang: Language): ReadonlyMap<string, number> {
  const map = new Map<string, number>();
  const list = (COMMON_WORDS as Partial<Record<Language, string>>)[lang];
  if (!list) return map;
  const stem = stemmerFor(lang);
  let rank = 0;
  for (const w of list.split(' ')) {
    rank++;
    const s = stem(w);
    if (!map.has(s)) map.set(s, rank);
  }
  return map;
}
