import type { RuntimePortLike } from '../../../adapters/webext/port-stream.js';

/** One end of an in-memory Port pair, with counters tests assert on. */
export interface TestPort extends RuntimePortLike {
  readonly sent: unknown[];
  readonly disconnected: boolean;
}

/**
 * Two connected Ports that behave like Chromium's runtime.Port: messages arrive asynchronously and pass through JSON
 * (so a Uint8Array or a function would not survive, as in the browser), disconnect() notifies only the other end,
 * and posting on a disconnected Port throws. The channel is the stand-in; the code on both ends is the real one.
 */
export function runtimePortPair(name = 'test'): [TestPort, TestPort] {
  type End = TestPort & { peer: End | null; deliver(m: unknown): void; drop(): void };
  const make = (): End => {
    const messageListeners = new Set<(m: unknown) => void>();
    const disconnectListeners = new Set<() => void>();
    let disconnected = false;
    const sent: unknown[] = [];
    const port: End = {
      name,
      sent,
      get disconnected() { return disconnected; },
      postMessage(message: unknown) {
        if (disconnected) throw new Error('Attempting to use a disconnected port object');
        const wire = JSON.stringify(message);
        sent.push(JSON.parse(wire));
        setTimeout(() => port.peer?.deliver(JSON.parse(wire)), 0);
      },
      disconnect() {
        if (disconnected) return;
        disconnected = true;
        setTimeout(() => port.peer?.drop(), 0);
      },
      onMessage: { addListener: (fn: (m: unknown) => void) => void messageListeners.add(fn), removeListener: (fn: (m: unknown) => void) => void messageListeners.delete(fn) },
      onDisconnect: { addListener: (fn: () => void) => void disconnectListeners.add(fn), removeListener: (fn: () => void) => void disconnectListeners.delete(fn) },
      deliver(message: unknown) {
        if (!disconnected) for (const fn of [...messageListeners]) fn(message);
      },
      drop() {
        if (disconnected) return;
        disconnected = true;
        for (const fn of [...disconnectListeners]) fn();
      },
      peer: null,
    };
    return port;
  };
  const a = make();
  const b = make();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

/** A connect() for openPortStream whose host end is served by `serve` (as the background's onConnect would). */
export function connectTo(serve: (hostEnd: TestPort) => void, opened: TestPort[] = []): () => TestPort {
  return () => {
    const [caller, host] = runtimePortPair();
    opened.push(host);
    serve(host);
    return caller;
  };
}
