/**
 * Turns the `[1]`-style citation markers a model writes into citation events, while the text streams.
 * Markers may arrive split across chunks (`[`, `1`, `]`), so a possible marker — and the spaces before it, which
 * go away with it ("$20 [1]." reads "$20.") — is held back until it is complete or proven not to be one.
 * Accepted forms: `[1]`, `[1][2]`, `[1, 2]`, `[1; 2]`, `[^1]`. A bracketed number outside 1..sourceCount (e.g. a
 * year, `[2024]`) is ordinary text and is kept. Pure: no I/O, so other engines can reuse it.
 */

/** What the parser yields: text to show, or a 1-based source index the answer cites (each index once). */
export type MarkerPiece = { readonly type: 'delta'; readonly text: string } | { readonly type: 'citation'; readonly index: number };

/** A streaming marker parser. */
export interface CitationMarkerParser {
  push(text: string): MarkerPiece[];
  /** End of the answer: releases what was held back. */
  flush(): MarkerPiece[];
}

const MARKER = /[ \t]*\[\^?(\d{1,4}(?:\s*[,;]\s*\^?\d{1,4})*)\]/g;
// A suffix that might still grow into a marker: spaces, then optionally an unclosed '[' with digits and separators.
const PENDING = /[ \t]*(?:\[\^?[\d,;\s^]*)?$/;
/** Longer unclosed brackets are text, not a marker in progress (bounds the hold-back). */
const MAX_PENDING = 48;

/** Creates a parser for an answer grounded in `sourceCount` numbered sources. */
export function createCitationMarkerParser(sourceCount: number): CitationMarkerParser {
  let pending = '';
  const cited = new Set<number>();

  const scan = (text: string, out: MarkerPiece[]): void => {
    let last = 0;
    for (const m of text.matchAll(MARKER)) {
      const indexes = (m[1] as string).split(/[,;]/).map((s) => Number(s.trim().replace('^', '')));
      if (!indexes.every((i) => Number.isInteger(i) && i >= 1 && i <= sourceCount)) continue;
      if (m.index > last) out.push({ type: 'delta', text: text.slice(last, m.index) });
      for (const i of indexes) {
        if (cited.has(i)) continue;
        cited.add(i);
        out.push({ type: 'citation', index: i });
      }
      last = m.index + m[0].length;
    }
    if (last < text.length) out.push({ type: 'delta', text: text.slice(last) });
  };

  return {
    push(text: string): MarkerPiece[] {
      pending += text;
      const out: MarkerPiece[] = [];
      // Hold back only from the end of the last complete marker on, so a finished marker is never re-held.
      let cut = pending.length;
      const tail = PENDING.exec(pending);
      if (tail && tail[0].length > 0 && tail[0].length <= MAX_PENDING) cut = tail.index;
      scan(pending.slice(0, cut), out);
      pending = pending.slice(cut);
      return merge(out);
    },
    flush(): MarkerPiece[] {
      const out: MarkerPiece[] = [];
      scan(pending, out);
      pending = '';
      return merge(out);
    },
  };
}

function merge(pieces: MarkerPiece[]): MarkerPiece[] {
  const out: MarkerPiece[] = [];
  for (const p of pieces) {
    const prev = out[out.length - 1];
    if (p.type === 'delta' && prev?.type === 'delta') out[out.length - 1] = { type: 'delta', text: prev.text + p.text };
    else out.push(p);
  }
  return out;
}
