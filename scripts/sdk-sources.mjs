#!/usr/bin/env node
// Which sources make up the SDK's scripts, in gzipped bytes (docs/sdk.md "Budgets"): for each built file given (or
// the scripts before a first remote answer when none is), every source of its source map with the bytes of minified
// code mapped to it, raw and gzipped alone (level 9). Gzipped alone overstates a source inside its chunk (the chunk
// compresses across sources): the total line gives the file's real gzipped size.
//   npm run build:sdk && node scripts/sdk-sources.mjs [dist/sdk/chunks/kit-runtime.*.js …] [--top 40]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 40;
const dist = 'dist/sdk';
const chunk = (name) => {
  const file = readdirSync(join(dist, 'chunks')).find((f) => f.startsWith(`${name}.`) && f.endsWith('.js'));
  if (!file) throw new Error(`no ${name} chunk in ${dist}/chunks: run npm run build:sdk`);
  return join(dist, 'chunks', file);
};
const files = args.length ? args : [join(dist, 'kit.js'), chunk('kit-runtime'), chunk('kit-ui')];
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const gz = (text) => gzipSync(text, { level: 9 }).length;

for (const file of files) {
  const code = readFileSync(file, 'utf8');
  const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
  const lines = code.split('\n');
  const bytes = new Map();
  let source = 0;
  map.mappings.split(';').forEach((line, li) => {
    let col = 0;
    const segments = [];
    for (const seg of line.split(',').filter(Boolean)) {
      const values = [];
      let v = 0;
      let shift = 0;
      for (const ch of seg) {
        let d = B64.indexOf(ch);
        const more = d & 32;
        d &= 31;
        v += d << shift;
        if (more) shift += 5;
        else {
          values.push(v & 1 ? -(v >> 1) : v >> 1);
          v = 0;
          shift = 0;
        }
      }
      col += values[0];
      if (values.length > 1) source += values[1];
      segments.push([col, values.length > 1 ? source : -1]);
    }
    for (let i = 0; i < segments.length; i++) {
      const [c, s] = segments[i];
      const end = i + 1 < segments.length ? segments[i + 1][0] : lines[li].length;
      const name = s >= 0 ? map.sources[s].replace(/^webpack:\/\/Kit\/\.?\/?/, '') : '(webpack glue)';
      bytes.set(name, (bytes.get(name) ?? '') + lines[li].slice(c, end));
    }
  });
  const rows = [...bytes].map(([name, text]) => [name, text.length, gz(text)]).sort((a, b) => b[2] - a[2]);
  console.log(`${file}: ${code.length} B, ${gz(code)} B gzipped`);
  for (const [name, raw, z] of rows.slice(0, top)) console.log(`  ${String(z).padStart(6)} B gz ${String(raw).padStart(7)} B  ${name}`);
}
