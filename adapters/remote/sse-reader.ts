/**
 * Streaming server-sent-events reader, per WHATWG HTML §9.2.6 "Interpreting an event stream":
 * CRLF / LF / CR line ends, one optional space after the colon, multi-line `data`, comments, `id` (ignored when it
 * holds NUL), `retry` (digits only), a leading BOM, and an unterminated last block discarded at end of stream.
 * Chunk boundaries may fall anywhere, including inside a UTF-8 sequence or between the CR and LF of a CRLF.
 * Works in browsers and Node (ReadableStream, TextDecoder); used by the SDK's remote client and the OpenAI-compatible adapter.
 */

/** One dispatched event. */
export interface SseEvent {
  /** The `event:` field, `message` when absent. */
  readonly event: string;
  /** The `data:` lines joined with `\n`. */
  readonly data: string;
  /** The last event id seen so far in the stream (it persists across events, as in EventSource). */
  readonly id: string;
}

/** Callbacks of the push parser. */
export interface SseParserHandlers {
  onEvent(event: SseEvent): void;
  /** A comment line's text after the colon (e.g. ' keep-alive'). */
  onComment?(text: string): void;
  /** A valid `retry:` field, in milliseconds. */
  onRetry?(ms: number): void;
}

/** A push parser over decoded text: feed it any slices of the stream, then `end()`. */
export interface SseParser {
  push(text: string): void;
  /** End of stream: a block not closed by a blank line is discarded, per the spec. */
  end(): void;
}

/** Creates a push parser; `readSse` wraps it for byte streams. */
export function createSseParser(handlers: SseParserHandlers): SseParser {
  let buffer = '';
  let skipLeadingLf = false; // the previous slice ended in CR: a LF starting the next one belongs to the same CRLF
  let first = true;
  let data = '';
  let eventType = '';
  let lastId = '';
  let idBuffer = '';

  const dispatch = (): void => {
    lastId = idBuffer;
    if (data === '') {
      eventType = '';
      return;
    }
    const text = data.endsWith('\n') ? data.slice(0, -1) : data;
    const event: SseEvent = { event: eventType === '' ? 'message' : eventType, data: text, id: lastId };
    data = '';
    eventType = '';
    handlers.onEvent(event);
  };

  const line = (text: string): void => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) {
      handlers.onComment?.(text.slice(1));
      return;
    }
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        eventType = value;
        break;
      case 'data':
        data += value + '\n';
        break;
      case 'id':
        if (!value.includes('\0')) idBuffer = value;
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) handlers.onRetry?.(Number(value));
        break;
      default:
        break; // unknown fields are ignored
    }
  };

  return {
    push(text: string): void {
      if (first && text.length > 0) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      if (skipLeadingLf && text.length > 0) {
        skipLeadingLf = false;
        if (text.charCodeAt(0) === 0x0a) text = text.slice(1);
      }
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer.charCodeAt(i);
        if (c !== 0x0a && c !== 0x0d) continue;
        line(buffer.slice(start, i));
        if (c === 0x0d) {
          if (i + 1 < buffer.length) {
            if (buffer.charCodeAt(i + 1) === 0x0a) i++;
          } else {
            skipLeadingLf = true;
          }
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    end(): void {
      buffer = '';
      data = '';
      eventType = '';
    },
  };
}

/** Options of `readSse`. */
export interface ReadSseOptions {
  /** Aborting cancels the underlying stream (a fetch body closes its connection) and rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  readonly onComment?: (text: string) => void;
  readonly onRetry?: (ms: number) => void;
}

/**
 * Reads a byte stream (a fetch body, or any async iterable of bytes) as server-sent events.
 * Breaking out of the loop cancels the stream, so a consumer that stops reading closes the connection.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  options: ReadSseOptions = {},
): AsyncGenerator<SseEvent, void, undefined> {
  const queue: SseEvent[] = [];
  const parser = createSseParser({
    onEvent: (event) => queue.push(event),
    ...(options.onComment ? { onComment: options.onComment } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  });
  const decoder = new TextDecoder('utf-8');
  const { signal } = options;
  signal?.throwIfAborted();

  // Safari has no async iteration on ReadableStream, so read it through its reader.
  const iterator: AsyncIterator<Uint8Array> =
    'getReader' in body ? readerIterator(body.getReader()) : body[Symbol.asyncIterator]();
  let finished = false;
  const onAbort = (): void => {
    void iterator.return?.().catch(() => undefined);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const step = await iterator.next();
      signal?.throwIfAborted();
      if (step.done) break;
      parser.push(decoder.decode(step.value, { stream: true }));
      while (queue.length > 0) yield queue.shift() as SseEvent;
    }
    parser.push(decoder.decode());
    parser.end();
    while (queue.length > 0) yield queue.shift() as SseEvent;
    finished = true;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!finished) await iterator.return?.().catch(() => undefined);
  }
}

function readerIterator(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncIterator<Uint8Array> {
  return {
    async next(): Promise<IteratorResult<Uint8Array>> {
      const { done, value } = await reader.read();
      return done ? { done: true, value: undefined } : { done: false, value };
    },
    async return(): Promise<IteratorResult<Uint8Array>> {
      await reader.cancel();
      return { done: true, value: undefined };
    },
  };
}
