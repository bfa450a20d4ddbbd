/**
 * A digest of everything core/text's analysis produces for real pages: tokens, sentences, stopword flags, and the
 * whole corpus (sentences, passages, term strings and ids, frequencies, postings, title terms, questions analysed
 * like the pages), built cold (caches forgotten before each page), in site order (one shared lexicon), per
 * language over several pages at once, and unstemmed. A change that alters a single token, stem or sentence changes
 * it. test/core/text/analysis-digest.test.ts compares it with the digest main's code printed before core/text's
 * analysis was made cheaper (issue 16.4); the page texts are digested apart, so a change of the extraction
 * (scripts/eval/extraction.ts) is told from a change of the analysis.
 *
 * Run: npx tsx scripts/text/analysis-digest.ts [page …]   (default: every page of ../shared/eval/pages)
 */
import { createHash, type Hash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildCorpus, clearTextCaches, loadAllLanguages, resourcesFor, splitSentences, tokenize, LANGUAGES, type Corpus } from '../../core/text/index.js';
import type { SourcePage } from '../../core/sources.js';
import { htmlToText } from '../eval/extraction.js';
import { SHARED_EVAL } from '../eval/qa-data.js';

export const PAGES_DIR = join(SHARED_EVAL, 'pages');

/** The page of ../shared/eval/pages/`name` as the retrieval benchmark builds it: Readability's text, its title. */
export function evalPage(name: string): SourcePage {
  const dir = join(PAGES_DIR, name);
  const meta = JSON.parse(readFileSync(join(dir, 'expected-metadata.json'), 'utf8')) as { title?: string | null };
  return { url: `https://pages.example/${name}`, title: (meta.title ?? '').trim(), text: htmlToText(readFileSync(join(dir, 'expected.html'), 'utf8')) };
}

/** Every page name of ../shared/eval/pages with a reference text. */
export function evalPageNames(): string[] {
  return readdirSync(PAGES_DIR).filter((d) => existsSync(join(PAGES_DIR, d, 'expected.html'))).sort();
}

const SEP = '\u0001';

/** SHA-256 of the pages' texts and titles (the analysis's input). */
export function inputDigest(pages: readonly SourcePage[]): string {
  const h = createHash('sha256');
  for (const p of pages) h.update(`${p.url}${SEP}${p.title}${SEP}${p.text}${SEP}`);
  return h.digest('hex');
}

/** SHA-256 of core/text's whole analysis of `pages` (with every language pack loaded). */
export async function analysisDigest(pages: readonly SourcePage[]): Promise<string> {
  await loadAllLanguages();
  const h = createHash('sha256');
  const put = (...xs: unknown[]): void => { for (const x of xs) h.update(`${String(x)}${SEP}`); };
  // Stopword lists are normalised through the tokenizer.
  for (const lang of LANGUAGES) put(lang, [...resourcesFor(lang).stopwords].sort().join(' '));
  for (const p of pages) {
    const words = tokenize(p.text);
    const res = resourcesFor(buildCorpus([p]).language);
    put('tokens', words.join(' '), words.map((w) => (res.isStopword(w) ? 1 : 0)).join(''), tokenize(p.title).join(' '));
    put('sentences', splitSentences(p.text).join('\n'));
  }
  // Cold: every word and stem forgotten before each page.
  for (const p of pages) { clearTextCaches(); digestCorpus(h, buildCorpus([p])); }
  // Site order: page after page with the lexicon shared, as on a visitor's next page; then again, every word known.
  clearTextCaches();
  for (let pass = 0; pass < 2; pass++) for (const p of pages) digestCorpus(h, buildCorpus([p]));
  // Several pages of a language in one corpus; unstemmed; other passage sizes.
  const byLanguage = new Map<string, SourcePage[]>();
  for (const p of pages) { const l = buildCorpus([p]).language; byLanguage.set(l, [...(byLanguage.get(l) ?? []), p]); }
  for (const group of byLanguage.values()) digestCorpus(h, buildCorpus(group));
  clearTextCaches();
  for (const p of pages) digestCorpus(h, buildCorpus([p], { stem: false, passageChars: 300, minParagraphChars: 40, maxSentenceChars: 200 }));
  return h.digest('hex');
}

function digestCorpus(h: Hash, c: Corpus): void {
  const put = (...xs: unknown[]): void => { for (const x of xs) h.update(`${String(x)}${SEP}`); };
  const terms = (ids: Int32Array): string => Array.from(ids, (id) => c.terms[id]).join(' ');
  put(c.language, c.resources.loaded, c.chars, c.tokenCount, c.terms.join(' '), [...c.vocabulary].join(' '));
  put(c.documentFrequency.join(','), c.termFrequency.join(','), c.pageTokenCount.join(','));
  put(JSON.stringify(c.pages));
  for (const t of c.titleTerms) put(terms(t));
  for (const s of c.sentences) put(s.text, s.passage, s.paragraph, s.terms.join(','), terms(s.terms));
  c.passages.forEach((p, i) => put(p.page, p.url, p.title, p.text, p.firstSentence, p.sentenceCount, c.passageTerms(i).join(',')));
  for (let id = 0; id < c.terms.length; id++) put(c.passagesWith(id).join(','), c.passageCounts(id).join(','));
  // Questions are analysed as the pages were: a few of its own sentences stand in for them.
  for (const s of c.sentences.slice(0, 8)) { const a = c.analyze(s.text); put(a.words.join(' '), a.terms.join(' ')); }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const names = process.argv.length > 2 ? process.argv.slice(2) : evalPageNames();
  const pages = names.map(evalPage);
  console.log(`${pages.length} pages`);
  console.log(`input    ${inputDigest(pages)}`);
  console.log(`analysis ${await analysisDigest(pages)}`);
}
