/**
 * Server-sent events encoding (WHATWG HTML, "Server-sent events", §9.2.6 "Interpreting an event stream").
 * Pure string building, so the Koa route, the proxy helper and tests share one framing.
 */

/** One event to send. `data` is text; line breaks in it become several `data:` lines, which a reader joins with `\n`. */
export interface SseMessage {
  /** Event type; omitted means the reader's default (`message`). */
  readonly event?: string;
  /** Sets the reader's last event id. */
  readonly id?: string | number;
  readonly data: string;
  /** Reconnection time hint in milliseconds. */
  readonly retry?: number;
}

// The spec's only line terminators: CRLF, LF, CR. U+2028/2029 are ordinary characters in an event stream.
const LINE_BREAK = /\r\n|\r|\n/;

/**
 * Encodes one event block, ending with the blank line that dispatches it.
 * Throws on an `event`/`id` that would break the framing (a line break, or NUL in an id): those are programming errors.
 */
export function encodeSse(message: SseMessage): string {
  let out = '';
  if (message.event !== undefined) {
    if (LINE_BREAK.test(message.event)) throw new TypeError('SSE event type must not contain a line break');
    out += `event: ${message.event}\n`;
  }
  if (message.id !== undefined) {
    const id = String(message.id);
    // A reader ignores an id with NUL, and a line break would start a new field.
    if (LINE_BREAK.test(id) || id.includes('\0')) throw new TypeError('SSE id must not contain a line break or NUL');
    out += `id: ${id}\n`;
  }
  if (message.retry !== undefined) {
    if (!Number.isInteger(message.retry) || message.retry < 0) throw new TypeError('SSE retry must be a non-negative integer');
    out += `retry: ${message.retry}\n`;
  }
  // Always "data: " + line: the single space is the one a reader strips, so text that starts with a space survives.
  for (const line of message.data.split(LINE_BREAK)) out += `data: ${line}\n`;
  return out + '\n';
}

/** Encodes an event whose data is `value` as JSON (JSON.stringify escapes CR and LF, so it is always one line). */
export function encodeSseJson(event: string, id: string | number | undefined, value: unknown): string {
  const data = JSON.stringify(value);
  if (data === undefined) throw new TypeError('SSE JSON data must be serialisable');
  return encodeSse(id === undefined ? { event, data } : { event, id, data });
}

/** Encodes a comment line (e.g. `: keep-alive`), which readers ignore; intermediaries see traffic and keep the connection. */
export function encodeSseComment(text = 'keep-alive'): string {
  return text.split(LINE_BREAK).map((line) => `: ${line}\n`).join('') + '\n';
}
