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

/**
 * Writes chat events as server-sent events straight to the socket: `Content-Type: text/event-stream`,
 * `Cache-Control: no-cache`, `X-Accel-Buffering: no` (nginx would otherwise buffer the stream), an increasing `id:`
 * per event and a `: keep-alive` comment every `keepAliveMs` (proxies and the SDK's idle timer see traffic).
 * Writes wait for `drain`, so a slow reader slows the answer instead of filling memory.
 */
export function createSseSink(ctx: Context, options: { readonly keepAliveMs: number; readonly requestId: string }): ChatSink {
  const res = ctx.res;
  const gone = clientGone(ctx);
  let id = 0;
  let timer: NodeJS.Timeout | undefined;
  let corked = false;
  // What is written in one tick — the headers, `start` and an engine's word deltas — leaves in one packet, not one
  // syscall each.
  const coalesce = (): void => {
    if (corked) return;
    corked = true;
    res.cork();
    process.nextTick(() => {
      corked = false;
      res.uncork();
    });
  };
  const write = async (text: string): Promise<void> => {
    if (res.destroyed || res.writableEnded) return;
    coalesce();
    if (!res.write(text)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
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
      timer = setInterval(() => void write(encodeSseComment('keep-alive')), options.keepAliveMs);
      timer.unref();
    },
    async send(event) {
      id += 1;
      await write(encodeSseJson(event.type, id, eventData(event, options.requestId)));
    },
    async end() {
      clearInterval(timer);
      if (!res.destroyed && !res.writableEnded && ctx.respond === false) res.end();
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
