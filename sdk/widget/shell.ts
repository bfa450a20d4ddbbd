/**
 * The part of the widget in the SDK's entry: the `<kit-widget>` host, its shadow root and the launcher button. The
 * panel (conversation, composer, rendering) is the `kit-ui` chunk, loaded when the visitor shows intent (hovers,
 * focuses or presses the launcher), when the page calls open(), or at once for autoOpen and inline placement, so a
 * page view where nobody asks never downloads it.
 */

/** The host, its shadow root and (except inline) the launcher. */
export interface Shell {
  readonly host: HTMLElement;
  readonly root: ShadowRoot;
  readonly launcher: HTMLButtonElement | null;
  /** Listeners of the entry (before the panel exists); aborted when the panel takes over. */
  readonly early: AbortController;
}

const ICON_CHAT = 'M21 11.5a8.4 8.4 0 0 1-.9 3.8 8.5 8.5 0 0 1-7.6 4.7 8.4 8.4 0 0 1-3.8-.9L3 21l1.9-5.7a8.4 8.4 0 0 1-.9-3.8 8.5 8.5 0 0 1 4.7-7.6 8.4 8.4 0 0 1 3.8-.9h.5a8.5 8.5 0 0 1 8 8z';

/**
 * The host's and the launcher's styles. Theming goes through the documented --kit-* custom properties (they inherit
 * through `all: initial`, which resets every other property on the host). The host's declarations are !important
 * because, for important rules, the shadow tree's :host beats the page's own rules (CSS Cascade 4 §6.2, "Context"),
 * so `* { all: unset !important }` on the page cannot hide or restyle the widget. Sizes are px, not rem.
 */
export const SHELL_CSS = `:host{all:initial!important;display:block!important;position:fixed!important;z-index:var(--kit-z,2147483000)!important;width:0!important;height:0!important;visibility:visible!important;opacity:1!important;pointer-events:auto!important;color-scheme:light dark!important;--_a:var(--kit-accent,#2563eb);--_af:var(--kit-accent-fg,#fff)}
:host([data-p=inline]){position:static!important;width:auto!important;height:auto!important;z-index:auto!important}
*{box-sizing:border-box}
svg{width:22px;height:22px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round;flex:none}
:focus-visible{outline:2px solid var(--_a);outline-offset:2px}
.launcher{position:fixed;inset:auto;inset-inline-end:20px;inset-block-end:20px;width:56px;height:56px;padding:0;border:0;border-radius:50%;background:var(--_a);color:var(--_af);box-shadow:0 4px 16px rgb(0 0 0/.25);display:grid;place-items:center;cursor:pointer;margin:0}
.launcher svg{width:26px;height:26px}
:host([data-pos=left]) .launcher{inset-inline-end:auto;inset-inline-start:20px}`;

/**
 * Constructable stylesheets are not subject to a page's CSP `style-src` (a `<style>` element would need
 * 'unsafe-inline'); the `<style>` fallback serves browsers without them. Later sheets add to earlier ones.
 */
export function addStyles(root: ShadowRoot, css: string): void {
  const view = root.ownerDocument.defaultView;
  if (view && 'adoptedStyleSheets' in root && 'replaceSync' in view.CSSStyleSheet.prototype) {
    const sheet = new view.CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } else {
    root.appendChild(root.ownerDocument.createElement('style')).textContent = css;
  }
}

/** Creates the host in `mount` (not yet attached when `attach` is false) with a launcher labelled `label`. */
export function createShell(mount: HTMLElement, inline: boolean, label: string): Shell {
  const doc = mount.ownerDocument;
  const host = doc.createElement('kit-widget');
  host.dataset.p = inline ? 'inline' : 'launcher';
  // Open, not closed: a closed root protects nothing from a script in the same page (it can patch attachShadow),
  // while an open one lets assistive and test tooling reach the widget. Style isolation is the same in both modes.
  const root = host.attachShadow({ mode: 'open' });
  addStyles(root, SHELL_CSS);
  let launcher: HTMLButtonElement | null = null;
  if (!inline) {
    launcher = root.appendChild(doc.createElement('button'));
    launcher.type = 'button';
    launcher.className = 'launcher';
    launcher.setAttribute('aria-label', label);
    launcher.title = label;
    launcher.setAttribute('aria-haspopup', 'dialog');
    launcher.setAttribute('aria-expanded', 'false');
    const svg = launcher.appendChild(doc.createElementNS('http://www.w3.org/2000/svg', 'svg'));
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('aria-hidden', 'true');
    svg.appendChild(doc.createElementNS('http://www.w3.org/2000/svg', 'path')).setAttribute('d', ICON_CHAT);
  }
  mount.appendChild(host);
  return { host, root, launcher, early: new AbortController() };
}

/** The owner's look from the assistant settings; the page's own --kit-* properties win over `accent`. */
export interface WidgetTheme {
  accent?: string | null;
  scheme?: 'auto' | 'light' | 'dark';
  position?: 'bottom-right' | 'bottom-left';
}

/** Applies the owner's theme to the host (the launcher shows it before the panel exists). */
export function applyTheme(host: HTMLElement, theme: WidgetTheme | null | undefined): void {
  if (!theme) return;
  const view = host.ownerDocument.defaultView;
  if (theme.accent && /^#[0-9a-f]{3,8}$/i.test(theme.accent) && !view?.getComputedStyle(host).getPropertyValue('--kit-accent').trim()) {
    host.style.setProperty('--kit-accent', theme.accent);
  }
  if (theme.scheme === 'light' || theme.scheme === 'dark') host.dataset.scheme = theme.scheme;
  if (theme.position === 'bottom-left') host.dataset.pos = 'left';
}
