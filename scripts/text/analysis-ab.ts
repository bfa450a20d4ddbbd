/**
 * core/text's analysis against another revision's, in one process (issue 16.4): the cold corpus build of the 130 real
 * pages (caches forgotten before each page, as `npm run bench -- retrieval` builds them), interleaved rounds, the
 * minimum pass of each round; MiniSearch's build with either revision's tokenizer (Kit's analysis, as the benchmark's
 * reference); and the gzipped size of core/text bundled minified (what the SDK carries). The other revision's
 * core/text is extracted with `git archive` into .tmp/text-<rev>/.
 *
 * Run: npx tsx scripts/text/analysis-ab.ts [rev]   (default 5b70c6f: main before the change; ROUNDS, default 7)
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import MiniSearch from 'minisearch';
import * as NEW from '../../core/text/index.js';
import { evalPage, evalPageNames } from './analysis-digest.js';

const rev = process.argv[2] ?? '5b70c6f';
const dir = resolve('.tmp', `text-${rev}`);
if (!existsSync(resolve(dir, 'core/text/index.ts'))) {
  mkdirSync(dir, { recursive: true });
  execSync(`git archive ${rev} core/text core/sources.ts | tar -x -C ${JSON.stringify(dir)}`);
}
const OLD = (await import(pathToFileURL(resolve(dir, 'core/text/index.ts')).href)) as typeof NEW;
await NEW.loadAllLanguages();
await OLD.loadAllLanguages();
const pages = evalPageNames().map(evalPage);
const sentences = pages.map((p) => NEW.buildCorpus([p]));

const cold = (T: typeof NEW) => (): void => { for (const p of pages) { T.clearTextCaches(); T.buildCorpus([p]); } };
const mini = (T: typeof NEW) => (): void => {
  for (const c of sentences) {
    T.clearTextCaches();
    const res = T.resourcesFor(c.language);
    const m = new MiniSearch({ fields: ['text'], tokenize: (t: string) => T.tokenize(t), processTerm: (w: string) => (res.isStopword(w) ? null : res.stem(w)) });
    m.addAll(c.sentences.map((s, id) => ({ id, text: s.text })));
  }
};
const minCpu = (fn: () => void, ms: number): number => {
  let best = Infinity;
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    const c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / 1000);
  }
  return best;
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const show = (xs: number[]): string => `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

const load = [(await import('node:os')).loadavg()[0]!];
const runs = { old: [] as number[], now: [] as number[], miniOld: [] as number[], miniNow: [] as number[] };
for (let r = 0; r < Number(process.env.ROUNDS ?? 7); r++) {
  runs.old.push(minCpu(cold(OLD), 700));
  runs.now.push(minCpu(cold(NEW), 700));
  runs.miniOld.push(minCpu(mini(OLD), 700));
  runs.miniNow.push(minCpu(mini(NEW), 700));
  load.push((await import('node:os')).loadavg()[0]!);
}
console.log(`${pages.length} pages, ${runs.old.length} interleaved rounds, load ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}; ms CPU, median (range) of each round's minimum pass`);
console.log(`cold buildCorpus: ${rev} ${show(runs.old)}, this tree ${show(runs.now)}: ${(median(runs.old) / median(runs.now)).toFixed(2)}× (per round ${runs.old.map((o, i) => (o / runs.now[i]!).toFixed(2)).join(' ')})`);
console.log(`MiniSearch build, Kit's analysis: ${rev}'s tokenizer ${show(runs.miniOld)}, this tree's ${show(runs.miniNow)}`);
for (const [name, root] of [[rev, resolve(dir, 'core/text')], ['this tree', resolve('core/text')]] as const) {
  const r = await build({
    stdin: { contents: `export { buildCorpus, tokenize, foldAccents, clearTextCaches, splitSentences } from ${JSON.stringify(resolve(root, 'index.ts'))};`, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true, minify: true, format: 'esm', write: false, platform: 'browser', external: ['porter2', '@orama/*'], logLevel: 'error',
  });
  const code = r.outputFiles[0]!.contents;
  console.log(`core/text's buildCorpus, tokenize, splitSentences bundled minified (packages external), ${name}: ${code.length} B, ${gzipSync(code, { level: 9 }).length} B gzipped`);
}
