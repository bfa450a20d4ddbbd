import { isKitError } from '../../core/errors/index.js';
import type { RuntimePortLike, StreamHostMessage } from '../../adapters/webext/port-stream.js';

/**
 * Joins a content script's local-engine Port to a new Port into the offscreen document, message for message, once
 * the document is up; closing either end closes the other (so an abort reaches WebLLM). Messages sent before the
 * document is up are held. If it cannot start, the caller gets a `fail` (the SDK then falls back to another engine).
 */
export function relayLocalPort(content: RuntimePortLike, deps: { ensureHost(): Promise<void>; connectHost(): RuntimePortLike }): void {
  const held: unknown[] = [];
  let host: RuntimePortLike | null = null;
  let closed = false;
  const onContentMessage = (message: unknown): void => {
    if (host) host.postMessage(message);
    else held.push(message);
  };
  content.onMessage.addListener(onContentMessage);
  content.onDisconnect.addListener(() => {
    closed = true;
    content.onMessage.removeListener(onContentMessage);
    try { host?.disconnect(); } catch { /* gone */ }
  });
  deps.ensureHost().then(() => {
    if (closed) return;
    const h = deps.connectHost();
    host = h;
    h.onMessage.addListener((message) => { if (!closed) content.postMessage(message); });
    h.onDisconnect.addListener(() => {
      if (closed) return;
      closed = true;
      content.disconnect();
    });
    for (const message of held.splice(0)) h.postMessage(message);
  }, (err: unknown) => {
    if (closed) return;
    const error = isKitError(err) ? { code: err.code, message: err.message } : { code: 'model_load_failed', message: 'The extension could not start its model host.' };
    content.postMessage({ kind: 'fail', error } satisfies StreamHostMessage);
  });
}
