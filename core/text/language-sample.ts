import type { SourcePage } from '../sources.js';

/** Characters of text that decide the pages' language: a few hundred words do as well as the whole text. */
export const LANGUAGE_SAMPLE_CHARS = 2_500;

/**
 * The text the pages' language is detected from (core/text/corpus.ts detectPagesLanguage): the start of the pages'
 * text in order, cut at a word, until {@link LANGUAGE_SAMPLE_CHARS}. Once it reaches that length, pages added after
 * the ones given cannot change it: a crawl can settle the language before its last page (sdk/site-context.ts).
 */
export function languageSample(pages: readonly SourcePage[]): string {
  let out = '';
  for (const p of pages) {
    out += p.title + '\n' + (p.text.length > LANGUAGE_SAMPLE_CHARS ? p.text.slice(0, p.text.lastIndexOf(' ', LANGUAGE_SAMPLE_CHARS) + 1 || LANGUAGE_SAMPLE_CHARS) : p.text) + '\n';
    if (out.length >= LANGUAGE_SAMPLE_CHARS) break;
  }
  return out;
}
