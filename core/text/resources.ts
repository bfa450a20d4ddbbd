import type { Language } from './language.js';
import { PACK as EN } from './packs/en-core.js';
import { QUESTION_WORDS } from './question-words.js';
import { createStemmer } from './stem.js';
import { tokenize } from './tokenize.js';

/** What a language pack brings (core/text/packs/<lang>.ts): a raw stemmer, stopwords, and common words. */
export interface LanguagePack {
  readonly stem?: (word: string) => string;
  readonly stopwords: readonly string[];
  /**
   * The stems of the language's most frequent words, made with `stem`, space-separated, most frequent first; an
   * empty slot where a word's stem ranked earlier (core/text/common-words/, by scripts/text/build-common-words.ts).
   */
  readonly commonStems?: string;
  /** The words the grounding gate reads questions and passages with, in this language (core/grounding). */
  readonly grounding?: GroundingWords;
}

/**
 * Space-separated word lists of one language for the grounding gate's answerability check and page-self
 * phrasings (core/grounding/intent.ts, page-question.ts, answer-types.ts): general vocabulary, never taken from
 * evaluation questions. Normalised through the tokenizer when first used.
 */
export interface GroundingWords {
  /** Page questions (core/grounding/page-question.ts): "résume", "parle", "cette", "svp". */
  readonly pageIntent?: string;
  readonly pageAbout?: string;
  readonly pageDeictic?: string;
  readonly pageFiller?: string;
  /** Nouns naming a kind of page: "article", "story", "review". */
  readonly selfNouns?: string;
  /** Nouns naming what a page argues or teaches ("the *thesis* of the column", "the story's *moral*"): like selfNouns. */
  readonly selfTopics?: string;
  /** Verbs asking who wrote the page or what it reviews: "wrote", "reviewed". */
  readonly selfVerbs?: string;
  /** Articles and demonstratives before such a noun ("the story", not "how do I post"). */
  readonly determiners?: string;
  /** One-word interrogatives of an amount: "combien", "cuántos". */
  readonly amount?: string;
  /** Words that ask for a price: "cost", "prix", "kostet". */
  readonly money?: string;
  /** Nouns that ask for opening hours or a timetable: "hours", "horaires". */
  readonly hours?: string;
  /** Verbs of opening and closing ("open", "ferme"): opening hours when asked with a when-word or a clock word. */
  readonly opening?: string;
  /** Words asking for a time of day: "time" ("what time does it open"), "heure", "hora", "Uhr". */
  readonly clockAsk?: string;
  /** Words asking how to reach someone: "contact", "contacter", "kontaktieren" (the answer: an address or a number). */
  readonly contact?: string;
  /** Means of contact that ask for one when followed by a `contactDetail` word: "email" ("email address"), "phone". */
  readonly contactMeans?: string;
  /** "address", "number": what a means of contact is asked for by ("phone number"). */
  readonly contactDetail?: string;
  /** Nouns asking for a postal address ("what is your *address*?", "votre *adresse*"); "email address" is a contact. */
  readonly postal?: string;
  /** Second-person possessives ("*your* email", "*votre* adresse"): a contact or an address asked of the site itself. */
  readonly yours?: string;
  /** Interrogatives of a time: "when", "quand". */
  readonly when?: string;
  /** Words that open a how-to question before its verb: "comment", "cómo". */
  readonly howto?: string;
  /** Words skipped between a how-to lead and its verb: "puedo", "peux". */
  readonly modals?: string;
  /**
   * Things a visitor asks a site for, which a page either offers or does not: a recipe, tickets, a visa, a menu, a
   * booking, a refund ("recipe", "tickets", "visa"). A question naming one is answered only where the pages write it.
   */
  readonly asked?: string;
  /**
   * Words asking what something means ("what does X *mean*", "que *signifie*"), and the nouns such a question names
   * its thing by ("the *word* X", "le *terme*"): they only frame it.
   */
  readonly define?: string;
  readonly defined?: string;
  /**
   * Words asking about the present ("right *now*", "the *current* rate") and about the next occurrence ("the *next*
   * game", "upcoming"): the answering passages must speak of that time too (hold a word of the same list).
   */
  readonly current?: string;
  readonly upcoming?: string;
  /** More words a passage speaks of the present with ("*modern* Turkey", "*still*"), beside `current`'s. */
  readonly currentText?: string;
  /** In a passage, words of a price ("euros", "gratuit"), of opening hours (weekdays), of a time (months, "hier"), of an amount ("douze"). */
  readonly currency?: string;
  readonly clock?: string;
  readonly dates?: string;
  readonly numbers?: string;
}

export type GroundingWordList = keyof GroundingWords;

/**
 * The text resources of one language, as one value that never changes: a corpus keeps the value it was built
 * with, so its questions are stemmed, and its words weighed, the same way whatever packs load later.
 */
export interface LanguageResources {
  readonly language: Language;
  /**
   * False until the language's pack loads (always true for English). The fallback then in force, never mixed
   * with the pack: no stemming, no stopwords but the question words, no common-word list (every word specific).
   */
  readonly loaded: boolean;
  /** Stems a normalised word (cached); the identity for languages without a stemmer. */
  readonly stem: (word: string) => string;
  /** {@link stem} without the cache, for callers that see each word once (the lexicon). */
  readonly stemOnce: (word: string) => string;
  /** The words that carry no topic (articles, pronouns, auxiliaries…), normalised like page words. */
  readonly stopwords: ReadonlySet<string>;
  /** True for a stopword of this language or a question word of any language. */
  isStopword(word: string): boolean;
  /** True when {@link commonRank} has a list to rank from. */
  readonly hasCommonWords: boolean;
  /** Rank (1 = most frequent) of a stem in the common-word list, or Infinity when absent or without a list. */
  commonRank(term: string): number;
  /** The grounding gate's words of this language (normalised), by list; empty without the pack. */
  groundingWords(list: GroundingWordList): ReadonlySet<string>;
}

interface Entry {
  readonly res: LanguageResources;
  clear(): void;
  setGrounding(words: GroundingWords): void;
}

const registry = new Map<Language, Entry>();
install('en', EN);

/** The current resources of `lang`: its pack's when loaded, the fallback otherwise. */
export function resourcesFor(lang: Language): LanguageResources {
  let entry = registry.get(lang);
  if (!entry) entry = install(lang, null);
  return entry.res;
}

/** True when `lang`'s pack is loaded (English always is). */
export function isLanguageLoaded(lang: Language): boolean {
  return registry.get(lang)?.res.loaded === true;
}

/**
 * Makes `pack` the resources of `lang`. Caches keyed by language (stems, the lexicon, common-word ranks) belong
 * to the resources value, so they start afresh; corpora already built keep their own. A second install of a
 * loaded language is ignored, keeping its warm caches.
 */
export function installPack(lang: Language, pack: LanguagePack): LanguageResources {
  return isLanguageLoaded(lang) ? registry.get(lang)!.res : install(lang, pack).res;
}

/**
 * Gives `lang` (loaded or not) the grounding gate's word lists; its other resources stay as they are. English is
 * installed without them (packs/en-core.ts): core/grounding installs packs/en.ts's when it loads, so only hosts that
 * gate carry them. Lists built from the previous words are dropped.
 */
export function installGroundingWords(lang: Language, words: GroundingWords): void {
  (registry.get(lang) ?? install(lang, null)).setGrounding(words);
}

/** Back to English only (tests; a host freeing memory). Corpora already built keep the resources they have. */
export function unloadLanguages(): void {
  for (const lang of [...registry.keys()]) if (lang !== 'en') registry.delete(lang);
}

/** Empties every language's stem cache. */
export function clearStemCaches(): void {
  for (const entry of registry.values()) entry.clear();
}

function install(lang: Language, pack: LanguagePack | null): Entry {
  const stemmer = createStemmer(pack?.stem);
  let grounding = pack?.grounding;
  let stopwords: ReadonlySet<string> | undefined;
  let ranks: ReadonlyMap<string, number> | undefined;
  const list = pack?.commonStems;
  const stopwordsOf = (): ReadonlySet<string> => {
    if (!stopwords) {
      const s = new Set<string>();
      // Lists are normalised through the same tokenizer as pages, so "été" matches the folded "ete".
      for (const w of pack?.stopwords ?? []) for (const t of tokenize(w)) s.add(t);
      stopwords = s;
    }
    return stopwords;
  };
  const lexicon = new Map<GroundingWordList, ReadonlySet<string>>();
  const res: LanguageResources = {
    language: lang,
    loaded: pack !== null,
    stem: stemmer.stem,
    stemOnce: stemmer.stemOnce,
    get stopwords() { return stopwordsOf(); },
    isStopword: (word) => QUESTION_WORDS.has(word) || stopwordsOf().has(word),
    hasCommonWords: list !== undefined,
    commonRank(term) {
      if (list === undefined) return Infinity;
      ranks ??= buildRanks(list);
      return ranks.get(term) ?? Infinity;
    },
    groundingWords(list) {
      let set = lexicon.get(list);
      if (!set) {
        // In the answer-type lists, a Chinese or Japanese entry the segmenter would cut ("どうやって" → "どう"
        // "やって", "何人" → "何" "人") stays whole: its pieces alone mean something else ("何" is any "what"), and
        // the gate finds such entries inside the joined question (core/grounding/intent.ts).
        const whole = WHOLE_CJK.has(list);
        set = new Set((grounding?.[list] ?? '').split(/\s+/).filter(Boolean).flatMap((w) => {
          const ts = tokenize(w);
          return whole && ts.length > 1 && CJK_WORD.test(w) ? [ts.join('')] : ts;
        }));
        lexicon.set(list, set);
      }
      return set;
    },
  };
  const entry: Entry = { res, clear: stemmer.clear, setGrounding: (words) => { grounding = words; lexicon.clear(); } };
  registry.set(lang, entry);
  return entry;
}

const CJK_WORD = /[\u3040-\u30ff\u3400-\u9fff]/;
const WHOLE_CJK: ReadonlySet<GroundingWordList> = new Set(['amount', 'money', 'hours', 'when', 'howto', 'opening', 'clockAsk']);

// Terms are stems, so "centuries" and "century" share a rank: the first (most frequent) form's, the list's stem.
function buildRanks(list: string): ReadonlyMap<string, number> {
  const map = new Map<string, number>();
  let rank = 0;
  for (const s of list.split(' ')) {
    rank++;
    if (s !== '' && !map.has(s)) map.set(s, rank);
  }
  return map;
}

/** The current (cached) stemmer of `lang`: the identity until its pack loads. A corpus's own is `corpus.resources.stem`. */
export function stemmerFor(lang: Language): (word: string) => string {
  return resourcesFor(lang).stem;
}
