/** The default notice while the site owner logs questions (docs/privacy.md); the owner's `notice` replaces it. */
export const DEFAULT_LOGGING_NOTICE = "Questions you ask here are stored to improve this site's help. Please don't share personal information.";

/** CSS of the notice, appended to the widget's sheet by the widget ws when it integrates this file. */
export const LOGGING_NOTICE_CSS = `.notice{font-size:.75rem;opacity:.8;margin:.25rem .75rem}`;

/**
 * Shows (or, with `text` null, removes) the short notice that questions are logged (issue 13 §4), as plain text in a
 * paragraph placed before `before` inside `parent`. Returns the element, or null when removed.
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
