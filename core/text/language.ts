/** Languages whose stopwords (and, for the alphabetic ones, stemmer and common-word list) Kit knows. */
export const LANGUAGES = Object.freeze(['en', 'fr', 'de', 'es', 'pt', 'it', 'nl', 'zh', 'ja'] as const);
export type Language = (typeof LANGUAGES)[number];

// The most frequent function words of each language: distinctive enough together to tell the languages apart
// on a few hundred words, short enough that a question of five words still votes sensibly.
const MARKERS: Readonly<Record<'en' | 'fr' | 'de' | 'es' | 'pt' | 'it' | 'nl', readonly string[]>> = {
  en: ['the', 'of', 'and', 'to', 'is', 'that', 'it', 'was', 'for', 'on', 'are', 'with', 'as', 'his', 'they', 'be', 'at', 'by', 'this', 'from', 'have', 'what', 'who', 'when', 'how', 'which', 'did', 'does', 'were'],
  fr: ['le', 'les', 'des', 'du', 'et', 'est', 'une', 'dans', 'qui', 'pour', 'pas', 'sur', 'au', 'avec', 'ce', 'il', 'elle', 'sont', 'ou', 'quel', 'quelle', 'comment', 'pourquoi', 'quand', 'aux', 'ont'],
  de: ['der', 'die', 'das', 'und', 'ist', 'nicht', 'ein', 'eine', 'zu', 'den', 'von', 'mit', 'sich', 'auf', 'dem', 'fur', 'auch', 'wer', 'wie', 'wann', 'warum', 'welche', 'wo', 'im', 'wird', 'sind'],
  es: ['el', 'los', 'las', 'del', 'y', 'en', 'es', 'una', 'por', 'con', 'para', 'se', 'su', 'al', 'lo', 'como', 'quien', 'cuando', 'donde', 'cual', 'que', 'esta', 'fue', 'son'],
  pt: ['o', 'os', 'do', 'da', 'dos', 'das', 'e', 'em', 'um', 'uma', 'com', 'nao', 'no', 'na', 'ao', 'quem', 'quando', 'onde', 'qual', 'foi', 'sao', 'pelo', 'pela', 'voce'],
  it: ['il', 'lo', 'gli', 'di', 'della', 'che', 'e', 'un', 'per', 'non', 'sono', 'nel', 'chi', 'dove', 'perche', 'quale', 'anche', 'alla', 'delle'],
  nl: ['de', 'het', 'een', 'en', 'van', 'is', 'dat', 'op', 'te', 'zijn', 'niet', 'met', 'voor', 'die', 'er', 'wie', 'wat', 'waar', 'waarom', 'hoe', 'wordt', 'ook'],
};
// word → the languages it marks, as one lookup per word.
const MARKER_LANGS = new Map<string, Language[]>();
for (const [lang, words] of Object.entries(MARKERS)) for (const w of words) {
  const l = MARKER_LANGS.get(w);
  if (l) l.push(lang as Language); else MARKER_LANGS.set(w, [lang as Language]);
}
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /\p{Script=Han}/u;

/**
 * Guesses the language of normalised words by function-word votes (Latin languages) and script (Chinese,
 * Japanese). Returns `fallback` (default 'en') when nothing votes, so a page in another language still works,
 * with English stopwords and no stemming surprises beyond English's.
 */
export function detectLanguage(words: readonly string[], fallback: Language = 'en'): Language {
  const votes = new Map<Language, number>();
  let han = 0;
  let kana = 0;
  // A sample is enough: the first 2,000 words of a page decide as well as all of them.
  const n = Math.min(words.length, 2_000);
  for (let i = 0; i < n; i++) {
    const w = words[i]!;
    const c = w.charCodeAt(0);
    if (c > 0x2e7f) {
      if (KANA.test(w)) kana++;
      else if (HAN.test(w)) han++;
      continue;
    }
    const langs = MARKER_LANGS.get(w);
    if (langs) for (const lang of langs) votes.set(lang, (votes.get(lang) ?? 0) + 1);
  }
  let best: Language = fallback;
  let bestVotes = 0;
  for (const [lang, v] of votes) if (v > bestVotes || (v === bestVotes && lang === fallback)) { best = lang; bestVotes = v; }
  const cjk = han + kana;
  if (cjk > 0 && cjk >= bestVotes) return kana > 0 ? 'ja' : 'zh';
  return best;
}
