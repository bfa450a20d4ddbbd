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
  let corked = false;
  // What is written in one tick — the headers, `start` and an engine's word deltas — leaves in one packet, not one
  // syscall each. (Holding the cork to the end of the event loop's turn, with setImmediate, put every event of an
  // answer produced at once in one packet, but streams to clients that never read were then never cut:
  // test/server/routes/chat-stall.test.ts. Not kept until that is understood.)
  const coalesce = (): void => {
    if (corked) return;
    corked = true;
    res.cork();
    process.nextTick(() => {
      corked = false;
      res.uncork();
    });
  };
  /** The timer of a `done` event held back for the end of the response (see `send`). */
  let heldDone: NodeJS.Timeout | null = null;
  const releaseDone = (): void => {
    if (heldDone === null) return;
    clearTimeout(heldDone);
    heldDone = null;
    res.uncork();
  };
  const write = async (text: string): Promise<void> => {
    while (draining) await draining; // keep events in order behind a pending drain
    if (!writable()) return;
    coalesce();
    if (!res.write(text)) await waitForDrain();
  };
  return {
    signal: gone.signal,
    open() {
      ctx.respond = false; // Koa must not touch a response we stream ourselves
      ctx.status = 200;
      coalesce();
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no', Connection: 'keep-alive' });
      res.flushHeaders(); // leaves at the end of this tick, with the first events
      ctx.req.socket.setNoDelay(true);
      keepAlive = setInterval(() => {
        // A socket that has not drained has bytes in flight already; piling comments behind them helps nobody.
        if (draining === null && writable()) void write(encodeSseComment('keep-alive'));
      }, options.keepAliveMs);
      keepAlive.unref();
    },
    async send(event) {
      id += 1;
      if (event.type === 'done' && writable() && draining === null) {
        // The last event waits (corked) for the end of the response, which follows once the chat is metered:
        // `done` and the stream's end leave in one packet instead of two. Bounded: if metering is slow, it leaves
        // after DONE_HOLD_MS on its own.
        res.cork();
        heldDone = setTimeout(releaseDone, DONE_HOLD_MS);
        heldDone.unref();
        res.write(encodeSseJson(event.type, id, eventData(event, options.requestId)));
        return;
      }
      await write(encodeSseJson(event.type, id, eventData(event, options.requestId)));
    },
    async end() {
      clearInterval(keepAlive);
      if (res.destroyed || res.writableEnded || ctx.respond !== false) return releaseDone();
      while (draining) await draining;
      if (!writable()) return releaseDone();
      if (heldDone !== null) clearTimeout(heldDone), (heldDone = null); // res.end() flushes it with the last chunk
      res.end();
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
