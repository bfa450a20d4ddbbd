/**
 * Messages and Ports between the extension's contexts, through webextension-polyfill (promises in every browser).
 * adapters/webext/ is the only code that touches `browser.*` (STYLE.md); the extension's hosts call these.
 */
import browser from 'webextension-polyfill';
import type { RuntimePortLike } from './port-stream.js';

/** Who sent a message or opened a Port. */
export interface Sender {
  /** Set for content scripts. */
  readonly tabId?: number;
  readonly frameId?: number;
  /** URL of the sending document (an extension page, or the page a content script runs in). */
  readonly url?: string;
}

const senderOf = (s: browser.Runtime.MessageSender | undefined): Sender => ({
  ...(s?.tab?.id === undefined ? {} : { tabId: s.tab.id }),
  ...(s?.frameId === undefined ? {} : { frameId: s.frameId }),
  ...(s?.url === undefined ? {} : { url: s.url }),
});

/** Opens a Port to the extension's other contexts (background, offscreen document). */
export function connectToExtension(name: string): RuntimePortLike {
  return browser.runtime.connect({ name }) as unknown as RuntimePortLike;
}

/** Calls `fn` for each Port named `name` opened towards this context; returns the unsubscribe function. */
export function onPortConnect(name: string, fn: (port: RuntimePortLike, sender: Sender) => void): () => void {
  const listener = (port: browser.Runtime.Port): void => {
    if (port.name === name) fn(port as unknown as RuntimePortLike, senderOf(port.sender));
  };
  browser.runtime.onConnect.addListener(listener);
  return () => browser.runtime.onConnect.removeListener(listener);
}

/**
 * Answers one-off messages: `fn` returns a promise for the messages it handles and undefined for the others (so
 * another context may answer them). Returns the unsubscribe function.
 */
export function onExtensionMessage(fn: (message: unknown, sender: Sender) => Promise<unknown> | undefined): () => void {
  const listener = (message: unknown, sender: browser.Runtime.MessageSender): Promise<unknown> | undefined => fn(message, senderOf(sender));
  browser.runtime.onMessage.addListener(listener as never);
  return () => browser.runtime.onMessage.removeListener(listener as never);
}

/** Sends a message to the extension's pages and background; resolves with the first answer. */
export function sendToExtension<R = unknown>(message: unknown): Promise<R> {
  return browser.runtime.sendMessage(message) as Promise<R>;
}

/** Sends a message to the content script of a tab's top frame. Rejects when none listens. */
export function sendToTab<R = unknown>(tabId: number, message: unknown): Promise<R> {
  return browser.tabs.sendMessage(tabId, message, { frameId: 0 }) as Promise<R>;
}

/** Absolute URL of a file of the extension. */
export function extensionUrl(path: string): string {
  return browser.runtime.getURL(path);
}

/** The extension's origin (`chrome-extension://<id>`, `moz-extension://<uuid>`): what its requests carry. */
export function extensionOrigin(): string {
  return new URL(browser.runtime.getURL('/')).origin;
}

/** Host permission patterns the manifest grants at install time. */
export function manifestHostPermissions(): readonly string[] {
  return (browser.runtime.getManifest() as { host_permissions?: string[] }).host_permissions ?? [];
}

/** Opens the options page. */
export function openOptionsPage(): Promise<void> {
  return browser.runtime.openOptionsPage();
}
