/**
 * Short lines that are page furniture rather than content, matched whole (case-insensitive). Used only on the
 * fallback path (a page Readability rejected), where navigation and share widgets leak into the body text.
 */
const BOILERPLATE_LINE = /^(?:advertisement|advertisements|sponsored|skip to (?:main )?content|skip to navigation|back to top|share(?: this)?(?: (?:article|page|post|story))?|print(?: this page)?|email|tweet|menu|toggle navigation|close|search|sign in|log in|subscribe|cookie settings|accept(?: all)?(?: cookies)?)$/i;

/** Characters that take no space and only get in the way of tokenising (zero-width spaces/joiners, BOM, soft hyphen). */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;

/** Options of cleanText. */
export interface CleanTextOptions {
  /** Drop whole lines that are page furniture ("Advertisement", "Share", "Skip to content"…). Default false. */
  readonly dropBoilerplate?: boolean;
}

/**
 * Normalises extracted text for the corpus: invisible characters removed, runs of spaces and tabs collapsed
 * (non-breaking and other Unicode spaces included), lines trimmed, a line repeating the line just before it dropped,
 * and at most one blank line between paragraphs. Linear in the input; idempotent.
 */
export function cleanText(raw: string, options: CleanTextOptions = {}): string {
  const lines = raw.replace(INVISIBLE, '').replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let previous = '';
  for (const line of lines) {
    const text = line.replace(/[^\S\n]+/g, ' ').trim();
    if (text === '') {
      if (out.length > 0 && out[out.length - 1] !== '') out.push('');
      previous = '';
      continue;
    }
    if (text === previous) continue;
    if (options.dropBoilerplate && text.length <= 40 && BOILERPLATE_LINE.test(text)) continue;
    out.push(text);
    previous = text;
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}
