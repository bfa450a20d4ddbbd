/** How far back from the limit a cut may move to land on whitespace instead of mid-word. */
const WORD_BOUNDARY_WINDOW = 200;

/**
 * Cuts `text` to at most `max` characters, preferring the last whitespace within 200 characters of the limit
 * and never splitting a surrogate pair. Returns the kept prefix (trailing whitespace trimmed) and how many
 * characters were cut (so `kept.length + cut === text.length`).
 */
export function truncateText(text: string, max: number): { text: string; cut: number } {
  if (text.length <= max) return { text, cut: 0 };
  let end = Math.max(0, Math.floor(max));
  const code = text.charCodeAt(end - 1);
  if (end > 0 && code >= 0xd800 && code <= 0xdbff) end--; // a high surrogate whose pair lies past the limit
  const floor = Math.max(0, end - WORD_BOUNDARY_WINDOW);
  for (let i = end; i > floor; i--) {
    if (isSpace(text.charCodeAt(i))) {
      end = i;
      break;
    }
  }
  let kept = text.slice(0, end);
  kept = kept.trimEnd();
  return { text: kept, cut: text.length - kept.length };
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d || code === 0xa0 || code === 0x3000;
}
