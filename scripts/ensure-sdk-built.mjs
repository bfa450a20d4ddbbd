// `npm start` runs this first: the demo site needs dist/sdk, so build the SDK when it is missing or older than
// its sources. A fresh clone thus gets a working demo from `npm ci && npm start` alone.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const target = join(root, 'dist/sdk/kit.js');

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const sources = Math.max(...['sdk', 'core', 'adapters/browser', 'adapters/remote', 'adapters/webllm', 'adapters/chrome-ai'].map((d) => newest(join(root, d))), statSync(join(root, 'webpack.config.js')).mtimeMs);
if (existsSync(target) && statSync(target).mtimeMs >= sources) process.exit(0);
// stderr only: `npm start`'s stdout is the server's JSON log.
console.error('kit: building the SDK bundle for the demo (first start takes a minute)…');
const r = spawnSync(process.execPath, [join(root, 'node_modules/webpack-cli/bin/cli.js'), '--mode', 'production', '--config-name', 'sdk-umd', '--config-name', 'sdk-module', '--config-name', 'sdk-crawl-worker'], { cwd: root, stdio: ['ignore', 2, 2] });
process.exit(r.status ?? 1);
