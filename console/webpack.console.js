// Builds the console (issue 14) into dist/console/: index.html, styles, the app's entry and its lazy chunks, and the
// preview page's script. Called by webpack.config.js with the shared resolve settings. The server serves it at
// /console under a CSP without inline scripts (server/console/console-site.ts), so nothing here emits inline code.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import webpack from 'webpack';
import { EsbuildPlugin } from 'esbuild-loader';

/** Copies the static files (HTML shells, CSS) into the output, as they are. */
class CopyStaticPlugin {
  constructor(files) {
    this.files = files;
  }
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('CopyStaticPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'CopyStaticPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        for (const [from, to] of this.files) {
          compilation.fileDependencies.add(from);
          compilation.emitAsset(to, new webpack.sources.RawSource(readFileSync(from)));
        }
      });
    });
  }
}

export default ({ mode, root, resolveTs }) => {
  const src = (path) => resolve(root, 'console', path);
  return {
    name: 'console',
    mode,
    target: ['web', 'es2022'],
    entry: { console: src('src/main.tsx'), preview: src('src/preview/preview.ts') },
    devtool: mode === 'production' ? 'source-map' : 'cheap-module-source-map',
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          loader: 'esbuild-loader',
          options: { loader: 'tsx', target: 'es2022', jsx: 'automatic', jsxImportSource: 'preact', tsconfig: src('tsconfig.json') },
        },
      ],
    },
    resolve: { ...resolveTs, extensions: ['.tsx', '.ts', '.js', '.mjs'], extensionAlias: { '.js': ['.tsx', '.ts', '.js'] } },
    experiments: { outputModule: true },
    output: {
      path: resolve(root, 'dist/console'),
      filename: 'assets/[name].js',
      chunkFilename: 'assets/chunks/[name].[contenthash:8].js',
      publicPath: '/console/',
      module: true,
      chunkFormat: 'module',
      clean: true,
    },
    performance: { hints: false },
    optimization: { minimizer: [new EsbuildPlugin({ target: 'es2022', legalComments: 'eof', format: undefined, css: false })] },
    plugins: [
      new CopyStaticPlugin([
        [src('index.html'), 'index.html'],
        [src('preview/sample.html'), 'preview/sample.html'],
        [src('styles/console.css'), 'assets/console.css'],
        [src('styles/preview.css'), 'assets/preview.css'],
        [resolve(root, 'node_modules/uplot/dist/uPlot.min.css'), 'assets/uplot.css'],
      ]),
    ],
  };
};
