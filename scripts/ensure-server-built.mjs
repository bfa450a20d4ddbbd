// `npm start` runs this first (after ensure-sdk-built.mjs): it runs the built server, so build dist/server when it is
// missing or older than its sources. Production images build once (`npm run build`) and start with
// `node dist/server/main.js`; tsx stays a development tool (`npm run dev`).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const outputs = ['dist/server/main.js', 'dist/server/pglite-worker.js'].map((f) => join(root, f));

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let t = 0;
  for (const entry of readdirSync(path)) t = Math.max(t, newest(join(path, entry)));
  return t;
}

const sources = Math.max(...['server', 'core', 'adapters/node', 'webpack.config.js', 'package-lock.json'].map((p) => newest(join(root, p))));
if (outputs.every((f) => existsSync(f) && statSync(f).mtimeMs >= sources)) process.exit(0);
console.error('kit: building the server (dist/server)…');
const r = spawnSync(process.execPath, [join(root, 'node_modules/webpack-cli/bin/cli.js'), '--mode', 'production', '--config-name', 'server'], { cwd: root, stdio: ['ignore', 2, 2] });
if (r.status !== 0) {
  console.error('kit: the server build failed; run `npm run build` to see why.');
  process.exit(r.status ?? 1);
}
