/**
 * The extension's background service worker: its composition root, wired by hand (STYLE.md). It owns the three
 * things a page must never touch: the Platform API connection (every request is fetched here, with the extension's
 * origin), the tab switches, and the offscreen document where the local model runs.
 * Listeners are registered synchronously at the top level, as MV3 requires for a worker that is stopped when idle.
 */
import { createFetchRelay } from '../../adapters/webext/fetch-relay.js';
import { storedValue } from '../../adapters/webext/extension-storage.js';
import { createOffscreenDocument, hasOffscreenDocument, offscreenDocumentsSupported } from '../../adapters/webext/offscreen-document.js';
import { servePortStream } from '../../adapters/webext/port-stream.js';
import { connectToExtension, extensionOrigin, onExtensionMessage, onPortConnect, sendToTab } from '../../adapters/webext/runtime-messaging.js';
import { injectContentScript, onTabLoaded, onTabRemoved, setTabBadge } from '../../adapters/webext/tabs.js';
import { HTTP_PORT_NAME, isOffscreenToBackground, isPopupToBackground, LOCAL_PORT_NAME, OFFSCREEN_PORT_NAME, type BackgroundToContent, type OffscreenConfig } from '../messages.js';
import { isUnderEndpoint, STORAGE_KEYS, storedConnection } from '../settings.js';
import { relayLocalPort } from './local-relay.js';
import { createOffscreenHost } from './offscreen-host.js';
import { CONTENT_SCRIPT, createTabSwitch } from './tab-switch.js';

const connection = storedValue<unknown>('local', STORAGE_KEYS.connection);
const switchedTabs = storedValue<number[]>('session', STORAGE_KEYS.tabs);
const readConnection = async () => storedConnection(await connection.get());

const tabs = createTabSwitch({
  load: async () => (await switchedTabs.get()) ?? [],
  save: (ids) => switchedTabs.set([...ids]),
  inject: (tabId) => injectContentScript(tabId, CONTENT_SCRIPT),
  switchOff: (tabId) => sendToTab(tabId, { type: 'content/off' } satisfies BackgroundToContent),
  badge: setTabBadge,
  configured: async () => (await readConnection()) !== null,
});

const offscreen = createOffscreenHost({
  supported: offscreenDocumentsSupported,
  exists: hasOffscreenDocument,
  create: () => createOffscreenDocument('offscreen.html', 'Runs the local language model (WebLLM on WebGPU) once for every tab that uses Kit in local mode.'),
});

// Platform API requests of content scripts: fetched here, only under the configured endpoint.
const relay = createFetchRelay({
  allow: async (url) => {
    const current = await readConnection();
    return current !== null && isUnderEndpoint(current.endpoint, url);
  },
});
onPortConnect(HTTP_PORT_NAME, (port, sender) => {
  if (sender.tabId === undefined) return port.disconnect();
  servePortStream(port, relay);
});

// Local-engine calls of content scripts: relayed into the offscreen document.
onPortConnect(LOCAL_PORT_NAME, (port, sender) => {
  if (sender.tabId === undefined) return port.disconnect();
  relayLocalPort(port, { ensureHost: offscreen.ensure, connectHost: () => connectToExtension(OFFSCREEN_PORT_NAME) });
});

const origin = extensionOrigin();
onExtensionMessage((message, sender) => {
  // Only the extension's own pages (popup, options, QA panel, offscreen) drive the background; a content script's
  // sender URL is its page's, and content scripts run beside untrusted pages: they get nothing here.
  if (!sender.url?.startsWith(`${origin}/`)) return undefined;
  if (isPopupToBackground(message)) {
    if (message.type === 'tab/status') return tabs.status(message.tabId);
    return message.on ? tabs.switchOn(message.tabId) : tabs.switchOff(message.tabId);
  }
  if (isOffscreenToBackground(message)) {
    if (message.type === 'offscreen/ready') {
      offscreen.ready();
      return Promise.resolve(true);
    }
    return readConnection().then((c): OffscreenConfig => ({ modelBaseUrl: c?.modelBaseUrl ?? '' }));
  }
  return undefined;
});

onTabLoaded((tabId) => void tabs.loaded(tabId));
onTabRemoved((tabId) => void tabs.removed(tabId));
