// Letters, marks and digits of any script stay; everything else (punctuation, symbols, spaces) separates words.
const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/gu;

/**
 * The form questions are grouped by in insights ("top questions", "coverage gaps"): Unicode-compatible (NFKC), lower
 * case, punctuation and spacing collapsed — "How much is shipping?" and "how much is  shipping" are one question.
 * No stemming or stopword removal: owners read these groups, and a group must hold what visitors actually typed.
 */
export function normalizeQuestion(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(NOT_WORD, ' ').trim();
}
