/**
 * Shows (or, with `text` null, removes) the short notice that questions are logged (issue 13 §4), as plain text in a
 * paragraph placed before `before` inside `parent`. Returns the element, or null when removed. The default text is
 * the `loggingNotice` string (docs/privacy.md); the owner's own notice replaces it.
 */
export function setLoggingNotice(parent: HTMLElement, before: Node | null, text: string | null, current: HTMLElement | null): HTMLElement | null {
  if (text === null) {
    current?.remove();
    return null;
  }
  const note = current ?? parent.insertBefore(parent.ownerDocument.createElement('p'), before);
  note.className = 'notice';
  note.textContent = text;
  return note;
}
