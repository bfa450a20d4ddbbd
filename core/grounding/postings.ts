import type { Corpus } from '../text/corpus.js';

/** True when passage `p` holds term `id` (binary search in its posting list). */
export function holds(corpus: Corpus, id: number, p: number): boolean {
  const list = corpus.passagesWith(id);
  const i = lowerBound(list, p);
  return i < list.length && list[i] === p;
}

/** The first index of `list` (ascending) whose value is at least `x`. */
export function lowerBound(list: Int32Array, x: number): number {
  let lo = 0, hi = list.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (list[mid]! < x) lo = mid + 1; else hi = mid; }
  return lo;
}
