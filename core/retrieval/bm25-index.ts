import type { Corpus } from '../text/corpus.js';

/** BM25 parameters (Robertson & Zaragoza 2009); the defaults are the usual ones. */
export interface Bm25Options {
  /** Term-frequency saturation. Default 1.2. */
  readonly k1?: number;
  /** Length normalisation, 0 (none) … 1 (full). Default 0.75. */
  readonly b?: number;
}

/** A BM25 index over units of a corpus (sentences or passages), stored as compressed sparse rows. */
export interface Bm25Index {
  /** Number of units indexed. */
  readonly size: number;
  /** IDF of a term id (0 for a term no unit holds). */
  idf(term: number): number;
  /**
   * Adds each unit's BM25 score for `terms` (ids, duplicates allowed) into `scores` (length `size`) and
   * returns the ids of the units touched. Callers own `scores` and reset the touched entries.
   */
  accumulate(terms: readonly number[], scores: Float64Array, weights?: readonly number[]): number[];
}

/**
 * Builds a BM25 index over `units`, each a list of term ids of `corpus`. Two passes over the ids, no per-term
 * arrays: counting then filling flat typed arrays, which is what makes building cheap enough to redo per page.
 */
export function createBm25Index(corpus: Corpus, units: readonly ArrayLike<number>[], options: Bm25Options = {}): Bm25Index {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const nTerms = corpus.terms.length;
  const n = units.length;
  const lengths = new Float64Array(n);
  const df = new Int32Array(nTerms + 1);
  const mark = new Int32Array(nTerms).fill(-1);
  let total = 0;
  for (let u = 0; u < n; u++) {
    const t = units[u]!;
    lengths[u] = t.length;
    total += t.length;
    for (let i = 0; i < t.length; i++) {
      const id = t[i]!;
      if (mark[id] !== u) { mark[id] = u; df[id]!++; }
    }
  }
  // Row offsets of each term's postings.
  const start = new Int32Array(nTerms + 1);
  for (let id = 0; id < nTerms; id++) start[id + 1] = start[id]! + df[id]!;
  const fill = start.slice(0, nTerms);
  const unitOf = new Int32Array(start[nTerms]!);
  const tfOf = new Float32Array(start[nTerms]!);
  mark.fill(-1);
  const slot = new Int32Array(nTerms); // where the current unit's posting of a term sits, to bump its tf
  for (let u = 0; u < n; u++) {
    const t = units[u]!;
    for (let i = 0; i < t.length; i++) {
      const id = t[i]!;
      if (mark[id] !== u) {
        mark[id] = u;
        const at = fill[id]!++;
        slot[id] = at;
        unitOf[at] = u;
        tfOf[at] = 1;
      } else {
        tfOf[slot[id]!]!++;
      }
    }
  }
  const avg = n > 0 ? total / n : 1;
  const norm = new Float64Array(n);
  for (let u = 0; u < n; u++) norm[u] = k1 * (1 - b + (b * lengths[u]!) / (avg || 1));
  const idfOf = (id: number): number => {
    const d = id < nTerms ? df[id]! : 0;
    return d === 0 ? 0 : Math.log(1 + (n - d + 0.5) / (d + 0.5));
  };

  return {
    size: n,
    idf: idfOf,
    accumulate(terms, scores, weights) {
      const touched: number[] = [];
      for (let qi = 0; qi < terms.length; qi++) {
        const id = terms[qi]!;
        if (id < 0 || id >= nTerms) continue;
        const w = idfOf(id) * (weights ? weights[qi]! : 1);
        if (w === 0) continue;
        for (let p = start[id]!, end = start[id + 1]!; p < end; p++) {
          const u = unitOf[p]!;
          const tf = tfOf[p]!;
          if (scores[u] === 0) touched.push(u);
          scores[u]! += (w * tf * (k1 + 1)) / (tf + norm[u]!);
        }
      }
      return touched;
    },
  };
}
