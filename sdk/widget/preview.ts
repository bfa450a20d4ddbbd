import type { WidgetCitation } from './answer-view.js';
import { addStyles } from './shell.js';

/** Characters of the cited passage a preview shows. */
export const PREVIEW_CHARS = 280;

const CSS = `.tip{position:fixed;z-index:2;max-width:min(340px,calc(100vw - 16px));padding:8px 10px;border:1px solid var(--_bd);border-radius:8px;background:var(--_bg);color:var(--_fg);box-shadow:0 6px 24px rgb(0 0 0/.2);font-size:13px;line-height:1.45;pointer-events:none}
.tip strong{display:block;margin-bottom:2px}`;

const tips = new WeakMap<ShadowRoot, { tip: HTMLElement; anchor: HTMLElement | null }>();

/**
 * Shows the cited passage beside a citation on hover and focus (a lazy chunk): a `role=tooltip` the citation
 * names in `aria-describedby`, so screen readers read it too; Escape hides it (WCAG 1.4.13), as do leaving the
 * citation and scrolling the conversation.
 */
export function showPreview(root: ShadowRoot, anchor: HTMLElement, c: WidgetCitation): void {
  const doc = root.ownerDocument;
  let state = tips.get(root);
  if (!state) {
    addStyles(root, CSS);
    const tip = root.appendChild(doc.createElement('div'));
    tip.className = 'tip';
    tip.id = 'kit-tip';
    tip.setAttribute('role', 'tooltip');
    tips.set(root, (state = { tip, anchor: null }));
  }
  if (state.anchor === anchor) return;
  hidePreview(root);
  const { tip } = state;
  tip.replaceChildren();
  tip.appendChild(doc.createElement('strong')).textContent = c.title || c.url;
  const text = c.text ?? '';
  tip.appendChild(doc.createElement('span')).textContent = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS).trimEnd()}…` : text;
  tip.hidden = false;
  state.anchor = anchor;
  anchor.setAttribute('aria-describedby', 'kit-tip');
  const view = doc.defaultView!;
  const r = anchor.getBoundingClientRect();
  tip.style.left = `${Math.max(8, Math.min(r.left, view.innerWidth - tip.offsetWidth - 8))}px`;
  tip.style.top = `${view.innerHeight - r.bottom > tip.offsetHeight + 12 ? r.bottom + 6 : Math.max(8, r.top - tip.offsetHeight - 6)}px`;
}

/** Hides the preview; true when one was showing. */
export function hidePreview(root: ShadowRoot): boolean {
  const state = tips.get(root);
  if (!state?.anchor) return false;
  state.anchor.removeAttribute('aria-describedby');
  state.anchor = null;
  state.tip.hidden = true;
  return true;
}
