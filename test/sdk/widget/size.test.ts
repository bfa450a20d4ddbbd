import { expect } from 'chai';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The widget's share of the SDK entry's 15 KB gzipped budget (issue 6 §7), CSS included. */
const WIDGET_BUDGET_GZIP = 6 * 1024;

describe('createWidget bundle size', () => {
  it('stays within its gzipped budget when minified', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../../../sdk/widget/index.ts', import.meta.url))],
      bundle: true,
      minify: true,
      format: 'esm',
      target: 'es2020',
      write: false,
    });
    const gzipped = gzipSync(result.outputFiles[0].contents, { level: 9 }).length;
    expect(gzipped).to.be.within(1000, WIDGET_BUDGET_GZIP);
  });
});
