// Builds: the SDK as a UMD bundle (global `Kit`) and as an ES module, and the server's production build.
// TypeScript goes through esbuild-loader (ts-loader does not work with TypeScript 7).
import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EsbuildPlugin } from 'esbuild-loader';
import webpack from 'webpack';

const root = dirname(fileURLToPath(import.meta.url));

const typescript = {
  test: /\.ts$/,
  exclude: /node_modules/,
  loader: 'esbuild-loader',
  options: { loader: 'ts', target: 'es2022', tsconfig: resolve(root, 'tsconfig.json') },
};

const resolveTs = {
  extensions: ['.ts', '.js', '.mjs'],
  // Sources import './x.js' (NodeNext style) and mean './x.ts'.
  extensionAlias: { '.js': ['.ts', '.js'], '.mjs': ['.mts', '.mjs'] },
};

/** The WebLLM library's chunk (`webllm.<hash>.js|mjs`), not the small `kit-webllm` adapter. */
const WEBLLM_LIBRARY = /(^|\/)webllm\.[0-9a-f]+\.m?js$/;

/**
 * Mozilla Readability's private members (`_grabArticle`, `_doc`, … 90 names, the library's own `_` convention) get
 * short names: 0.5 KB less gzipped on every page view (docs/sdk.md "Budgets"). Its public API (`parse()`, the
 * options, `REGEXPS`, `FLAG_*`) keeps its names, and so do the three members the crawl's leaner subclass overrides
 * (adapters/browser/lean-readability.ts); nothing else outside the file reads a `_` member.
 */
const readabilityPrivates = {
  test: /[\\/]@mozilla[\\/]readability[\\/]Readability\.js$/,
  loader: 'esbuild-loader',
  options: { loader: 'js', target: 'es2022', mangleProps: /^_/, reserveProps: /^_(?:isProbablyVisible|isValidByline|fixRelativeUris)$/ },
};

/** @param {'umd'|'module'} type */
function sdk(type, mode) {
  const esm = type === 'module';
  return {
    name: `sdk-${type}`,
    mode,
    target: ['web', 'es2022'],
    entry: { kit: resolve(root, 'sdk/index.ts') },
    devtool: mode === 'production' ? 'source-map' : 'eval-cheap-module-source-map',
    module: { rules: [typescript, readabilityPrivates] },
    resolve: resolveTs,
    experiments: esm ? { outputModule: true } : {},
    output: {
      path: resolve(root, 'dist/sdk'),
      filename: esm ? 'kit.mjs' : 'kit.js',
      // Six hex digits of content hash (16.7 M values: a new release of a chunk gets a new URL), not eight: kit.js
      // carries every chunk's hash in its chunk map, and two digits × ~37 chunks were 62 B gzipped on every page.
      chunkFilename: esm ? 'chunks/[name].[contenthash:6].mjs' : 'chunks/[name].[contenthash:6].js',
      // Lazy chunks (WebLLM, Readability, phone metadata) load from where the script itself came from.
      publicPath: 'auto',
      library: esm ? { type: 'module' } : { name: 'Kit', type: 'umd', umdNamedDefine: false },
      globalObject: 'globalThis',
      // Both SDK builds share dist/sdk: each removes only its own stale files (.js vs .mjs), and neither the crawl worker.
      clean: { keep: esm ? /\.js(\.map)?$/ : /\.mjs(\.map)?$|^kit-crawl-worker\./ },
    },
    performance: { hints: false },
    // Readability ships inside the runtime chunk (sdk/readability-bundled.ts): every start reads the page with it.
    plugins: [new webpack.NormalModuleReplacementPlugin(/[\\/]readability-loader\.js$/, resolve(root, 'sdk/readability-bundled.ts'))],
    // Two minifiers. esbuild takes the 6 MB WebLLM library chunk (seconds where terser takes minutes). Everything a
    // visitor downloads before a first answer (kit.js, kit-runtime, readability, kit-probe) and the other chunks go
    // through webpack's default minimizer, terser (compress passes: 2): 5 % smaller gzipped than esbuild's output on
    // those four (63,990 → 60,920 B; docs/widget.md "Budgets"), which keeps that path under its 60 KB budget.
    // esbuild runs first and marks its asset minimized, so terser ('...', webpack's defaults) leaves it alone.
    // `format: undefined` keeps webpack's own UMD/ESM wrapper: the plugin's default 'iife' for web targets would hide
    // the global `Kit`.
    optimization: {
      splitChunks: false,
      minimizer: [new EsbuildPlugin({ include: WEBLLM_LIBRARY, target: 'es2022', legalComments: 'eof', format: undefined }), '...'],
    },
  };
}

/**
 * The site crawl's fetch worker (sdk/crawl-worker.ts): one classic script beside kit.js, for both SDK builds (a blob
 * worker imports it with importScripts; sdk/crawl.ts). A compilation of its own, so that the SDK's module ids — and
 * kit.js's bytes — do not change with it.
 */
function crawlWorker(mode) {
  return {
    name: 'sdk-crawl-worker',
    mode,
    target: ['webworker', 'es2022'],
    entry: { 'kit-crawl-worker': resolve(root, 'sdk/crawl-worker.ts') },
    devtool: mode === 'production' ? 'source-map' : 'eval-cheap-module-source-map',
    module: { rules: [typescript] },
    resolve: resolveTs,
    output: { path: resolve(root, 'dist/sdk'), filename: '[name].js', clean: false },
    performance: { hints: false },
  };
}

function server(mode) {
  return {
    name: 'server',
    mode,
    target: 'node20',
    // The PGlite worker thread is its own entry: pglite-worker-client.ts starts dist/server/pglite-worker.js.
    entry: { main: resolve(root, 'server/main.ts'), 'pglite-worker': resolve(root, 'adapters/node/pglite-worker.ts') },
    devtool: 'source-map',
    // import.meta.url stays the bundle's own URL at run time (webpack would inline the source file's path), so the
    // PGlite client finds pglite-worker.js beside main.js wherever dist/ is deployed.
    module: { rules: [typescript], parser: { javascript: { importMeta: false } } },
    resolve: resolveTs,
    experiments: { outputModule: true },
    // Packages stay in node_modules: native modules (argon2), PGlite's WASM and knex's dialect loading do not bundle well.
    externalsType: 'module',
    externals: [({ request }, callback) => {
      if (!request) return callback();
      if (request.startsWith('node:') || builtinModules.includes(request)) return callback(null, `node-commonjs ${request}`);
      if (!request.startsWith('.') && !request.startsWith('/')) return callback(null, `module ${request}`);
      return callback();
    }],
    output: {
      path: resolve(root, 'dist/server'),
      filename: '[name].js',
      chunkFormat: 'module',
      module: true,
      library: { type: 'module' },
      clean: true,
    },
    // NODE_ENV is read at run time (KIT_BOT_CHALLENGE=none is refused only in production), never inlined.
    optimization: { minimize: false, nodeEnv: false },
    performance: { hints: false },
  };
}

export default async (_env, argv) => {
  const mode = argv.mode ?? 'production';
  const configs = [sdk('umd', mode), sdk('module', mode), crawlWorker(mode)];
  if (existsSync(resolve(root, 'server/main.ts'))) configs.push(server(mode));
  // The browser extension owns its build (extension/webpack.extension.js), sharing the TypeScript rules above.
  const extension = resolve(root, 'extension/webpack.extension.js');
  if (existsSync(extension)) configs.push(...[].concat((await import(extension)).default({ mode, root, typescript, resolveTs })));
  // The console (issue 14) owns its build too (console/webpack.console.js).
  configs.push((await import(resolve(root, 'console/webpack.console.js'))).default({ mode, root, resolveTs }));
  return configs;
};
