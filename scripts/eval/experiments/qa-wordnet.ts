// Session 9 scratch: question words expanded with WordNet's (Debian wordnet-base, /usr/share/wordnet) synonyms of their
// first senses and derivationally related forms, for English pages; development halves only.
// npx tsx scripts/eval/experiments/qa-wordnet.ts SENSES WEIGHT [syn|der|both]
import { readFileSync } from 'node:fs';
import { loadAllLanguages } from '../../../core/text/index.js';
import { pageItems, squadItems } from '../qa-data.js';
import { runQa } from '../qa-run.js';
const senses = Number(process.argv[2] ?? 1);
const weight = Number(process.argv[3] ?? 0.3);
const kind = process.argv[4] ?? 'both';
const DIR = '/usr/share/wordnet';
type Syn = { words: string[]; der: { src: number; off: string; pos: string; tgt: number }[] };
const data = new Map<string, Syn>();
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  const p = pos[0] === 'a' && pos === 'adv' ? 'r' : pos[0]!;
  for (const line of readFileSync(`${DIR}/data.${pos}`, 'utf8').split('\n')) {
    if (!/^\d/.test(line)) continue;
    const f = line.split(' | ')[0]!.split(' ');
    const off = f[0]!;
    const wc = parseInt(f[3]!, 16);
    const words: string[] = [];
    for (let i = 0; i < wc; i++) words.push(f[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, ''));
    let k = 4 + 2 * wc;
    const pc = Number(f[k++]);
    const der: Syn['der'] = [];
    for (let i = 0; i < pc; i++) {
      const sym = f[k]!, o = f[k + 1]!, ps = f[k + 2]!, st = f[k + 3]!;
      k += 4;
      if (sym === '+') der.push({ src: parseInt(st.slice(0, 2), 16), off: o, pos: ps === 's' ? 'a' : ps, tgt: parseInt(st.slice(2), 16) });
    }
    data.set(`${p === 's' ? 'a' : p}:${off}`, { words, der });
  }
}
const related = new Map<string, Set<string>>();
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  const p = pos === 'adv' ? 'r' : pos[0]!;
  for (const line of readFileSync(`${DIR}/index.${pos}`, 'utf8').split('\n')) {
    if (line.startsWith(' ')) continue;
    const f = line.trim().split(' ');
    if (f.length < 4) continue;
    const lemma = f[0]!;
    if (lemma.includes('_')) continue;
    const sc = Number(f[2]);
    const pc = Number(f[3]);
    const offs = f.slice(4 + pc + 2, 4 + pc + 2 + sc);
    const out = related.get(lemma) ?? new Set<string>();
    for (const o of offs.slice(0, senses)) {
      const s = data.get(`${p}:${o}`);
      if (!s) continue;
      if (kind !== 'der') for (const w of s.words) if (w !== lemma && !w.includes('_')) out.add(w);
      if (kind !== 'syn') {
        const me = s.words.indexOf(lemma) + 1;
        for (const d of s.der) {
          if (d.src !== me) continue;
          const t = data.get(`${d.pos}:${d.off}`);
          const w = t?.words[d.tgt - 1];
          if (w && !w.includes('_') && w !== lemma) out.add(w);
        }
      }
    }
    related.set(lemma, out);
  }
}
// Inflected forms: WordNet's lemmas; a question word is looked up as is and without a plural/verb ending.
const lookup = (w: string): readonly string[] => {
  for (const c of [w, w.replace(/s$/, ''), w.replace(/es$/, ''), w.replace(/ed$/, ''), w.replace(/ed$/, 'e'), w.replace(/ing$/, ''), w.replace(/ing$/, 'e'), w.replace(/ies$/, 'y')]) {
    const r = related.get(c);
    if (r && r.size > 0) return [...r];
  }
  return [];
};
await loadAllLanguages();
const sets = [['dev', await pageItems('dev')], ['tune', squadItems('tune')]] as const;
const cells: string[] = [];
for (const [, items] of sets) {
  const f = await runQa(items, { answer: { minConfidence: 0 }, retriever: { expand: lookup, expandWeight: weight } });
  cells.push(`${f.rankedTop1.toFixed(3)} / ${f.top3.toFixed(3)} / ${f.wrong.toFixed(3)}`);
}
console.log(`senses ${senses} weight ${weight} ${kind}: dev ${cells[0]} | tune ${cells[1]}`);
