import { expect } from 'chai';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The widget's share of the SDK entry's 15 KB gzipped budget (issue 6 §7), CSS included. */
const WIDGET_BUDGET_GZIP = 6 * 1024;

describe('createWidget bundle size', () => {
  it('stays within its gzipped budget when minified (lazy chunks, e.g. what a vote does, are not in it)', async () => {
    const entry = fileURLToPath(new URL('../../../sdk/widget/index.ts', import.meta.url));
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: 'esm',
      target: 'es2020',
      splitting: true,
      outdir: 'widget-size', // not written: only the entry's own file is measured
      metafile: true,
      write: false,
    });
    // The entry's file and any chunk it imports statically; chunks loaded by import() are left out.
    const outputs = result.metafile.outputs;
    const loaded = new Set<string>();
    const visit = (name: string): void => {
      if (loaded.has(name)) return;
      loaded.add(name);
      for (const i of outputs[name]!.imports) if (i.kind === 'import-statement') visit(i.path);
    };
    visit(Object.keys(outputs).find((name) => outputs[name]!.entryPoint !== undefined)!);
    const gzipped = [...loaded].reduce((sum, name) => sum + gzipSync(result.outputFiles.find((f) => f.path.endsWith(name.replace(/^.*\//, '')))!.contents, { level: 9 }).length, 0);
    expect(gzipped).to.be.within(1000, WIDGET_BUDGET_GZIP);
  });
});
