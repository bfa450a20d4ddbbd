/** How often the address is compared when the Navigation API is missing or a change slipped past it. */
export const LOCATION_POLL_MS = 1_000;

/** The page's address without its fragment: a new fragment is the same page for the assistant. */
export function pageAddress(href: string): string {
  const hash = href.indexOf('#');
  return hash === -1 ? href : href.slice(0, hash);
}

/**
 * Calls `onChange` when a single-page app changes the address (history.pushState / replaceState / back and forward).
 * A content script cannot hook the page's `history` (another JavaScript world), so it listens to the Navigation API's
 * `currententrychange` and `popstate`, and polls as a fallback. Returns the function that removes every listener.
 */
export function watchLocation(win: Window, onChange: (address: string) => void, pollMs = LOCATION_POLL_MS): () => void {
  let last = pageAddress(win.location.href);
  const check = (): void => {
    const now = pageAddress(win.location.href);
    if (now === last) return;
    last = now;
    onChange(now);
  };
  const navigation = (win as unknown as { navigation?: EventTarget }).navigation;
  navigation?.addEventListener('currententrychange', check);
  win.addEventListener('popstate', check);
  const timer = win.setInterval(check, pollMs);
  return () => {
    navigation?.removeEventListener('currententrychange', check);
    win.removeEventListener('popstate', check);
    win.clearInterval(timer);
  };
}
