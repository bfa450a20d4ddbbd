import type { Corpus } from '../text/corpus.js';
import type { LanguageResources } from '../text/resources.js';
import { commonRank } from '../text/common-words.js';
import { GROUNDING_DEFAULTS } from './defaults.js';
import { holds } from './postings.js';

/** A content word of the question: its normalised form, its term id in the corpus (if any), its general rank. */
export interface ContentWord { readonly word: string; readonly id: number | undefined; readonly rank: number }

/** One page's evidence for a question (a page holding at least one of its content words). */
export interface PageVerdict {
  readonly page: number;
  readonly evidence: number;
  readonly matched: readonly string[];
  /** By content word: how many of the page's passages hold it. */
  readonly df: Int32Array;
}

/**
 * The evidence that the question is about each page holding at least one of its content words. With `titleTopic`, a
 * word of the page's title counts at least two words' worth (2 × `onTopicRate`): the title is the page's own word for
 * its subject, however common the word or long the page (session 11).
 */
export function pageVerdicts(corpus: Corpus, content: readonly ContentWord[], names: ReadonlySet<string>, titleTopic = false): PageVerdict[] {
  const { onTopicRate, countCap, passageWeight, missingNamePenalty } = GROUNDING_DEFAULTS;
  const n = corpus.passages.length;
  if (n === 0) return [];
  let score = scratch.get(corpus);
  if (!score) { score = new Float64Array(n); scratch.set(corpus, score); }
  const m = content.length;
  const pages = corpus.pages.length;
  const counts = new Int32Array(pages * m); // [page * m + k]: occurrences of content word k in page
  const pageDf = new Int32Array(pages * m); // [page * m + k]: passages of the page holding content word k
  const bestPassage = new Float64Array(pages); // best passage co-occurrence by page
  const pagesHit: number[] = [];
  const touched: number[] = [];
  content.forEach((c, k) => {
    if (c.id === undefined) return;
    const list = corpus.passagesWith(c.id);
    const occ = corpus.passageCounts(c.id);
    // Questions are about one place of a page: the best passage's summed IDF of the question's words it holds.
    const idf = Math.log(1 + n / list.length);
    for (let i = 0; i < list.length; i++) {
      const p = list[i]!;
      if (score[p] === 0) touched.push(p);
      const at = corpus.passages[p]!.page * m;
      counts[at + k]! += occ[i]!;
      pageDf[at + k]!++;
      score[p]! += idf;
    }
  });
  const bestAt = new Int32Array(pages); // by page: its best passage (valid for the pages hit)
  for (const p of touched) {
    const page = corpus.passages[p]!.page;
    if (bestPassage[page] === 0) pagesHit.push(page);
    if (score[p]! > bestPassage[page]!) { bestPassage[page] = score[p]!; bestAt[page] = p; }
    score[p] = 0;
  }
  // A word absent from a page costs the same on every page; only present words need the logarithm.
  let absent = 0;
  for (const c of content) absent -= onTopicRate + (names.has(c.word) ? missingNamePenalty : 0);
  const out: PageVerdict[] = [];
  for (const page of pagesHit) {
    const length = Math.max(corpus.pageTokenCount[page]!, 1);
    const matched: string[] = [];
    let evidence = absent + passageWeight * bestPassage[page]!;
    for (let k = 0; k < m; k++) {
      const count = Math.min(counts[page * m + k]!, countCap);
      if (count === 0) continue;
      const c = content[k]!;
      // Poisson log-likelihood ratio of the word's count in the page: "the question is about this page"
      // (rate λ + onTopicRate) against "it is not" (rate λ, the word's general frequency over the page's length).
      const lambda = (length * 0.1) / c.rank; // Zipf: p(rank r) ≈ 0.1 / r
      let llr = count * Math.log((lambda + onTopicRate) / lambda) - onTopicRate;
      // A word of the page's title: the page names its subject with it. On a long page a common word's capped count
      // says little (a word of rank 700 in nearly every passage of a 4,000-word page earns 2.5 nats, one of rank 2,000
      // on an 18,000-word page 1.5) — the title says what the page is about (session 11, `titleTopic`).
      if (titleTopic && llr < 2 * onTopicRate && corpus.titleTerms[page]!.includes(c.id!)) llr = 2 * onTopicRate;
      evidence += llr + onTopicRate + (names.has(c.word) ? missingNamePenalty : 0); // undo the "absent" share
      // Matched: more frequent on the page than chance, or held by the page's best passage — the place the
      // question's words meet. On a long page (a catalogue) a word of one item occurs no more often than its
      // general frequency predicts over the whole page, yet the question is about that item's passage.
      if (llr > 0 || holds(corpus, c.id!, bestAt[page]!)) matched.push(c.word);
    }
    out.push({ page, evidence, matched, df: pageDf.subarray(page * m, page * m + m) });
  }
  return out;
}

/** A content word's general-language rank (the page language's list, backed by English's); numbers and unknown words get fixed ranks. */
export function rankOf(term: string, word: string, res: LanguageResources): number {
  if (/^\d/.test(word)) return 5_000; // a year or an amount: fairly specific, not a topic on its own
  // English words are common on every web page, so the English list backs the page language's — but only for a
  // stemmed corpus: the fallback's unstemmed words would meet Porter stems by accident.
  const r = Math.min(res.commonRank(term), res.language === 'en' || !res.loaded ? Infinity : commonRank(term, 'en'));
  return Number.isFinite(r) ? r : GROUNDING_DEFAULTS.unknownRank;
}

// One score array per corpus, reused by every decision (the gate is synchronous, so never shared mid-use).
const scratch = new WeakMap<Corpus, Float64Array>();
