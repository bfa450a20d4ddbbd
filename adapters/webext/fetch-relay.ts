/**
 * The background's side of the HTTP transport: performs a relayed request with its own fetch and streams the answer
 * back. It forwards only to the endpoint the user configured (`allow`), so a content script, or a page that somehow
 * talks to one, cannot use the extension's host permissions as an open proxy.
 */
import { KitError } from '../../core/errors/index.js';
import { toBase64, type RelayedRequest, type RelayedResponsePart } from './port-http-transport.js';
import type { PortStreamHandler } from './port-stream.js';

/** Request headers the relay passes on; anything else (cookies, custom headers) is dropped. */
export const RELAYED_HEADERS: readonly string[] = ['accept', 'authorization', 'content-type', 'kit-session'];

export interface FetchRelayOptions {
  /** True when `url` may be fetched (e.g. it lies under the configured endpoint). Awaited per request. */
  readonly allow: (url: string) => boolean | Promise<boolean>;
  /** Default: the global fetch (looked up per call). */
  readonly fetch?: typeof fetch;
}

/** A port-stream handler that answers RelayedRequests with fetch: one `head` part, then `chunk` parts. */
export function createFetchRelay(options: FetchRelayOptions): PortStreamHandler {
  return async function* relay(raw, signal): AsyncGenerator<RelayedResponsePart> {
    const call = raw as RelayedRequest;
    if (!call || (call.method !== 'GET' && call.method !== 'POST') || typeof call.url !== 'string' || !URL.canParse(call.url)) {
      throw new KitError('invalid_request', 'The extension received a malformed request.');
    }
    if (!(await options.allow(call.url))) {
      throw new KitError('invalid_config', 'The extension only forwards requests to the endpoint set in its options.');
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(call.headers ?? {})) {
      if (RELAYED_HEADERS.includes(name.toLowerCase()) && typeof value === 'string') headers[name.toLowerCase()] = value;
    }
    const doFetch = options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
    let response: Response;
    try {
      response = await doFetch(call.url, {
        method: call.method,
        headers,
        ...(call.method === 'POST' && typeof call.body === 'string' ? { body: call.body } : {}),
        signal,
        credentials: 'omit',
        cache: 'no-store',
        // A redirect could leave the allowed endpoint: refuse to follow it.
        redirect: 'error',
      });
    } catch (cause) {
      if (signal.aborted) throw signal.reason;
      throw new KitError('network_error', 'The service could not be reached.', { cause });
    }
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      responseHeaders[name.toLowerCase()] = value;
    });
    yield { type: 'head', status: response.status, headers: responseHeaders };
    if (!response.body) return;
    const reader = response.body.getReader();
    try {
      for (;;) {
        let step: ReadableStreamReadResult<Uint8Array>;
        try {
          step = await reader.read();
        } catch (cause) {
          if (signal.aborted) throw signal.reason;
          throw new KitError('network_error', 'The connection to the service was lost.', { cause });
        }
        if (step.done) return;
        if (step.value.byteLength > 0) yield { type: 'chunk', base64: toBase64(step.value) };
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  };
}
