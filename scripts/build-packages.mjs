// Builds the npm packages in packages/ (issue 15 §6): @kit-assistant/sdk (ESM for bundlers, the UMD script the
// server serves, .d.ts) and the React and Vue wrappers (ESM + .d.ts). `npm run build:packages`; then
// `npm pack ./packages/kit` (or `npm publish`) from the repository root.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`);
};
const kit = join(root, 'packages/kit/dist');
rmSync(kit, { recursive: true, force: true });

// 1. UMD: the same files the server serves at /sdk/ (webpack, built when stale).
run(process.execPath, [join(root, 'scripts/ensure-sdk-built.mjs')]);
mkdirSync(join(kit, 'umd/chunks'), { recursive: true });
cpSync(join(root, 'dist/sdk/kit.js'), join(kit, 'umd/kit.js'));
for (const f of readdirSync(join(root, 'dist/sdk/chunks'))) if (f.endsWith('.js')) cpSync(join(root, 'dist/sdk/chunks', f), join(kit, 'umd/chunks', f));

// 2. ESM for bundlers: real `import()` chunks, so the site's bundler splits and hashes them like its own code.
await build({
  entryPoints: { index: join(root, 'sdk/index.ts') },
  bundle: true, splitting: true, format: 'esm', minify: true, target: 'es2022', platform: 'browser',
  outdir: join(kit, 'esm'), chunkNames: 'chunks/[name]-[hash]', legalComments: 'eof', sourcemap: true,
});

// 3. Type declarations of the SDK's public surface (and what it references).
run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'packages/kit/tsconfig.json')]);

// 4. The wrappers: ESM with their framework and the SDK as peers, and their declarations.
for (const name of ['react', 'vue']) {
  const dir = join(root, 'packages', name);
  rmSync(join(dir, 'dist'), { recursive: true, force: true });
  await build({
    entryPoints: [join(dir, 'src/index.ts')], bundle: true, format: 'esm', target: 'es2022', platform: 'browser',
    external: ['react', 'vue', '@kit-assistant/sdk'], outfile: join(dir, 'dist/index.js'),
  });
}
const tmp = join(root, 'packages/.tmp-wrapper-types');
rmSync(tmp, { recursive: true, force: true });
run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'packages/tsconfig.wrappers.json')]);
for (const name of ['react', 'vue']) {
  const from = join(tmp, name, 'src/index.d.ts');
  if (!existsSync(from)) throw new Error(`no declarations for ${name}`);
  renameSync(from, join(root, 'packages', name, 'dist/index.d.ts'));
}
rmSync(tmp, { recursive: true, force: true });
console.log('packages built: packages/kit/dist, packages/react/dist, packages/vue/dist');
