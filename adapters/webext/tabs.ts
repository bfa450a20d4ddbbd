import browser from 'webextension-polyfill';

/** Id of the active tab of the current window (the tab whose toolbar button was clicked), or null. */
export async function activeTabId(): Promise<number | null> {
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return tab?.id ?? null;
}

/**
 * Runs the content script `file` in a tab's top frame only (cross-origin iframes are never entered), in the
 * extension's isolated world: the page's scripts cannot see its variables, so the key stays out of their reach.
 * Needs a host permission for the tab's origin or the `activeTab` grant of a toolbar click.
 */
export async function injectContentScript(tabId: number, file: string): Promise<void> {
  await browser.scripting.executeScript({ target: { tabId, frameIds: [0] }, files: [file], world: 'ISOLATED' } as never);
}

/** Calls `fn` when a tab has finished loading a new document. Returns the unsubscribe function. */
export function onTabLoaded(fn: (tabId: number) => void): () => void {
  const listener = (tabId: number, change: browser.Tabs.OnUpdatedChangeInfoType): void => {
    if (change.status === 'complete') fn(tabId);
  };
  browser.tabs.onUpdated.addListener(listener);
  return () => browser.tabs.onUpdated.removeListener(listener);
}

/** Calls `fn` when a tab closes. Returns the unsubscribe function. */
export function onTabRemoved(fn: (tabId: number) => void): () => void {
  const listener = (tabId: number): void => fn(tabId);
  browser.tabs.onRemoved.addListener(listener);
  return () => browser.tabs.onRemoved.removeListener(listener);
}

/** Opens a page of the extension in a new tab. */
export async function openExtensionTab(path: string): Promise<void> {
  await browser.tabs.create({ url: browser.runtime.getURL(path) });
}

/** Shows a short badge on the toolbar button for one tab ('' clears it). */
export async function setTabBadge(tabId: number, text: string): Promise<void> {
  await browser.action.setBadgeText({ tabId, text });
}

/**
 * The address of a tab, or null when the extension may not see it (it needs the `activeTab` grant of a toolbar
 * click, or a host permission for the tab's origin; no `tabs` permission is asked for).
 */
export async function tabUrl(tabId: number): Promise<string | null> {
  try {
    return (await browser.tabs.get(tabId)).url ?? null;
  } catch {
    return null;
  }
}
