/**
 * Answer matching for the QA evaluation: SQuAD's answer normalisation, then token containment (the gold answer's
 * tokens appear, in order and contiguous, among the text's tokens, so "1712" is not found in "17123" nor "art"
 * in "party"), and SQuAD's exact match and token F1. Token matching drops all Unicode punctuation, not only ASCII
 * (real pages write ’ and “ ” where SQuAD's rule keeps them inside a word). Text written without spaces (Chinese,
 * Japanese) has no word boundaries to match on: there, containment is of the normalised string.
 */

/** SQuAD's answer normalisation: lower case, no ASCII punctuation, no articles, single spaces. */
export function normalizeAnswer(s: string): string {
  return s.toLowerCase()
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const NO_SPACE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/** The tokens of a normalised text, Unicode punctuation removed. */
export function answerTokens(s: string): string[] {
  const n = normalizeAnswer(s.replace(/\p{P}/gu, (c) => (c === '-' ? c : ''))).trim();
  return n === '' ? [] : n.split(' ');
}

/** True when the normalised `gold` occurs in the normalised `text` as whole tokens (as a string for unspaced scripts). */
export function containsAnswer(text: string, gold: string): boolean {
  if (NO_SPACE.test(gold)) { const g = normalizeAnswer(gold); return g !== '' && normalizeAnswer(text).includes(g); }
  return containsTokens(answerTokens(text), answerTokens(gold));
}

/** True when `needle` occurs in `hay` as a contiguous run; false for an empty needle. */
export function containsTokens(hay: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return false;
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** True when the normalised text contains any gold answer as tokens. */
export function containsAny(text: string, golds: readonly string[]): boolean {
  const t = answerTokens(text);
  return golds.some((g) => (NO_SPACE.test(g) ? containsAnswer(text, g) : containsTokens(t, answerTokens(g))));
}

/** The audit's former metric, kept for comparison: substring containment after normalisation. */
export function containsAnySubstring(text: string, golds: readonly string[]): boolean {
  const t = normalizeAnswer(text);
  return golds.some((g) => { const n = normalizeAnswer(g); return n !== '' && t.includes(n); });
}

/** SQuAD exact match of `text` against the best gold answer (0 or 1). */
export function exactMatch(text: string, golds: readonly string[]): number {
  const t = normalizeAnswer(text);
  return golds.some((g) => normalizeAnswer(g) === t) ? 1 : 0;
}

/** SQuAD token F1 of `text` against the best gold answer. */
export function tokenF1(text: string, golds: readonly string[]): number {
  const t = answerTokens(text);
  let best = 0;
  for (const g of golds) {
    const gt = answerTokens(g);
    if (gt.length === 0 || t.length === 0) continue;
    const counts = new Map<string, number>();
    for (const w of gt) counts.set(w, (counts.get(w) ?? 0) + 1);
    let same = 0;
    for (const w of t) { const c = counts.get(w) ?? 0; if (c > 0) { same++; counts.set(w, c - 1); } }
    if (same === 0) continue;
    const p = same / t.length;
    const r = same / gt.length;
    best = Math.max(best, (2 * p * r) / (p + r));
  }
  return best;
}
