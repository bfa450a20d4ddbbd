// Builds the browser extension into dist/extension/ and dist/kit-extension.zip (see docs/extension.md).
// Called by webpack.config.js with the shared TypeScript rule and resolve settings.
import { resolve } from 'node:path';
import webpack from 'webpack';
import { PackageExtensionPlugin } from './build/package-extension.js';

/**
 * Two compilations:
 * - the content script: one classic file with no lazy chunks. A content script cannot load chunks: webpack would add
 *   <script> tags, which run in the page's world under the page's CSP, not in the extension's isolated world.
 *   WebLLM is left out (the content script gets its model from the offscreen document).
 * - the extension pages (background worker, popup, options, QA panel, offscreen document), which may load chunks
 *   from the extension's own origin: WebLLM is a lazy chunk of the offscreen document only.
 * No eval-based source maps anywhere: the extension's CSP forbids eval.
 */
export default ({ mode, root, typescript, resolveTs, outDir = resolve(root, 'dist/extension'), zipPath = resolve(root, 'dist/kit-extension.zip') }) => {
  const src = (path) => resolve(root, 'extension', path);
  const common = {
    mode,
    target: ['web', 'es2022'],
    devtool: mode === 'production' ? 'source-map' : 'cheap-module-source-map',
    module: { rules: [typescript] },
    performance: { hints: false },
  };
  const content = {
    ...common,
    name: 'extension-content',
    entry: { content: src('content/index.ts') },
    resolve: { ...resolveTs, alias: { '@mlc-ai/web-llm': false } },
    output: { path: outDir, filename: '[name].js', publicPath: '', clean: false },
    optimization: { splitChunks: false },
    plugins: [new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 })],
  };
  const pages = {
    ...common,
    name: 'extension-pages',
    dependencies: ['extension-content'],
    entry: {
      background: src('background/index.ts'),
      popup: src('popup/index.ts'),
      options: src('options/index.ts'),
      qa: src('qa/index.ts'),
      offscreen: src('offscreen/index.ts'),
    },
    resolve: resolveTs,
    output: {
      path: outDir,
      filename: '[name].js',
      chunkFilename: 'chunks/[name].[contenthash:8].js',
      publicPath: '/',
      // Stale chunks of earlier builds go; the content script, written by the other compilation just before, stays.
      clean: { keep: /^content\.js/ },
    },
    optimization: { splitChunks: false },
    plugins: [new PackageExtensionPlugin({ root, extensionDir: resolve(root, 'extension'), outDir, zipPath })],
  };
  return [content, pages];
};
