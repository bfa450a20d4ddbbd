import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { analysisDigest, evalPage, inputDigest, PAGES_DIR } from '../../../scripts/text/analysis-digest.js';

// core/text's analysis is made cheaper without changing its output (issue 16.4): every token, stopword flag, stem,
// sentence, passage and frequency of a fixed set of real pages (mozilla/readability's test pages in
// ../shared/eval/pages: 8 languages, ASCII and not, CJK, tables, a 38 kB RFC) must digest to what main's code gave.
// EXPECTED was printed by main's code at 5b70c6f (before the change), with
//   npx tsx scripts/text/analysis-digest.ts <PAGES…>
// (over all 130 pages it printed input 3e11aff3…06ce, analysis e06c7bb9…5c74). Re-record only for an intended
// change of the analysis, and say so in the commit.
const PAGES = [
  'aktualne', 'cnet-svg-classes', 'folha', 'gmw', 'heise', 'hukumusume', 'la-nacion', 'lemonde-1', 'liberation-1', 'nytimes-5',
  'pixnet', 'qq', 'yahoo-4', 'youth', 'missing-paragraphs', 'wikipedia-3', 'guardian-1', 'blogger', 'ietf-1', 'medium-1',
  'keep-tabular-data', 'v8-blog', 'mercurial', '002',
];
const EXPECTED = {
  input: '72170f4cfabf620b09ae2ec629da094791b6db593d80382b179a10eaebf0d352',
  analysis: '48518fe11e6fe079b447091e0cb1ff8b134388268919f426c516db2b338cecef',
};

describe('core/text analysis digest (real pages, as main analysed them)', function () {
  // The third-party evaluation data lives beside the project (../shared/eval, or KIT_SHARED_EVAL), not in it: a clone
  // without it skips this suite and says so, as the eval suites do.
  before(function () {
    if (!existsSync(PAGES_DIR)) {
      console.log(`      skipped: no evaluation pages at ${PAGES_DIR}`);
      this.skip();
    }
  });
  this.timeout(60_000);

  it('gives every token, stem, sentence and passage of the fixed pages exactly as before', async () => {
    const pages = PAGES.map(evalPage);
    // The input first: a change of the page texts (scripts/eval/extraction.ts) is not a change of the analysis.
    expect(inputDigest(pages), 'the page texts changed (extraction), not the analysis: re-record both digests').to.equal(EXPECTED.input);
    expect(await analysisDigest(pages)).to.equal(EXPECTED.analysis);
  });
});
