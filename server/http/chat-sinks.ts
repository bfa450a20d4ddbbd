import type { Context } from 'koa';
import { encodeSseComment, encodeSseJson } from '../../core/sse/index.js';
import type { ChatEvent, ChatSink } from '../services/chat-service.js';

/** The SSE `data` of a chat event (CONTRACT §4), in the wire's snake_case. */
export function eventData(event: ChatEvent, requestId: string): unknown {
  switch (event.type) {
    case 'start':
      return { request_id: event.requestId, model: event.model, mode: 'remote' };
    case 'delta':
      return { text: event.text };
    case 'citation':
      return { index: event.index, url: event.url, title: event.title };
    case 'refusal':
      return { message: event.message };
    case 'done':
      return { finish_reason: event.finishReason, usage: { input_tokens: event.usage.inputTokens, output_tokens: event.usage.outputTokens } };
    case 'error':
      return { error: { code: event.code, message: event.message, request_id: requestId } };
  }
}

/** An AbortController that aborts when the client closes the connection before the response ended. */
function clientGone(ctx: Context): AbortController {
  const controller = new AbortController();
  const onClose = (): void => {
    if (!ctx.res.writableFinished) controller.abort(new Error('client disconnected'));
  };
  ctx.res.once('close', onClose);
  return controller;
}

/** The abort reason of a stream whose reader stopped reading (the socket did not drain in time). */
export class WriteStallError extends Error {
  override readonly name = 'WriteStallError';
}

/** Options of the SSE sink. */
export interface SseSinkOptions {
  readonly keepAliveMs: number;
  readonly requestId: string;
  /**
   * How long a write may wait for the socket to drain (and the end of the response to be flushed) before the stream
   * is given up: the upstream is aborted, the usage row written with what was streamed, the connection destroyed.
   * Default 30 000 ms (`KIT_SSE_WRITE_STALL_MS`).
   */
  readonly writeStallMs?: number;
  /** Told once when a stream is cut for a stalled reader (for the log). */
  readonly onStall?: (requestId: string) => void;
}

/**
 * Writes chat events as server-sent events straight to the socket: `Content-Type: text/event-stream`,
 * `Cache-Control: no-cache`, `X-Accel-Buffering: no` (nginx would otherwise buffer the stream), an increasing `id:`
 * per event and a `: keep-alive` comment every `keepAliveMs` (proxies and the SDK's idle timer see traffic).
 * Writes wait for `drain`, so a slow reader slows the answer instead of filling memory; a reader that stops reading
 * for `writeStallMs` loses the stream (issue #11.6). At most one drain wait is armed at a time, whatever the number
 * of writes and keep-alives queued behind it, so a stalled socket collects no listeners.
 */
/** Longest time a stream's `done` event waits for the end of the response to leave with it. */
const DONE_HOLD_MS = 50;
/** Pending frames past this many characters are written at once rather than at the end of the tick. */
const FLUSH_CHARS = 16_384;

export function createSseSink(ctx: Context, options: SseSinkOptions): ChatSink {
  const res = ctx.res;
  const gone = clientGone(ctx);
  const stallMs = options.writeStallMs ?? 30_000;
  let id = 0;
  let keepAlive: NodeJS.Timeout | undefined;
  /** The one pending wait for `drain` (null while the socket takes writes). */
  let draining: Promise<void> | null = null;

  const stall = (): void => {
    if (gone.signal.aborted) return;
    options.onStall?.(options.requestId);
    gone.abort(new WriteStallError(`the client read nothing for ${stallMs} ms`));
    res.destroy();
  };
  /** Resolves on `event` or `close`; after `stallMs` without either the stream is cut (and it resolves too). */
  const within = (event: 'drain' | 'finish'): Promise<void> =>
    new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        res.off(event, done);
        res.off('close', done);
        resolve();
      };
      const timer = setTimeout(() => {
        stall();
        done();
      }, stallMs);
      timer.unref();
      res.on(event, done);
      res.on('close', done);
    });
  const waitForDrain = (): Promise<void> => {
    draining ??= within('drain').then(() => {
      draining = null;
    });
    return draining;
  };
  const writable = (): boolean => !res.destroyed && !res.writableEnded;
  /**
   * One write per tick. The first event of a tick is written at once (its back-pressure is waited for at once, as
   * for every write); the events that follow it in the same tick — an engine's word deltas, or the rest of an answer
   * that was ready at once — are built into `pending` and written together at the end of the tick: one `res.write`
   * (one HTTP chunk) instead of one per event, and the tick's consecutive deltas as one `delta` event. The socket is corked for the tick, so both leave in one packet. A
   * write the socket refuses arms the drain wait, and every later event waits for it (the stall bound cuts a reader
   * that never drains).
   */
  let pending = '';
  /**
   * The text of the tick's deltas after its first event, not framed yet: consecutive deltas of one tick are sent as
   * ONE `delta` event (their texts joined), framed when another event, the flush or the end follows.
   */
  let pendingDelta = '';
  let tickOpen = false;
  /** The timer of a `done` event held back (corked, in `pending`) for the end of the response (see `send`). */
  let heldDone: NodeJS.Timeout | null = null;
  const frame = (event: ChatEvent): string => {
    id += 1;
    return encodeSseJson(event.type, id, eventData(event, options.requestId));
  };
  const frameDelta = (): void => {
    if (pendingDelta === '') return;
    pending += frame({ type: 'delta', text: pendingDelta });
    pendingDelta = '';
  };
  const flushPending = (): void => {
    frameDelta();
    const text = pending;
    pending = '';
    if (text !== '' && writable() && !res.write(text)) void waitForDrain();
  };
  const endTick = (): void => {
    tickOpen = false;
    if (heldDone === null) flushPending();
    res.uncork();
  };
  const releaseDone = (): void => {
    if (heldDone === null) return;
    clearTimeout(heldDone);
    heldDone = null;
    flushPending();
    res.uncork();
  };
  /** Writes an event (or, with a string, a comment) under the tick's rules above. */
  const write = async (item: ChatEvent | string): Promise<void> => {
    while (draining) await draining; // keep events in order behind a pending drain
    if (!writable()) return;
    let text: string;
    if (tickOpen) {
      if (typeof item !== 'string' && item.type === 'delta') pendingDelta += item.text;
      else {
        frameDelta();
        pending += typeof item === 'string' ? item : frame(item);
      }
      if (pending.length + pendingDelta.length < FLUSH_CHARS) return;
      frameDelta(); // a tick that produces this much writes it now, and waits for the socket like any write
      text = pending;
      pending = '';
    } else {
      tickOpen = true;
      res.cork();
      process.nextTick(endTick);
      text = typeof item === 'string' ? item : frame(item);
    }
    if (!res.write(text)) await waitForDrain();
  };
  return {
    signal: gone.signal,
    open() {
      ctx.respond = false; // Koa must not touch a response we stream ourselves
      ctx.status = 200;
      // The head leaves with the first frames (`start` follows at once), in the same write.
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no', Connection: 'keep-alive' });
      ctx.req.socket.setNoDelay(true);
      keepAlive = setInterval(() => {
        // A socket that has not drained has bytes in flight already; piling comments behind them helps nobody.
        if (draining === null && writable()) void write(encodeSseComment('keep-alive'));
      }, options.keepAliveMs);
      keepAlive.unref();
    },
    async send(event) {
      if (event.type === 'done' && writable() && draining === null) {
        // The last event waits (corked, with what the tick has pending) for the end of the response, which follows
        // once the chat is metered: an answer ready at once leaves whole with the stream's end, in one write after
        // its first event, in one packet. Bounded: if metering is slow, they leave after DONE_HOLD_MS on their own.
        res.cork();
        frameDelta();
        pending += frame(event);
        heldDone = setTimeout(releaseDone, DONE_HOLD_MS);
        heldDone.unref();
        return;
      }
      await write(event);
    },
    async end() {
      clearInterval(keepAlive);
      if (res.destroyed || res.writableEnded || ctx.respond !== false) return releaseDone();
      while (draining) await draining;
      if (!writable()) return releaseDone();
      if (heldDone !== null) clearTimeout(heldDone), (heldDone = null); // res.end() uncorks: it all leaves with the last chunk
      frameDelta();
      const text = pending;
      pending = '';
      if (text === '') res.end();
      else res.end(text);
      if (res.writableFinished) return;
      // The last bytes may still sit in a buffer the client does not read: give it the same bound, then cut.
      await within('finish');
    },
  };
}

/** The JSON answer of `stream: false`: `{ id, text, citations, refused, model, usage, finish_reason }`. */
export interface JsonChatAnswer {
  id: string;
  text: string;
  citations: Array<{ index: number; url: string; title: string }>;
  refused: boolean;
  model: string;
  finish_reason: 'stop' | 'length' | 'refused';
  usage: { input_tokens: number; output_tokens: number };
}

/** Gathers chat events into one JSON answer; an `error` event is kept for the route to answer as a JSON error. */
export function createJsonSink(ctx: Context, requestId: string): ChatSink & { readonly answer: JsonChatAnswer; readonly error: Extract<ChatEvent, { type: 'error' }> | null } {
  const gone = clientGone(ctx);
  const answer: JsonChatAnswer = { id: requestId, text: '', citations: [], refused: false, model: '', finish_reason: 'stop', usage: { input_tokens: 0, output_tokens: 0 } };
  let error: Extract<ChatEvent, { type: 'error' }> | null = null;
  return {
    signal: gone.signal,
    answer,
    get error() {
      return error;
    },
    open() {},
    async send(event) {
      if (event.type === 'start') answer.model = event.model;
      else if (event.type === 'delta') answer.text += event.text;
      else if (event.type === 'citation') answer.citations.push({ index: event.index, url: event.url, title: event.title });
      else if (event.type === 'refusal') {
        answer.refused = true;
        answer.text = event.message;
      } else if (event.type === 'done') {
        answer.finish_reason = event.finishReason;
        answer.usage = { input_tokens: event.usage.inputTokens, output_tokens: event.usage.outputTokens };
      } else error = event;
    },
    async end() {},
  };
}
