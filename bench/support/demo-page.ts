/**
 * The demo page as the browser benchmarks serve it (`npm run bench -- sdk-page`, bench/sdk-page-trace.ts): a copy of
 * demo/ in a temporary directory (served by the Kit server as KIT_DEMO_DIR) with four variants of its page —
 *  - bench-bare.html: without the Kit snippet;
 *  - bench-kit.html: the demo's own snippet as pasted, the instance kept in `window.__kit` (errors in `__kitError`).
 *    Nothing listens for `ready`: the page is read on the visitor's first intent (docs/sdk.md);
 *  - bench-eager.html: the same with a host waiting for `ready` (`__readyAt`), so the page is read at init;
 *  - bench-docsearch.html: the bare page with `@docsearch/js` 3.x from node_modules, its button rendered (`__readyAt`).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type DemoVariant = 'bare' | 'kit' | 'eager' | 'docsearch';

/** Writes the copy and its variants; returns the directory (the caller removes it). */
export function writeDemoVariants(root: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kit-bench-page-'));
  cpSync(join(root, 'demo'), dir, { recursive: true });
  const demoHtml = readFileSync(join(root, 'demo/index.html'), 'utf8');
  const snippet = /<!-- Kit:[^]*?<\/script>\n/.exec(demoHtml);
  if (!snippet) throw new Error('bench: the demo page has no Kit snippet');
  const bare = demoHtml.replace(snippet[0], '');
  const rewrite = (listen: string) => snippet[0].replace(/onload="Kit\.init\((.*)\)"/, (_m, args: string) =>
    `onload="window.__kit = Kit.init(${args});${listen} window.__kit.on('error', (e) => { window.__kitError = e; });"`);
  const kitSnippet = rewrite('');
  const eagerSnippet = rewrite(" window.__kit.on('ready', () => { window.__readyAt = performance.now(); });");
  if (kitSnippet === snippet[0] || eagerSnippet === snippet[0]) throw new Error('bench: could not rewrite the demo snippet');
  writeFileSync(join(dir, 'bench-bare.html'), bare);
  writeFileSync(join(dir, 'bench-kit.html'), demoHtml.replace(snippet[0], kitSnippet));
  writeFileSync(join(dir, 'bench-eager.html'), demoHtml.replace(snippet[0], eagerSnippet));
  mkdirSync(join(dir, 'docsearch'));
  cpSync(join(root, 'node_modules/@docsearch/js/dist/umd/index.js'), join(dir, 'docsearch/docsearch.js'));
  cpSync(join(root, 'node_modules/@docsearch/css/dist/style.css'), join(dir, 'docsearch/style.css'));
  writeFileSync(join(dir, 'bench-docsearch.html'), bare.replace('</body>', `<div id="docsearch"></div>
<link rel="stylesheet" href="/demo/docsearch/style.css">
<script src="/demo/docsearch/docsearch.js" async onload="docsearch({ container: '#docsearch', appId: 'BH4D9OD16A', indexName: 'kit-demo', apiKey: '00000000000000000000000000000000' }); window.__readyAt = performance.now();"></script>
</body>`));
  return dir;
}

/** Whether the variant sets `__readyAt` when it is ready (the others are waited for by network idle). */
export const signalsReady = (variant: DemoVariant): boolean => variant === 'eager' || variant === 'docsearch';
