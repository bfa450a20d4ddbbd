/**
 * The one HTTP exchange the SDK's Platform API client needs. Kept small and made of plain data (strings, a record of
 * headers, a byte iterable) so a host can carry it across a message channel: the website uses window.fetch, the
 * browser extension routes the same requests through its background worker.
 */

/** A request: the body, when present, is already serialised JSON text. */
export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  /** Absolute URL. */
  readonly url: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Aborting it rejects a pending `request` with the signal's reason and cancels a body being read. */
  readonly signal?: AbortSignal;
}

/** A response, returned as soon as its status and headers are known. */
export interface HttpResponse {
  readonly status: number;
  /** Header names in lower case; a cross-origin response shows only the headers the server exposes. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The body: bytes as they arrive (stopping the iteration early cancels the connection), or the whole text when
   * the transport already holds it (e.g. a message from the extension's background). Read it once.
   */
  readonly body: AsyncIterable<Uint8Array> | string;
}

/**
 * Sends one request. Rejects with the signal's reason when aborted, and with anything else (a TypeError from fetch,
 * a KitError('network_error')) when the server could not be reached; the client maps the latter to `network_error`.
 * Any HTTP status is a response, never a rejection.
 */
export interface HttpTransportPort {
  request(request: HttpRequest): Promise<HttpResponse>;
}
