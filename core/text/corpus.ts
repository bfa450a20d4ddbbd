import type { Citation, SourcePage } from '../sources.js';
import { detectLanguage, type Language } from './language.js';
import { languageSample } from './language-sample.js';
import { splitSentences } from './sentences.js';
import { forEachWord, tokenize } from './tokenize.js';
import { lexiconFor } from './lexicon.js';
import { resourcesFor, type LanguageResources } from './resources.js';

/** Tunables of {@link buildCorpus}. */
export interface CorpusOptions {
  /** Force the language (stopwords, stemmer, common words) instead of detecting it ({@link detectPagesLanguage}). */
  readonly language?: Language;
  /** Reduce words to stems (light Snowball stemming) so "castles" finds "castle". Default true. */
  readonly stem?: boolean;
  /** A passage closes once it holds at least this many characters. Default 600 (three or four sentences). */
  readonly passageChars?: number;
  /** A paragraph shorter than this (a heading, a label) joins the next paragraph's passage. Default 120. */
  readonly minParagraphChars?: number;
  /** Longer "sentences" (text without punctuation) are cut at a space near this length. Default 1,000. */
  readonly maxSentenceChars?: number;
}

/** One sentence of a page: the unit an extractive answer quotes. */
export interface CorpusSentence {
  readonly text: string;
  /** Index into `corpus.passages`. */
  readonly passage: number;
  /** Term ids (stems, stopwords included) in reading order. */
  readonly terms: Int32Array;
  /** Index of its paragraph (a block between blank lines) across the corpus: a heading is a paragraph of its own. */
  readonly paragraph: number;
}

/** A few consecutive sentences of one page, keeping the page's url and title for citation. */
export interface Passage {
  /** Index into `corpus.pages`. */
  readonly page: number;
  readonly url: string;
  readonly title: string;
  readonly text: string;
  /** Its sentences are `corpus.sentences[firstSentence .. firstSentence + sentenceCount - 1]`. */
  readonly firstSentence: number;
  readonly sentenceCount: number;
}

/** Pages turned into passages and sentences, with the vocabulary the grounding gate and retrieval share. */
export interface Corpus {
  readonly language: Language;
  /**
   * The language resources the corpus was built with (its pack's, or the fallback when the pack was not loaded):
   * questions are analysed, and words weighed, with these for the corpus's whole life.
   */
  readonly resources: LanguageResources;
  readonly pages: readonly Citation[];
  readonly passages: readonly Passage[];
  readonly sentences: readonly CorpusSentence[];
  /** Every term (stem) of the pages' text and titles → its id. */
  readonly vocabulary: ReadonlyMap<string, number>;
  /** By term id: the term itself. */
  readonly terms: readonly string[];
  /** By term id: how many passages contain it (a page's title counts as part of its first passage). */
  readonly documentFrequency: Int32Array;
  /** By term id: occurrences in the pages' text. */
  readonly termFrequency: Int32Array;
  /** The passages containing term `id` (titles count for the page's first passage), ascending. */
  passagesWith(id: number): Int32Array;
  /** How often term `id` occurs in each passage of `passagesWith(id)`, in the same order. */
  passageCounts(id: number): Int32Array;
  /** By page: its number of words (title included). */
  readonly pageTokenCount: Int32Array;
  /** Number of words (tokens) in the pages' text. */
  readonly tokenCount: number;
  /** By page: the term ids of its title. */
  readonly titleTerms: readonly Int32Array[];
  /** The term ids of passage `i`: its sentences', plus its page's title on a page's first passage. */
  passageTerms(i: number): Int32Array;
  /** Total characters of the pages' text. */
  readonly chars: number;
  /** Normalises a question (or any text) exactly as the pages were: `words` for stopword checks, `terms` to match. */
  analyze(text: string): { readonly words: string[]; readonly terms: string[] };
}

/**
 * Builds the corpus of `pages`: sentences grouped into passages of a few sentences (never across pages),
 * the vocabulary of stems with passage frequencies, in the pages' detected language. Synchronous and linear in
 * the text: every word is normalised, looked up and appended to one flat array of term ids, of which sentences
 * and passages are views. It uses the language's resources as loaded now: for a language whose pack is not
 * loaded (see prepareCorpus / loadLanguage), the fallback — no stemming, no stopwords but question words, no
 * common words — for this corpus's whole life.
 */
export function buildCorpus(pages: readonly SourcePage[], options: CorpusOptions = {}): Corpus {
  const steps = corpusSteps(pages, options);
  for (;;) {
    const step = steps.next(false);
    if (step.done) return step.value;
  }
}

/**
 * {@link buildCorpus} in slices: `pause` is awaited after each page (a browser host yields to the main thread there,
 * so a 100-page corpus is no long task — issue 12). The same corpus as buildCorpus. `pages` may grow until the
 * last pause: pages appended before `pause` resolves are built in too. Safe beside other builds: after
 * each pause the shared lexicon's cache of ids is started afresh, so another build in between cannot lend its ids.
 */
export async function buildCorpusSliced(pages: readonly SourcePage[], options: CorpusOptions, pause: () => Promise<void>): Promise<Corpus> {
  const steps = corpusSteps(pages, options);
  let paused = false;
  for (;;) {
    const step = steps.next(paused);
    if (step.done) return step.value;
    await pause();
    paused = true;
  }
}

/** buildCorpus's work, one page per step; `next(true)` says the caller paused (other builds may have run). */
function* corpusSteps(pages: readonly SourcePage[], options: CorpusOptions): Generator<void, Corpus, boolean> {
  const passageChars = options.passageChars ?? 600;
  const minParagraph = options.minParagraphChars ?? 120;
  const maxSentence = options.maxSentenceChars ?? 1_000;
  const language = options.language ?? detectPagesLanguage(pages);
  const resources = resourcesFor(language);
  const stem = options.stem === false ? (w: string): string => w : resources.stem;

  const vocabulary = new Map<string, number>();
  const terms: string[] = [];
  const lexicon = lexiconFor(resources, options.stem !== false);
  lexicon.begin();
  let buf = new Int32Array(4096);
  let len = 0;
  const pushRange = (s: string, start: number, end: number): void => {
    const g = lexicon.indexOf(s, start, end);
    let id = lexicon.localId(g);
    if (id < 0) {
      const t = lexicon.stemOf(g);
      const known = vocabulary.get(t);
      if (known === undefined) { id = terms.length; vocabulary.set(t, id); terms.push(t); } else id = known;
      lexicon.setLocalId(g, id);
    }
    if (len === buf.length) { const b = new Int32Array(len * 2); b.set(buf); buf = b; }
    buf[len++] = id;
  };
  const push = (word: string): void => pushRange(word, 0, word.length);

  // Ranges into `buf`: a sentence is [from, to); a passage is [from, to) and includes its page title on the first.
  const sRanges: number[] = [];
  const sTexts: string[] = [];
  const sPassage: number[] = [];
  const sParagraph: number[] = [];
  let paragraph = -1;
  const pRanges: number[] = [];
  const passages: Passage[] = [];
  const titleRanges: number[] = [];
  let chars = 0;

  // `pages.length` is read after each pause: a caller may append pages while the corpus is built (the SDK's crawl
  // builds it so while pages arrive; its pause waits for the next page or the crawl's end).
  for (let p = 0; ; p++) {
    if (p > 0 && (yield)) lexicon.begin();
    if (p >= pages.length) break;
    const page = pages[p]!;
    chars += page.text.length;
    const titleFrom = len;
    forEachWord(page.title, push, pushRange);
    titleRanges.push(titleFrom, len);
    let pFrom = titleFrom; // the title belongs to the page's first passage
    let first = sTexts.length;
    let pChars = 0;
    const close = (): void => {
      const count = sTexts.length - first;
      if (count > 0) {
        // One sentence a line, a blank line between paragraphs: whoever splits the passage again (the server's
        // answerer, a model's prompt) keeps the boundaries, even for lines without punctuation such as table rows,
        // and still tells a heading (a paragraph of its own) from a list item.
        let text = sTexts[first]!;
        for (let i = first + 1; i < sTexts.length; i++) text += (sParagraph[i] === sParagraph[i - 1] ? '\n' : '\n\n') + sTexts[i]!;
        passages.push({ page: p, url: page.url, title: page.title, text, firstSentence: first, sentenceCount: count });
        pRanges.push(pFrom, len);
      }
      pFrom = len;
      first = sTexts.length;
      pChars = 0;
    };
    for (const para of page.text.split(/\n[ \t\r\f\v]*\n/)) {
      paragraph++;
      for (const s of splitSentences(para)) {
        for (const piece of capLength(s, maxSentence)) {
          const from = len;
          forEachWord(piece, push, pushRange);
          if (len === from) continue;
          sRanges.push(from, len);
          sTexts.push(piece);
          sPassage.push(passages.length);
          sParagraph.push(paragraph);
          pChars += piece.length + 1;
          if (pChars >= passageChars) close();
        }
      }
      if (pChars >= minParagraph) close();
    }
    close();
  }

  const nTerms = terms.length;
  const df = new Int32Array(nTerms);
  const tf = new Int32Array(nTerms);
  const lastSeen = new Int32Array(nTerms).fill(-1);
  for (let pi = 0; pi < passages.length; pi++) {
    for (let i = pRanges[2 * pi]!, end = pRanges[2 * pi + 1]!; i < end; i++) {
      const id = buf[i]!;
      if (lastSeen[id] !== pi) { lastSeen[id] = pi; df[id]!++; }
    }
  }
  // Passage postings as compressed sparse rows: offsets by term, then the passage ids, no array per term.
  const start = new Int32Array(nTerms + 1);
  for (let id = 0; id < nTerms; id++) start[id + 1] = start[id]! + df[id]!;
  const fill = start.slice(0, nTerms);
  const post = new Int32Array(start[nTerms]!);
  const postCount = new Int32Array(start[nTerms]!);
  const pageTokenCount = new Int32Array(pages.length);
  lastSeen.fill(-1);
  for (let pi = 0; pi < passages.length; pi++) {
    pageTokenCount[passages[pi]!.page]! += pRanges[2 * pi + 1]! - pRanges[2 * pi]!;
    for (let i = pRanges[2 * pi]!, end = pRanges[2 * pi + 1]!; i < end; i++) {
      const id = buf[i]!;
      if (lastSeen[id] !== pi) { lastSeen[id] = pi; post[fill[id]!] = pi; postCount[fill[id]!++] = 1; } else postCount[fill[id]! - 1]!++;
    }
  }
  let tokenCount = 0;
  const sentences: CorpusSentence[] = sTexts.map((text, i) => {
    const terms = buf.subarray(sRanges[2 * i]!, sRanges[2 * i + 1]!);
    for (let k = 0; k < terms.length; k++) tf[terms[k]!]!++;
    tokenCount += terms.length;
    return { text, passage: sPassage[i]!, terms, paragraph: sParagraph[i]! };
  });

  return {
    language,
    resources,
    pages: pages.map((p) => ({ url: p.url, title: p.title })),
    passages,
    sentences,
    vocabulary,
    terms,
    documentFrequency: df,
    termFrequency: tf,
    passagesWith: (id: number) => post.subarray(start[id]!, start[id + 1]!),
    passageCounts: (id: number) => postCount.subarray(start[id]!, start[id + 1]!),
    pageTokenCount,
    tokenCount,
    titleTerms: pages.map((_, p) => buf.subarray(titleRanges[2 * p]!, titleRanges[2 * p + 1]!)),
    passageTerms: (i: number) => buf.subarray(pRanges[2 * i]!, pRanges[2 * i + 1]!),
    chars,
    analyze(text: string) {
      const words = tokenize(text);
      return { words, terms: words.map(stem) };
    },
  };
}

/** The language buildCorpus detects for `pages` (from the start of their text). */
export function detectPagesLanguage(pages: readonly SourcePage[]): Language {
  return detectLanguage(tokenize(languageSample(pages)));
}

function* capLength(s: string, maxChars: number): Generator<string> {
  // At least one character per piece, so every step shortens `rest` whatever limit a caller passes.
  const max = Math.max(1, Math.floor(maxChars));
  let rest = s;
  while (rest.length > max) {
    let cut = rest.lastIndexOf(' ', max);
    if (cut < max / 2) cut = max;
    yield rest.slice(0, cut).trim();
    rest = rest.slice(cut).trim();
  }
  if (rest !== '') yield rest;
}
