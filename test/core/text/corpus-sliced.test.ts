import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildCorpus, buildCorpusSliced, type Corpus } from '../../../core/text/corpus.js';
import { loadAllLanguages } from '../../../core/text/load-language.js';
import { prepareCorpus } from '../../../core/text/prepare-corpus.js';
import type { SourcePage } from '../../../core/sources.js';
import pages from '../../fixtures/grounding/pages.json' with { type: 'json' };

const P = Object.values(pages as Record<string, SourcePage>);
const WORDS = 'tent pack quilt stove trail ridge river camp permit weather boot pole stake repair shipping order weight fabric seam zipper'.split(' ');
/** English pages sharing one vocabulary in different orders, so two corpora give the same words different ids. */
const EN: SourcePage[] = Array.from({ length: 12 }, (_, i) => ({
  url: `https://a.test/${i}`, title: `Guide ${WORDS[(i * 7) % WORDS.length]}`,
  text: Array.from({ length: 6 }, (_, s) => `${Array.from({ length: 9 }, (_, w) => WORDS[(i * 13 + s * 5 + w * (i + 3)) % WORDS.length]).join(' ')}.`).join(' '),
}));

/** Everything a corpus holds, as plain data (its functions called for every term and passage). */
function snapshot(c: Corpus) {
  return {
    language: c.language, pages: c.pages, passages: c.passages, chars: c.chars, tokenCount: c.tokenCount,
    sentences: c.sentences.map((s) => ({ ...s, terms: [...s.terms] })),
    vocabulary: [...c.vocabulary], terms: c.terms, df: [...c.documentFrequency], tf: [...c.termFrequency],
    postings: c.terms.map((_, id) => [[...c.passagesWith(id)], [...c.passageCounts(id)]]),
    passageTerms: c.passages.map((_, i) => [...c.passageTerms(i)]),
    titleTerms: c.titleTerms.map((t) => [...t]), pageTokenCount: [...c.pageTokenCount],
  };
}

describe('buildCorpusSliced (issue 12: the corpus built a page per task)', () => {
  before(loadAllLanguages);

  it('pauses after each page and builds the same corpus as buildCorpus', async () => {
    let pauses = 0;
    const sliced = await buildCorpusSliced(P, {}, async () => { pauses++; });
    expect(pauses).to.equal(P.length);
    expect(snapshot(sliced)).to.deep.equal(snapshot(buildCorpus(P)));
  });

  it('builds in the pages appended during its pauses (the SDK appends pages as its crawl reads them)', async () => {
    const pages = P.slice(0, 1);
    const language = buildCorpus(P).language; // detected from the start of the text: given, as the SDK does
    let pauses = 0;
    const sliced = await buildCorpusSliced(pages, { language }, async () => {
      pauses++;
      await new Promise<void>((r) => setImmediate(r));
      if (pages.length < P.length) pages.push(P[pages.length]!);
    });
    expect(pauses).to.equal(P.length);
    expect(sliced.pages).to.have.length(P.length);
    expect(snapshot(sliced)).to.deep.equal(snapshot(buildCorpus(P, { language })));
  });

  it('is not corrupted by other builds, sliced or not, running in its pauses (the lexicon is shared)', async () => {
    const a = EN.filter((_, i) => i % 2 === 0);
    const b = EN.filter((_, i) => i % 2 === 1).reverse();
    const tick = () => new Promise<void>((r) => setImmediate(r));
    const [sa, sb] = await Promise.all([
      buildCorpusSliced(a, { language: 'en' }, async () => { buildCorpus(b.slice(0, 2), { language: 'en' }); await tick(); }),
      buildCorpusSliced(b, { language: 'en' }, tick),
    ]);
    expect(snapshot(sa)).to.deep.equal(snapshot(buildCorpus(a, { language: 'en' })));
    expect(snapshot(sb)).to.deep.equal(snapshot(buildCorpus(b, { language: 'en' })));
  });

  it('is what prepareCorpus builds when given a pause', async () => {
    let pauses = 0;
    const c = await prepareCorpus(P, { pause: async () => { pauses++; } });
    expect(pauses).to.be.greaterThan(0);
    expect(snapshot(c)).to.deep.equal(snapshot(await prepareCorpus(P)));
  });
});

describe('QUESTION_WORDS (issue 12: no Intl.Segmenter on pages that never need one)', () => {
  // A fresh process: the segmenter is created once per process, and another test may already have made it.
  const run = (body: string) => {
    const script = `
      let made = 0;
      const Seg = Intl.Segmenter;
      Intl.Segmenter = class extends Seg { constructor(...a) { super(...a); made++; } };
      const text = await import(${JSON.stringify(fileURLToPath(new URL('../../../core/text/index.ts', import.meta.url)))});
      const { checkGrounding } = await import(${JSON.stringify(fileURLToPath(new URL('../../../core/grounding/index.ts', import.meta.url)))});
      ${body}
      console.log(JSON.stringify({ made }));`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as { made: number };
  };

  it('creates none to load the text and grounding modules and answer an English page', () => {
    expect(run(`
      const corpus = await text.prepareCorpus([{ url: 'https://a.test/', title: 'Tents', text: 'The Ridgeline tent weighs 890 grams. What does it cost? It costs $300.' }]);
      if (!checkGrounding(corpus, 'How much does the Ridgeline tent weigh?').grounded) throw new Error('not grounded');
      if (!text.QUESTION_WORDS.has('what')) throw new Error('what');`)).to.deep.equal({ made: 0 });
  });

  it('still knows the interrogatives of unspaced scripts (made on the first such lookup)', () => {
    expect(run(`
      if (!text.QUESTION_WORDS.has('什么') || !text.QUESTION_WORDS.has('どこ')) throw new Error('cjk');
      if (text.QUESTION_WORDS.has('tent')) throw new Error('tent');`)).to.deep.equal({ made: 1 });
  });
});
