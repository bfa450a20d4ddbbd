import { expect } from 'chai';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The launcher in the SDK entry (host, shadow root, button, its CSS; the language picker). */
const SHELL_BUDGET_GZIP = 1.6 * 1024;
/** The panel chunk (`kit-ui`): conversation, composer, base markdown, citations, English strings, CSS. */
const PANEL_BUDGET_GZIP = 9 * 1024;
/** Each lazy piece of the widget. */
const LAZY_BUDGET_GZIP: Record<string, number> = { 'rich-markdown': 2048, 'feedback-buttons': 1024, preview: 1024, highlight: 1536, shortcut: 768, de: 1024 };

const gz = (b: Uint8Array): number => gzipSync(b, { level: 9 }).length;

describe('widget bundle size', () => {
  it('keeps the launcher, the panel chunk and each lazy piece within their gzipped budgets', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../../../sdk/widget/shell.ts', import.meta.url)), fileURLToPath(new URL('../../../sdk/widget/index.ts', import.meta.url))],
      bundle: true, minify: true, splitting: true, format: 'esm', target: 'es2022', write: false, outdir: '/tmp/kit-widget-size', metafile: true,
    });
    const file = (re: RegExp) => result.outputFiles.find((f) => re.test(f.path.replace(/^.*\//, '')));
    // Code shared by the shell and the panel ships with the shell (in the SDK entry): count it there only.
    const outputs = result.metafile!.outputs;
    const name = (k: string) => k.replace(/^.*\//, '');
    const staticImports = (entry: string) => outputs[Object.keys(outputs).find((k) => name(k) === entry)!]!.imports.filter((i) => i.kind === 'import-statement').map((i) => name(i.path));
    const size = (n: string) => gz(result.outputFiles.find((f) => name(f.path) === n)!.contents);
    const shellParts = ['shell.js', ...staticImports('shell.js')];
    const shell = shellParts.reduce((n, p) => n + size(p), 0);
    const panel = ['index.js', ...staticImports('index.js').filter((p) => !shellParts.includes(p))].reduce((n, p) => n + size(p), 0);
    const lazy = Object.keys(LAZY_BUDGET_GZIP).map((n) => [n, file(new RegExp(`^${n}-[A-Z0-9]+\\.js$`))] as const);
    console.log(`      launcher ${shell} B, panel ${panel} B gzipped; lazy: ${lazy.map(([n, f]) => `${n} ${f ? gz(f.contents) : '?'} B`).join(', ')}`);
    expect(shell).to.be.within(300, SHELL_BUDGET_GZIP);
    expect(panel).to.be.within(3000, PANEL_BUDGET_GZIP);
    for (const [name, budget] of Object.entries(LAZY_BUDGET_GZIP)) {
      const chunk = file(new RegExp(`^${name}-[A-Z0-9]+\\.js$`));
      expect(chunk, name).to.not.equal(undefined);
      expect(gz(chunk!.contents), name).to.be.within(100, budget);
    }
  });
});
