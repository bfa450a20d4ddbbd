import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EsbuildPlugin } from 'esbuild-loader';
import webpack, { type Stats } from 'webpack';
import { gzipSync } from 'node:zlib';
import { REPO_ROOT } from './page-server.js';

// Only WebLLM's bundle contains this (its rollup build's require shim); the adapter's own code does not.
const WEBLLM_MARK = 'MLC_DUMMY_REQUIRE_VAR';
/**
 * What a page pays for importing the adapter statically (everything but WebLLM: prompt, citations, engine cache,
 * error codes, webpack's chunk loader: ~6 KB), minified and gzipped. The SDK should rather import() the adapter too.
 */
const ADAPTER_BUDGET_GZIP = 6.5 * 1024;

describe('createWebLlmInference in a webpack build', function () {
  this.timeout(180_000);
  let out: string;
  let stats: Stats;

  before(async () => {
    out = await mkdtemp(join(tmpdir(), 'kit-split-'));
    const entry = join(out, 'entry.ts');
    // Like the SDK: the composition root imports the adapter statically and calls it only when local is chosen.
    await writeFile(entry, `import { createWebLlmInference } from '${REPO_ROOT}/adapters/webllm/create-web-llm-inference.js';\n(globalThis as any).startLocal = createWebLlmInference;\n`);
    stats = await new Promise<Stats>((resolve, reject) =>
      webpack(
        {
          mode: 'production',
          target: ['web', 'es2022'],
          entry: { kit: entry },
          devtool: false,
          module: { rules: [{ test: /\.ts$/, loader: 'esbuild-loader', options: { loader: 'ts', target: 'es2022' } }] },
          resolve: { extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } },
          output: { path: join(out, 'dist'), filename: '[name].js', chunkFilename: 'chunks/[name].js', publicPath: 'auto' },
          // The entry is minified as in production; WebLLM's 6.8 MB chunk is not (slow, and the split is the same).
          optimization: { minimize: true, minimizer: [new EsbuildPlugin({ target: 'es2022', exclude: /^chunks\// })], splitChunks: false },
          performance: { hints: false },
        },
        (err, result) => (err || !result ? reject(err ?? new Error('no stats')) : result.hasErrors() ? reject(new Error(result.toString('errors-only'))) : resolve(result)),
      ),
    );
  });
  after(() => rm(out, { recursive: true, force: true }));

  it('puts WebLLM in a lazy chunk and keeps it out of the entry chunk', async () => {
    const json = stats.toJson({ chunks: true, chunkModules: true, modules: false, assets: false });
    const holding = (json.chunks ?? []).filter((c) => (c.modules ?? []).some((m) => /@mlc-ai[\\/]web-llm[\\/]/.test(m.name ?? '')));
    expect(holding, 'exactly one chunk holds WebLLM').to.have.length(1);
    expect(holding[0]!.initial, 'that chunk is loaded on demand').to.equal(false);
    expect(holding[0]!.names).to.deep.equal(['webllm']);

    const entryJs = await readFile(join(out, 'dist', 'kit.js'), 'utf8');
    expect(entryJs).to.not.contain(WEBLLM_MARK);
    const chunks = await readdir(join(out, 'dist', 'chunks'));
    expect(chunks).to.include('webllm.js');
    expect(await readFile(join(out, 'dist', 'chunks', 'webllm.js'), 'utf8')).to.contain(WEBLLM_MARK);
  });

  it('keeps the adapter code in the entry chunk small', async () => {
    const entryJs = await readFile(join(out, 'dist', 'kit.js'));
    const gz = gzipSync(entryJs).length;
    console.log(`      entry chunk with the local-inference adapter: ${entryJs.length} B, ${gz} B gzipped`);
    expect(gz).to.be.lessThan(ADAPTER_BUDGET_GZIP);
  });
});
