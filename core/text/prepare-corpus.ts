import type { SourcePage } from '../sources.js';
import { buildCorpus, buildCorpusSliced, detectPagesLanguage, type Corpus, type CorpusOptions } from './corpus.js';
import { loadLanguage } from './load-language.js';

/**
 * The hosts' way to a corpus: detects the pages' language (or takes `options.language`), loads its pack, then
 * builds the corpus with it. When the pack cannot be fetched (a chunk lost to the network), the corpus is built
 * with the fallback resources (`corpus.resources.loaded === false`): a page that works less precisely beats no
 * assistant at all.
 */
export async function prepareCorpus(pages: readonly SourcePage[], options: CorpusOptions & { readonly pause?: () => Promise<void> } = {}): Promise<Corpus> {
  const language = options.language ?? detectPagesLanguage(pages);
  try {
    await loadLanguage(language);
  } catch {
    // Degrade rather than fail: the fallback is deterministic and documented on buildCorpus.
  }
  const { pause, ...rest } = options;
  // `pause`: built in slices, one page each, awaiting it between them (buildCorpusSliced).
  return pause ? buildCorpusSliced(pages, { ...rest, language }, pause) : buildCorpus(pages, { ...rest, language });
}
