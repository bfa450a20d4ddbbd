import { expect } from 'chai';
import { build } from 'esbuild';
import { loadReadability } from '../../../adapters/browser/readability-loader.js';

describe('loadReadability', () => {
  it('resolves to the Readability constructor, loading the module once', async () => {
    const first = loadReadability();
    expect(loadReadability()).to.equal(first);
    expect(await first).to.be.a('function');
    expect((await first).name).to.equal('Readability');
  });

  it('keeps Readability out of the extraction entry: a bundler makes it a chunk of its own', async () => {
    const result = await build({
      entryPoints: ['adapters/browser/extract-from-html.ts'], bundle: true, splitting: true, format: 'esm', outdir: 'out', write: false, minify: true,
    });
    const entry = result.outputFiles.find((f) => f.path.endsWith('extract-from-html.js'))!;
    const chunks = result.outputFiles.filter((f) => f !== entry);
    expect(entry.text).not.to.include('_grabArticle');
    expect(chunks.some((c) => c.text.includes('_grabArticle'))).to.equal(true);
    // Readability.js alone: the package index would add isProbablyReaderable (its `visibilityChecker` option), which
    // Kit never calls, to the chunk every visitor downloads before a first answer.
    expect(chunks.some((c) => c.text.includes('visibilityChecker'))).to.equal(false);
    expect(entry.text.length).to.be.below(8_000);
  });
});
