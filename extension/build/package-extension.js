// Completes dist/extension after the bundles are written: pages, styles, icons, the manifest (version from
// package.json), and the zip to load unpacked or upload to a store.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { zipSync } from 'fflate';
import { ICON_SIZES, iconPng } from './icons.js';

/** Files of a directory tree, as paths relative to it with '/' separators. */
function walk(dir, base = dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path, base) : [relative(base, path).split(sep).join('/')];
  });
}

/**
 * Writes the static files and the manifest into `outDir`, then zips it into `zipPath`. The zip leaves out source
 * maps and the manifest's `key`: stores assign their own id and refuse a `key`; unpacked builds keep it, so the
 * development id (and the origin to allow on a key) is the same on every machine.
 */
export function packageExtension({ root, extensionDir, outDir, zipPath }) {
  mkdirSync(outDir, { recursive: true });
  for (const name of readdirSync(join(extensionDir, 'static'))) copyFileSync(join(extensionDir, 'static', name), join(outDir, name));
  mkdirSync(join(outDir, 'icons'), { recursive: true });
  for (const size of ICON_SIZES) writeFileSync(join(outDir, 'icons', `icon-${size}.png`), iconPng(size));
  const manifest = JSON.parse(readFileSync(join(extensionDir, 'manifest.json'), 'utf8'));
  manifest.version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  const files = {};
  for (const path of walk(outDir)) {
    if (path.endsWith('.map')) continue;
    files[path] = path === 'manifest.json'
      ? new TextEncoder().encode(`${JSON.stringify({ ...manifest, key: undefined }, null, 2)}\n`)
      : new Uint8Array(readFileSync(join(outDir, path)));
  }
  mkdirSync(dirname(zipPath), { recursive: true });
  // Fixed timestamps: the same build gives the same zip.
  writeFileSync(zipPath, zipSync(files, { level: 9, mtime: new Date('2025-01-01T00:00:00Z') }));
  return { files: Object.keys(files).sort() };
}

/** Runs packageExtension after the compilation that emits last. */
export class PackageExtensionPlugin {
  constructor(options) {
    this.options = options;
  }

  apply(compiler) {
    compiler.hooks.afterEmit.tap('PackageExtensionPlugin', () => {
      packageExtension(this.options);
    });
  }
}
