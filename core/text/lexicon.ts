import { clearStemCaches, type LanguageResources } from './resources.js';
import { clearSegmentedRuns } from './tokenize.js';
import { WordTable } from './word-table.js';

/**
 * Every surface word seen so far in one language, with its stem: shared by all corpora of that language, so a
 * page's known words cost one hash probe and no stemming. Per-corpus term ids are kept beside, stamped with
 * the corpus being built (buildCorpus is synchronous, so one build at a time).
 */
export interface Lexicon {
  /** Global index of `s[start, end)`, adding the word when new. */
  indexOf(s: string, start: number, end: number): number;
  /** The stem of a global index. */
  stemOf(g: number): string;
  /** Starts a new corpus build: forgets every corpus-local id. */
  begin(): void;
  /** The corpus-local id of `g`, or -1 when the current build has not met it yet. */
  localId(g: number): number;
  setLocalId(g: number, id: number): void;
}

// A lexicon this large is reset rather than grown: a long-lived page would otherwise keep every word it ever saw.
const MAX_WORDS = 500_000;
const lexicons = new Map<string, { readonly res: LanguageResources; readonly lex: Lexicon }>();

/** Forgets every word, stem and segmented run seen so far (e.g. when the SDK is destroyed, or to measure a cold build). */
export function clearLexicons(): void {
  lexicons.clear();
  clearStemCaches();
  clearSegmentedRuns();
}

/**
 * The shared lexicon of a language's resources, stemmed or not. A lexicon belongs to one resources value: when a
 * language pack loads, the language's next corpus starts a new one, never mixing stems of the fallback and the pack.
 */
export function lexiconFor(res: LanguageResources, stem: boolean): Lexicon {
  const key = `${res.language}:${stem}`;
  let entry = lexicons.get(key);
  if (!entry || entry.res !== res) {
    entry = { res, lex: createLexicon(stem ? res.stemOnce : (w) => w) };
    lexicons.set(key, entry);
  }
  return entry.lex;
}

function createLexicon(stem: (w: string) => string): Lexicon {
  let table = new WordTable();
  let stems: string[] = [];
  let stamp = new Int32Array(1 << 10);
  let local = new Int32Array(1 << 10);
  let epoch = 0;
  return {
    indexOf(s, start, end) {
      const h = WordTable.hash(s, start, end);
      const g = table.get(s, start, end, h);
      if (g >= 0) return g;
      const word = start === 0 && end === s.length ? s : s.slice(start, end);
      const id = stems.length;
      stems.push(stem(word));
      table.set(word, h, id);
      if (id >= stamp.length) {
        const st = new Int32Array(stamp.length * 2); st.set(stamp); stamp = st;
        const lo = new Int32Array(local.length * 2); lo.set(local); local = lo;
      }
      return id;
    },
    stemOf: (g) => stems[g]!,
    begin() {
      epoch++;
      if (stems.length > MAX_WORDS || epoch === 0x7fffffff) {
        table = new WordTable();
        stems = [];
        stamp = new Int32Array(1 << 10);
        local = new Int32Array(1 << 10);
        epoch = 1;
      }
    },
    localId: (g) => (stamp[g] === epoch ? local[g]! : -1),
    setLocalId(g, id) { stamp[g] = epoch; local[g] = id; },
  };
}
