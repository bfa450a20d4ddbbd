/**
 * `npx tsx scripts/text/common-words-entropy.ts [maxOrder]` — how much smaller the English common-word list
 * (core/text/common-words/en.ts, ranked stems) could be shipped than as the plain string gzip already squeezes:
 * the ideal code length of the list under an adaptive character model (orders 0…maxOrder within a word, interpolated
 * with absolute discounting, learned while decoding, so nothing else ships), against gzip -9 of the string itself.
 * Printed to decide issue 15's budget work: a decoder worth it would have to save more than it costs to ship.
 */
import { gzipSync } from 'node:zlib';
import { STEMS } from '../../core/text/common-words/en.js';

const words = STEMS.split(' ');
const chars = [...new Set(STEMS.replace(/ /g, ''))].sort().join('');
const A = chars.length + 1; // symbol 0 ends a word (an empty slot is a word of no letters)

function bytesAt(maxOrder: number, discount = 0.5): number {
  const tables = new Map<string, number[]>();
  let bits = 0;
  for (const w of words) {
    let ctx = '^';
    for (const ch of [...w, '']) {
      const s = ch === '' ? 0 : chars.indexOf(ch) + 1;
      let p: number[] = new Array(A).fill(1 / A);
      for (let k = 0; k <= Math.min(maxOrder, ctx.length); k++) {
        const t = tables.get(`${k}|${ctx.slice(ctx.length - k)}`);
        if (!t) break;
        let n = 0, u = 0;
        for (const c of t) { n += c; if (c) u++; }
        p = p.map((q, i) => (Math.max(t[i]! - discount, 0) + discount * u * q) / n);
      }
      bits -= Math.log2(p[s]!);
      for (let k = 0; k <= Math.min(maxOrder, ctx.length); k++) {
        const key = `${k}|${ctx.slice(ctx.length - k)}`;
        let t = tables.get(key);
        if (!t) tables.set(key, (t = new Array(A).fill(0)));
        t[s]!++;
      }
      ctx += ch;
    }
  }
  return Math.ceil(bits / 8);
}

console.log(`English common words: ${words.length} ranks, ${STEMS.length} characters; gzip -9 of the string: ${gzipSync(STEMS, { level: 9 }).length} B`);
const top = Number(process.argv[2] ?? 5);
for (let order = 0; order <= top; order++) console.log(`  adaptive order-${order} model, ideal code length (no decoder counted): ${bytesAt(order)} B`);
