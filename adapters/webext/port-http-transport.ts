/**
 * The content script's HttpTransportPort: every Platform API request goes to the extension's background over a
 * runtime Port, and the background's fetch answers (see fetch-relay.ts). So the page's CSP and CORS never apply,
 * requests carry the extension's origin, and an SSE body streams chunk by chunk; aborting closes the Port, which
 * aborts the background's fetch.
 */
import { KitError } from '../../core/errors/index.js';
import type { HttpRequest, HttpResponse, HttpTransportPort } from '../../core/ports/http-transport.port.js';
import { openPortStream, type RuntimePortLike } from './port-stream.js';

/** What the content script asks the background to fetch (plain data: it crosses a Port as JSON). */
export interface RelayedRequest {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** What comes back: the head once, then the body's bytes as base64 (Port messages are JSON: no Uint8Array). */
export type RelayedResponsePart =
  | { readonly type: 'head'; readonly status: number; readonly headers: Readonly<Record<string, string>> }
  | { readonly type: 'chunk'; readonly base64: string };

/** Port name the background listens on for relayed requests. */
export const HTTP_PORT_NAME = 'kit-http';

export interface PortHttpTransportOptions {
  /** Opens a Port to the background (runtime.connect({ name: HTTP_PORT_NAME })). */
  readonly connect: () => RuntimePortLike;
}

/** An HttpTransportPort whose requests the extension's background performs. */
export function createPortHttpTransport(options: PortHttpTransportOptions): HttpTransportPort {
  return {
    async request(request: HttpRequest): Promise<HttpResponse> {
      const call: RelayedRequest = { method: request.method, url: request.url, headers: { ...request.headers }, ...(request.body === undefined ? {} : { body: request.body }) };
      const parts = openPortStream<RelayedResponsePart>(options.connect, call, request.signal);
      const first = await parts.next();
      if (first.done || first.value.type !== 'head') {
        await parts.return?.();
        throw new KitError('network_error', 'The extension returned no response.');
      }
      const { status, headers } = first.value;
      return { status, headers, body: bodyOf(parts) };
    },
  };
}

function bodyOf(parts: AsyncIterableIterator<RelayedResponsePart>): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
      return {
        async next(): Promise<IteratorResult<Uint8Array>> {
          for (;;) {
            const step = await parts.next();
            if (step.done) return { done: true, value: undefined };
            if (step.value.type === 'chunk') return { done: false, value: fromBase64(step.value.base64) };
          }
        },
        async return(): Promise<IteratorResult<Uint8Array>> {
          await parts.return?.();
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/** Base64 of bytes, in slices (String.fromCharCode's argument count is bounded). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Bytes of a base64 string. */
export function fromBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
