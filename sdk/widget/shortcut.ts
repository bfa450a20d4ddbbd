/** A parsed keyboard shortcut of the `shortcut` option. */
export interface Shortcut {
  matches(e: KeyboardEvent): boolean;
  /** The `aria-keyshortcuts` value, e.g. "Control+K". */
  readonly aria: string;
}

const MAC = typeof navigator !== 'undefined' && /Mac|iP(hone|ad|od)/.test(navigator.platform || navigator.userAgent);

/**
 * Parses 'mod+k', 'ctrl+shift+k', 'alt+/', '/' (mod is ⌘ on Apple devices, Ctrl elsewhere); null for no shortcut.
 * A shortcut without Ctrl, Alt or ⌘ never fires while the visitor types in a field of the page.
 */
export function parseShortcut(spec: string | null | undefined): Shortcut | null {
  if (typeof spec !== 'string' || !spec.trim()) return null;
  const parts = spec.toLowerCase().split('+').map((p) => p.trim());
  const key = parts.pop() || '+';
  const has = (m: string): boolean => parts.includes(m);
  const ctrl = has('ctrl') || has('control') || (has('mod') && !MAC);
  const meta = has('meta') || has('cmd') || (has('mod') && MAC);
  const alt = has('alt') || has('option');
  const shift = has('shift');
  const aria = [ctrl && 'Control', meta && 'Meta', alt && 'Alt', shift && 'Shift', key.length === 1 ? key.toUpperCase() : key].filter(Boolean).join('+');
  return {
    aria,
    matches(e) {
      if (e.ctrlKey !== ctrl || e.metaKey !== meta || e.altKey !== alt || (e.shiftKey !== shift && key.length > 1)) return false;
      if ((e.key || '').toLowerCase() !== key) return false;
      if (ctrl || meta || alt) return true;
      const target = e.composedPath?.()[0] as HTMLElement | undefined;
      return !(target && (target.isContentEditable || /^(input|textarea|select)$/i.test(target.localName)));
    },
  };
}
