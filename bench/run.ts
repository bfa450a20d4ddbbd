/**
 * `npm run bench [-- <name>…]`: runs every bench/<name>.bench.ts in its own process, one after another
 * (so one benchmark's garbage and JIT state never skews another), and prints what each reports.
 * Each benchmark measures Kit beside a reference in the same run and prints Markdown rows with ratios.
 */
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here).filter((f) => f.endsWith('.bench.ts')).sort()
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace('.bench.ts', '')));
if (files.length === 0) {
  console.error(`bench: nothing matches ${wanted.join(', ')}`);
  process.exit(2);
}
let failed = 0;
for (const f of files) {
  console.log(`\n## ${f.replace('.bench.ts', '')}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(here, f)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
