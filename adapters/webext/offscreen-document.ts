/**
 * Chromium's offscreen document: a hidden extension page that lives as long as the browser does, unlike the MV3
 * service worker, which is stopped after 30 s idle and has no reliable WebGPU. Kit runs WebLLM there.
 */
import browser from 'webextension-polyfill';

// `chrome.offscreen` (Chromium 109+) is not in webextension-polyfill's types; the polyfill passes it through.
interface OffscreenApi {
  createDocument(options: { url: string; reasons: string[]; justification: string }): Promise<void>;
  closeDocument(): Promise<void>;
}
interface RuntimeWithContexts {
  getContexts?(filter: { contextTypes: string[] }): Promise<unknown[]>;
}

const offscreen = (): OffscreenApi | undefined => (browser as unknown as { offscreen?: OffscreenApi }).offscreen;

/** True where the browser has offscreen documents (Chromium); Firefox has none. */
export function offscreenDocumentsSupported(): boolean {
  return offscreen() !== undefined;
}

/** True when the extension's offscreen document exists (also after the service worker restarted). */
export async function hasOffscreenDocument(): Promise<boolean> {
  const getContexts = (browser.runtime as unknown as RuntimeWithContexts).getContexts;
  if (getContexts) return (await getContexts.call(browser.runtime, { contextTypes: ['OFFSCREEN_DOCUMENT'] })).length > 0;
  return (await (offscreen() as OffscreenApi & { hasDocument?(): Promise<boolean> }).hasDocument?.()) ?? false;
}

/** Creates the offscreen document `path` (one per extension: callers must not race; see the background). */
export async function createOffscreenDocument(path: string, justification: string): Promise<void> {
  const api = offscreen();
  if (!api) throw new Error('offscreen documents are not supported');
  await api.createDocument({ url: browser.runtime.getURL(path), reasons: ['WORKERS'], justification });
}

/** Closes the offscreen document if there is one (frees the model's GPU memory). */
export async function closeOffscreenDocument(): Promise<void> {
  await offscreen()?.closeDocument().catch(() => undefined);
}
