// `npm start` runs this after the SDK's check: the console (/console) needs dist/console, so build it when it is
// missing or older than its sources. A fresh clone thus gets a working console from `npm ci && npm start` alone.
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const target = join(root, 'dist/console/assets/console.js');

function newest(dir) {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const sources = Math.max(newest(join(root, 'console')), statSync(join(root, 'webpack.config.js')).mtimeMs);
if (existsSync(target) && statSync(target).mtimeMs >= sources) process.exit(0);
console.error('kit: building the console (a few seconds)…');
const r = spawnSync(process.execPath, [join(root, 'node_modules/webpack-cli/bin/cli.js'), '--mode', 'production', '--config-name', 'console'], { cwd: root, stdio: ['ignore', 2, 2] });
// webpack leaves an unchanged file untouched ("compared for emit"): mark the build as current, or every start rebuilds.
if (r.status === 0 && existsSync(target)) {
  const now = new Date();
  utimesSync(target, now, now);
}
process.exit(r.status ?? 1);
