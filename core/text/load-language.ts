import { detectLanguage, LANGUAGES, type Language } from './language.js';
import { installPack, isLanguageLoaded, type LanguagePack } from './resources.js';
import { tokenize } from './tokenize.js';

const pending = new Map<Language, Promise<boolean>>();

/**
 * Loads the language pack of `lang` (stemmer, stopwords, common words: one lazily imported module a language,
 * 10–20 kB gzipped; English ships with core). Resolves true once loaded, false for a language without a pack;
 * rejects when the module cannot be fetched (a later call tries again). Corpora built before keep their resources.
 */
export function loadLanguage(lang: Language): Promise<boolean> {
  if (isLanguageLoaded(lang)) return Promise.resolve(true);
  let p = pending.get(lang);
  if (!p) {
    p = importPack(lang)
      .then((pack) => { if (pack) installPack(lang, pack); return pack !== null; })
      .finally(() => pending.delete(lang));
    pending.set(lang, p);
  }
  return p;
}

/** Loads every language pack: for hosts with no bundle to keep small (the server, evaluation, benchmarks). */
export async function loadAllLanguages(): Promise<void> {
  await Promise.all(LANGUAGES.map((lang) => loadLanguage(lang)));
}

/**
 * Detects the language of `text` (a question) as the gate and the retriever will, with `fallback` (the corpus's
 * language) when nothing votes, and loads its pack, so that a question in another language than the page's has its
 * own stopwords dropped. Resolves the language; a pack that cannot be fetched leaves the question words only.
 */
export async function loadLanguageOf(text: string, fallback: Language): Promise<Language> {
  const lang = detectLanguage(tokenize(text), fallback);
  try {
    await loadLanguage(lang);
  } catch {
    // The gate still works with the question words alone as that language's stopwords.
  }
  return lang;
}

// One dynamic import a language, so a bundler emits one chunk each and an English page fetches none.
function importPack(lang: Language): Promise<LanguagePack | null> {
  switch (lang) {
    case 'fr': return import(/* webpackChunkName: "kit-lang-fr" */ './packs/fr.js').then((m) => m.PACK);
    case 'de': return import(/* webpackChunkName: "kit-lang-de" */ './packs/de.js').then((m) => m.PACK);
    case 'es': return import(/* webpackChunkName: "kit-lang-es" */ './packs/es.js').then((m) => m.PACK);
    case 'pt': return import(/* webpackChunkName: "kit-lang-pt" */ './packs/pt.js').then((m) => m.PACK);
    case 'it': return import(/* webpackChunkName: "kit-lang-it" */ './packs/it.js').then((m) => m.PACK);
    case 'nl': return import(/* webpackChunkName: "kit-lang-nl" */ './packs/nl.js').then((m) => m.PACK);
    case 'zh': return import(/* webpackChunkName: "kit-lang-zh" */ './packs/zh.js').then((m) => m.PACK);
    case 'ja': return import(/* webpackChunkName: "kit-lang-ja" */ './packs/ja.js').then((m) => m.PACK);
    default: return Promise.resolve(null);
  }
}
