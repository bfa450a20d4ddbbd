import { fail, ok } from '../../core/errors/result.js';
import type { PageFetcherPort, PageFetchRequest, PageFetchResult, PageValidators } from '../../core/ports/page-fetcher.port.js';

/** Options of createFetchPageFetcher. */
export interface FetchPageFetcherOptions {
  /** The fetch to call; default the global one. */
  readonly fetch?: typeof globalThis.fetch;
  /**
   * Origin of the document the fetcher runs in; default `location.origin`. When a request is on this origin the
   * fetch uses `mode: 'same-origin'`, so the browser itself refuses to follow a redirect to another origin (Fetch
   * spec, main fetch step 12): no request ever leaves the origin. Elsewhere (Node, workers of another origin) the
   * fetcher falls back to checking `response.url` and never reads a foreign body.
   */
  readonly documentOrigin?: string | null;
}

const ACCEPT = {
  html: 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.5',
  xml: 'application/xml,text/xml;q=0.9,*/*;q=0.1',
  text: 'text/plain,*/*;q=0.1',
} as const;
/** Bytes searched for a `<meta charset>` / XML `encoding` when the Content-Type names none (as HTML's prescan does). */
const SNIFF_BYTES = 1024;

const TIMEOUT = Symbol('timeout');
const ABORTED = Symbol('aborted');

/**
 * A PageFetcherPort over the Fetch API (browser, extension content script, Node ≥ 18): per-request timeout via
 * AbortController, credentials `'omit'` or `'same-origin'` passed through, redirects followed and their final
 * origin checked, the body read as a stream and cut at `maxBytes` (the rest is cancelled, never downloaded).
 */
export function createFetchPageFetcher(options: FetchPageFetcherOptions = {}): PageFetcherPort {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const documentOrigin = options.documentOrigin !== undefined ? options.documentOrigin : currentOrigin();

  return {
    async fetch(request: PageFetchRequest): Promise<PageFetchResult> {
      if (request.signal?.aborted) return fail('aborted', 'The fetch was aborted.');
      const requestOrigin = new URL(request.url).origin;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(TIMEOUT), request.timeoutMs);
      const onAbort = () => controller.abort(ABORTED);
      request.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const headers: Record<string, string> = { Accept: ACCEPT[request.accept] };
        if (request.validators?.etag) headers['If-None-Match'] = request.validators.etag;
        if (request.validators?.lastModified) headers['If-Modified-Since'] = request.validators.lastModified;
        const response = await doFetch(request.url, {
          method: 'GET',
          headers,
          credentials: request.credentials,
          mode: documentOrigin === requestOrigin ? 'same-origin' : 'cors',
          redirect: 'follow',
          signal: controller.signal,
        });
        const finalUrl = response.url || request.url;
        const contentTypeHeader = response.headers.get('content-type') ?? '';
        const contentType = contentTypeHeader.split(';')[0]!.trim().toLowerCase();
        const validators: PageValidators = { etag: response.headers.get('etag'), lastModified: response.headers.get('last-modified') };
        if (new URL(finalUrl).origin !== requestOrigin) {
          // Redirected elsewhere: report where, but never read (or keep) a foreign body.
          void response.body?.cancel().catch(() => {});
          return ok({ status: response.status, url: finalUrl, contentType, text: '', bytes: 0, truncated: false, validators });
        }
        const body = await readCapped(response, request.maxBytes);
        const text = decode(body.bytes, contentTypeHeader);
        return ok({ status: response.status, url: finalUrl, contentType, text, bytes: body.bytes.length, truncated: body.truncated, validators });
      } catch (err) {
        if (controller.signal.reason === TIMEOUT) return fail('timeout', `No complete response within ${request.timeoutMs} ms.`);
        if (controller.signal.reason === ABORTED || request.signal?.aborted) return fail('aborted', 'The fetch was aborted.');
        return fail('network', `The request failed (${err instanceof Error ? err.name : 'unknown error'}).`);
      } finally {
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}

function currentOrigin(): string | null {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  return typeof origin === 'string' && /^https?:/.test(origin) ? origin : null;
}

/** Reads at most `maxBytes` of the body; past that the stream is cancelled so the rest is never downloaded. */
async function readCapped(response: Response, maxBytes: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!response.body) return { bytes: new Uint8Array(0), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.length > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - size));
      size = maxBytes;
      truncated = true;
      void reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { bytes, truncated };
}

/** Decodes with the Content-Type charset, else a `<meta charset>` or XML `encoding` near the start, else UTF-8. */
function decode(bytes: Uint8Array, contentType: string): string {
  const label = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1] ?? sniffCharset(bytes);
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  // stream: true leaves a multi-byte sequence cut at the byte cap out, instead of a U+FFFD.
  return decoder.decode(bytes, { stream: true });
}

function sniffCharset(bytes: Uint8Array): string | null {
  let head = '';
  const n = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < n; i++) head += String.fromCharCode(bytes[i]!);
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ?? /<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)/i.exec(head)?.[1] ?? null;
}
