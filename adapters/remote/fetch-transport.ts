import type { HttpRequest, HttpResponse, HttpTransportPort } from '../../core/ports/http-transport.port.js';

/** Options of the fetch transport. */
export interface FetchTransportOptions {
  /** The fetch to use. Default: the global fetch, looked up at each call (so a page's later polyfill is honoured). */
  readonly fetch?: typeof fetch;
}

/**
 * The default transport: window.fetch, cross-origin, without the visitor's cookies (the Platform API authenticates
 * with the key and the session header only, so ambient credentials must never travel with it).
 */
export function createFetchTransport(options: FetchTransportOptions = {}): HttpTransportPort {
  return {
    async request(request: HttpRequest): Promise<HttpResponse> {
      const doFetch = options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
      const response = await doFetch(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        ...(request.signal ? { signal: request.signal } : {}),
        credentials: 'omit',
        mode: 'cors',
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      return { status: response.status, headers, body: response.body ? bodyIterable(response.body) : '' };
    },
  };
}

// Safari has no async iteration on ReadableStream: read through the reader, and cancel it when the consumer stops.
function bodyIterable(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
      const reader = stream.getReader();
      return {
        async next(): Promise<IteratorResult<Uint8Array>> {
          const step = await reader.read();
          return step.done ? { done: true, value: undefined } : { done: false, value: step.value };
        },
        async return(): Promise<IteratorResult<Uint8Array>> {
          await reader.cancel().catch(() => undefined);
          return { done: true, value: undefined };
        },
      };
    },
  };
}
