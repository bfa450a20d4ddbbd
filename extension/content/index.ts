/**
 * Content script entry, injected by the background into a tab's top frame when the user switches Kit on. It runs in
 * the extension's isolated world: the page's own scripts cannot read its variables (the key among them), and
 * everything it sends to the Platform API goes through the background.
 */
import { storedValue } from '../../adapters/webext/extension-storage.js';
import { createPortHttpTransport } from '../../adapters/webext/port-http-transport.js';
import { createPortLocalEngine } from '../../adapters/webext/port-local-inference.js';
import { connectToExtension, onExtensionMessage, sendToExtension } from '../../adapters/webext/runtime-messaging.js';
import { init } from '../../sdk/index.js';
import { HTTP_PORT_NAME, LOCAL_PORT_NAME } from '../messages.js';
import { parseAllowLists, parseSettings, siteOf, STORAGE_KEYS, storedConnection } from '../settings.js';
import { bootstrap } from './bootstrap.js';

const settings = storedValue<unknown>('local', STORAGE_KEYS.settings);
const connection = storedValue<unknown>('local', STORAGE_KEYS.connection);
const allow = storedValue<unknown>('local', STORAGE_KEYS.allow);

bootstrap({
  loadConfig: async () => ({
    settings: parseSettings(await settings.get()),
    connection: storedConnection(await connection.get()),
    // This site's allow list (values redaction keeps visible here), read afresh at each start.
    allow: parseAllowLists(await allow.get())[siteOf(location.href) ?? ''] ?? [],
  }),
  onConfigChanged: (fn) => {
    const stops = [settings.onChanged(fn), connection.onChanged(fn), allow.onChanged(fn)];
    return () => stops.forEach((stop) => stop());
  },
  onMessage: (fn) => onExtensionMessage((message) => fn(message)),
  // No panel open is the usual case: "receiving end does not exist" is not an error here.
  notifyPanels: (message) => void sendToExtension(message).catch(() => undefined),
  host: {
    transport: createPortHttpTransport({ connect: () => connectToExtension(HTTP_PORT_NAME) }),
    localEngine: createPortLocalEngine({ connect: () => connectToExtension(LOCAL_PORT_NAME) }),
  },
  init,
  window,
});
