/**
 * One call, many answers, over a WebExtension runtime Port: the channel under the extension's HTTP transport and its
 * local-engine proxy. A Port per call keeps cancellation trivial: disconnecting it is the abort, on either side.
 * Messages are plain JSON (Chromium serialises Port messages as JSON; Firefox uses structured clone).
 */
import { isErrorCode, isKitError, KitError, type ErrorDetails } from '../../core/errors/index.js';

/** The part of `runtime.Port` this channel uses (webextension-polyfill's Port satisfies it). */
export interface RuntimePortLike {
  readonly name: string;
  postMessage(message: unknown): void;
  disconnect(): void;
  readonly onMessage: PortEvent<(message: unknown) => void>;
  readonly onDisconnect: PortEvent<() => void>;
}

interface PortEvent<F> {
  addListener(fn: F): void;
  removeListener(fn: F): void;
}

/** Caller → host messages. */
export type StreamClientMessage =
  | { readonly kind: 'call'; readonly call: unknown }
  /** Keeps an MV3 service worker awake on a quiet call (a model load, a slow answer): a message is an event to it. */
  | { readonly kind: 'ping' };

/** Host → caller messages: any number of items, then exactly one `end` or `fail`. */
export type StreamHostMessage =
  | { readonly kind: 'item'; readonly item: unknown }
  | { readonly kind: 'end' }
  | { readonly kind: 'fail'; readonly error: { readonly code: string; readonly message: string; readonly details?: ErrorDetails } };

/** Interval of the caller's keep-alive ping. Chromium stops an idle extension service worker after 30 s. */
export const KEEPALIVE_MS = 20_000;

/**
 * Opens a port, sends `call`, and returns the host's items as an async iterable. Aborting `signal` or stopping the
 * iteration early disconnects the port (the host aborts its work). A host failure is rethrown as a KitError with
 * the host's code; a port that closes without `end` (extension reloaded, worker killed) is `network_error`.
 */
export function openPortStream<T>(connect: () => RuntimePortLike, call: unknown, signal?: AbortSignal): AsyncIterableIterator<T> {
  const queue: T[] = [];
  let settled: { error: unknown } | { done: true } | null = null;
  let wake: (() => void) | null = null;
  let port: RuntimePortLike | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;

  const notify = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const close = (): void => {
    clearInterval(timer);
    signal?.removeEventListener('abort', onAbort);
    if (!port) return;
    const p = port;
    port = null;
    p.onMessage.removeListener(onMessage);
    p.onDisconnect.removeListener(onDisconnect);
    try { p.disconnect(); } catch { /* already gone */ }
  };
  const finish = (outcome: { error: unknown } | { done: true }): void => {
    if (settled) return;
    settled = outcome;
    close();
    notify();
  };
  function onMessage(raw: unknown): void {
    const message = raw as StreamHostMessage;
    if (message?.kind === 'item') {
      queue.push(message.item as T);
      notify();
    } else if (message?.kind === 'end') {
      finish({ done: true });
    } else if (message?.kind === 'fail') {
      const { code, message: text, details } = message.error ?? {};
      finish({ error: new KitError(isErrorCode(code) ? code : 'internal_error', typeof text === 'string' ? text : 'The extension failed.', details ? { details } : undefined) });
    }
  }
  function onDisconnect(): void {
    finish({ error: new KitError('network_error', 'The extension closed the connection (was it reloaded?).') });
  }
  function onAbort(): void {
    finish({ error: signal!.reason });
  }

  if (signal?.aborted) {
    settled = { error: signal.reason };
  } else {
    try {
      port = connect();
      port.onMessage.addListener(onMessage);
      port.onDisconnect.addListener(onDisconnect);
      port.postMessage({ kind: 'call', call } satisfies StreamClientMessage);
      signal?.addEventListener('abort', onAbort, { once: true });
      timer = setInterval(() => {
        try { port?.postMessage({ kind: 'ping' } satisfies StreamClientMessage); } catch { onDisconnect(); }
      }, KEEPALIVE_MS);
    } catch (cause) {
      // "Extension context invalidated": the extension was reloaded under this content script.
      close();
      settled = { error: new KitError('network_error', 'The extension is not reachable (was it reloaded?).', { cause }) };
    }
  }

  const iterator: AsyncIterableIterator<T> = {
    async next(): Promise<IteratorResult<T>> {
      for (;;) {
        if (queue.length > 0) return { done: false, value: queue.shift() as T };
        if (settled) {
          if ('error' in settled) {
            const { error } = settled;
            settled = { done: true }; // rethrown once, like a failed stream
            throw error;
          }
          return { done: true, value: undefined };
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    async return(): Promise<IteratorResult<T>> {
      queue.length = 0;
      finish({ done: true });
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/** What a host does with one call: yields items; aborting `signal` means the caller went away. */
export type PortStreamHandler = (call: unknown, signal: AbortSignal) => AsyncIterable<unknown>;

/**
 * Serves one call arriving on `port` with `handler`. Errors become a `fail` message: a KitError keeps its code and
 * message; anything else is reported as `internal_error` with a generic message (it may hold page text or URLs).
 */
export function servePortStream(port: RuntimePortLike, handler: PortStreamHandler): void {
  const controller = new AbortController();
  let started = false;
  const post = (message: StreamHostMessage): void => {
    if (controller.signal.aborted) return;
    try { port.postMessage(message); } catch { controller.abort(); }
  };
  const onMessage = (raw: unknown): void => {
    const message = raw as StreamClientMessage;
    if (message?.kind !== 'call' || started) return;
    started = true;
    void (async () => {
      try {
        for await (const item of handler(message.call, controller.signal)) {
          if (controller.signal.aborted) return;
          post({ kind: 'item', item });
        }
        post({ kind: 'end' });
      } catch (err) {
        if (controller.signal.aborted) return;
        post({ kind: 'fail', error: isKitError(err) ? { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } : { code: 'internal_error', message: 'The extension failed unexpectedly.' } });
      } finally {
        // Let the caller read the last message before the channel goes; it disconnects on `end`/`fail` itself.
        port.onMessage.removeListener(onMessage);
      }
    })();
  };
  const onDisconnect = (): void => {
    controller.abort(new DOMException('The caller went away.', 'AbortError'));
    port.onMessage.removeListener(onMessage);
    port.onDisconnect.removeListener(onDisconnect);
  };
  port.onMessage.addListener(onMessage);
  port.onDisconnect.addListener(onDisconnect);
}
