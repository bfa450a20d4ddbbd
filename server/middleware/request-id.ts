import type { Middleware } from 'koa';
import { newId } from '../ids.js';

/** Gives every request an id (`req_…`), in `ctx.state.requestId` and the `Request-Id` response header. */
export function requestId(): Middleware {
  return async (ctx, next) => {
    // A client-sent id is never trusted: the id must be unique for logs and usage rows.
    const id = newId('req');
    ctx.state.requestId = id;
    ctx.set('Request-Id', id);
    await next();
  };
}
