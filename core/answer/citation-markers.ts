/**
 * Citation markers in a generated answer: the grounded prompt numbers the sources [1]..[n] and asks the model to
 * cite them inline. Models stream text in arbitrary pieces, so a marker can arrive split ("[" then "2]"); this parser
 * holds back only the few characters that could still become a marker and releases everything else at once.
 */

/** What the parser releases, in order: answer text (markers normalised to `[n]`) and each cited index once. */
export type CitationPiece = { readonly type: 'delta'; readonly text: string } | { readonly type: 'citation'; readonly index: number };

export interface CitationMarkerParser {
  /** Feeds the next piece of model output; returns what can be released now. */
  push(text: string): CitationPiece[];
  /** Flushes what was held back at the end of the stream. */
  end(): CitationPiece[];
  /** Cited indexes so far, in first-use order. */
  readonly cited: readonly number[];
}

/** Longest text held back while waiting for a marker to close; longer brackets are plain text. */
export const MAX_MARKER_CHARS = 40;

// `[1]`, `[1, 3]`, `[1; 2]`, `[Source 2]`: the forms small instruction models produce when asked for `[n]`.
const MARKER = /^\[\s*(?:sources?\s*)?(\d{1,4}(?:\s*[,;]\s*(?:sources?\s*)?\d{1,4})*)\s*\]/i;
const MARKER_PREFIX = /^\[\s*(?:s(?:o(?:u(?:r(?:c(?:e(?:s)?)?)?)?)?)?)?\s*[\d\s,;]*(?:s(?:o(?:u(?:r(?:c(?:e(?:s)?)?)?)?)?)?)?[\d\s,;]*$/i;

/**
 * Creates a streaming parser for answers grounded in `sourceCount` sources. Markers whose indexes are all outside
 * 1..sourceCount are dropped from the text (a model inventing "[7]" must not show a dead link); valid ones are
 * rewritten as `[n]` (so `[1, 2]` becomes `[1][2]`) and each index yields one citation, at its first use.
 */
export function createCitationMarkerParser(sourceCount: number): CitationMarkerParser {
  let pending = '';
  const cited: number[] = [];

  const drain = (final: boolean): CitationPiece[] => {
    const out: CitationPiece[] = [];
    let text = '';
    const flushText = (): void => {
      if (text) out.push({ type: 'delta', text });
      text = '';
    };
    let i = 0;
    while (i < pending.length) {
      const open = pending.indexOf('[', i);
      if (open < 0) {
        text += pending.slice(i);
        i = pending.length;
        break;
      }
      text += pending.slice(i, open);
      const rest = pending.slice(open);
      const m = MARKER.exec(rest);
      if (m && m[0].length <= MAX_MARKER_CHARS) {
        const indexes = (m[1] as string).split(/[,;]/).map((s) => Number.parseInt(s.replace(/\D/g, ''), 10)).filter((n) => n >= 1 && n <= sourceCount);
        const fresh: number[] = [];
        for (const n of new Set(indexes)) {
          text += `[${n}]`;
          if (!cited.includes(n)) {
            cited.push(n);
            fresh.push(n);
          }
        }
        if (fresh.length) {
          flushText();
          for (const n of fresh) out.push({ type: 'citation', index: n });
        }
        i = open + m[0].length;
        continue;
      }
      if (!final && rest.length <= MAX_MARKER_CHARS && MARKER_PREFIX.test(rest)) {
        // Could still close as a marker: wait for more text.
        pending = rest;
        flushText();
        return out;
      }
      text += '[';
      i = open + 1;
    }
    pending = '';
    flushText();
    return out;
  };

  return {
    push(piece: string): CitationPiece[] {
      pending += piece;
      return drain(false);
    },
    end(): CitationPiece[] {
      return drain(true);
    },
    get cited(): readonly number[] {
      return cited;
    },
  };
}
