import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Options of the Mode B proxy a customer mounts on their own server. */
export interface KitProxyOptions {
  /** The organisation's secret key (`kit_sec_…`). It never leaves this server. */
  readonly secretKey: string;
  /** The Platform API base URL, ending in `/v1` (e.g. `https://kit.example.com/v1`). */
  readonly upstream: string;
  /**
   * Exact origins (`https://www.example.com`) allowed to call the proxy cross-origin; they get CORS answers and any
   * other `Origin` is refused (403). Default: none, i.e. same-origin use only (browsers then block cross-site reads,
   * and a cross-site POST cannot carry `application/json` without a preflight this proxy does not grant).
   */
  readonly allowedOrigins?: readonly string[];
  /** Lifetime of the sessions the proxy hands out at POST /session. Default 600 s. */
  readonly sessionTtlSeconds?: number;
  /** How long a fetched /config is reused. Default 60 s; 0 disables the cache. */
  readonly configCacheSeconds?: number;
  /** Largest request body accepted. Default 1 MiB (the Platform API's own limits are lower). */
  readonly maxBodyBytes?: number;
  /** Budget for the upstream's response headers. Default 30 000 ms; a streaming body then has no deadline here. */
  readonly upstreamTimeoutMs?: number;
  readonly fetch?: typeof fetch;
}

/** A plain Node request handler; `next` (Express/Connect style) is called for paths the proxy does not serve. */
export type KitProxyHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => void;

/** The part of a Koa context the middleware uses (structural, so this file needs no Koa import). */
export interface KoaLikeContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  respond?: boolean;
  /** Set by a body parser mounted before the proxy; used when the raw stream was already consumed. */
  readonly request?: { readonly body?: unknown };
}

type Route = 'config' | 'session' | 'chat';
const ROUTES: Record<Route, 'GET' | 'POST'> = { config: 'GET', session: 'POST', chat: 'POST' };
/** Response headers worth passing to the browser (the rest describe the upstream hop). */
const RELAYED = ['content-type', 'cache-control', 'x-accel-buffering', 'request-id', 'retry-after', 'ratelimit', 'ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];
const EXPOSED = 'Request-Id, Retry-After, RateLimit, RateLimit-Policy';

/**
 * Mode B: forwards the SDK's GET /config and POST /chat to the Platform API with the secret key instead of the
 * browser's publishable key, and answers POST /session itself. Point the SDK's `endpoint` at the mount path.
 * The chat stream is relayed chunk by chunk, and a visitor who disconnects closes the upstream request.
 */
export function createKitProxy(options: KitProxyOptions): KitProxyHandler {
  const proxy = createProxyCore(options);
  return (req, res, next) => {
    proxy(req, res, undefined).then(
      (handled) => {
        if (handled) return;
        if (next) next();
        else sendError(res, 404, 'not_found', 'Not found.');
      },
      (err: unknown) => {
        if (next) next(err);
        else if (!res.headersSent) sendError(res, 500, 'internal_error', 'The Kit proxy failed.');
        else res.destroy();
      },
    );
  };
}

/** The same proxy as Koa middleware: serves `…/config`, `…/session`, `…/chat` and calls `next()` for anything else. */
export function createKitProxyMiddleware(options: KitProxyOptions): (ctx: KoaLikeContext, next: () => Promise<unknown>) => Promise<void> {
  const proxy = createProxyCore(options);
  return async (ctx, next) => {
    if (routeOf(ctx.req) === null) {
      await next();
      return;
    }
    ctx.respond = false; // the proxy writes to ctx.res itself (streaming)
    await proxy(ctx.req, ctx.res, ctx.request?.body);
  };
}

function createProxyCore(options: KitProxyOptions): (req: IncomingMessage, res: ServerResponse, parsedBody: unknown) => Promise<boolean> {
  if (!/^kit_sec_/.test(options.secretKey)) throw new TypeError('createKitProxy: secretKey must be a kit_sec_ key');
  const upstream = options.upstream.replace(/\/+$/, '');
  const allowed = options.allowedOrigins ? new Set(options.allowedOrigins) : null;
  const sessionTtlMs = (options.sessionTtlSeconds ?? 600) * 1000;
  const cacheMs = (options.configCacheSeconds ?? 60) * 1000;
  const maxBodyBytes = options.maxBodyBytes ?? 1 << 20;
  const timeoutMs = options.upstreamTimeoutMs ?? 30_000;
  const doFetch = options.fetch ?? fetch;
  let cachedConfig: { body: string; until: number } | null = null;

  return async (req, res, parsedBody) => {
    const route = routeOf(req);
    if (route === null) return false;

    const origin = header(req, 'origin');
    if (allowed !== null && origin !== undefined && !allowed.has(origin)) {
      sendError(res, 403, 'origin_not_allowed', 'This origin may not use this Kit proxy.');
      return true;
    }
    if (allowed !== null && origin !== undefined) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', EXPOSED);
      res.setHeader('Vary', 'Origin');
    }
    if (req.method === 'OPTIONS' && allowed !== null && origin !== undefined) {
      res.writeHead(204, {
        'Access-Control-Allow-Methods': 'GET, POST',
        // Kit-Preview: the SDK sends it with every request on a page opened from the console's preview (#kit-preview=…);
        // a preflight that refused it would cut that page off from the proxy. The proxy does not relay it.
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, Kit-Session, Kit-Preview',
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return true;
    }
    if (req.method !== ROUTES[route]) {
      res.setHeader('Allow', ROUTES[route]);
      sendError(res, 405, 'method_not_allowed', 'This method is not allowed on this path.');
      return true;
    }

    let body = '';
    if (ROUTES[route] === 'POST') {
      if (!/^application\/json\b/i.test(header(req, 'content-type') ?? '')) {
        sendError(res, 415, 'unsupported_media_type', 'The body must be application/json.');
        return true;
      }
      const read = await readBody(req, parsedBody, maxBodyBytes);
      if (read === null) {
        res.setHeader('Connection', 'close');
        sendError(res, 413, 'payload_too_large', 'The request body is too large.');
        return true;
      }
      body = read;
    }

    if (route === 'session') {
      // The customer's server is the trust boundary in Mode B: a challenge would only stand between the visitor and
      // this proxy, which anyone can call anyway. The session exists because the SDK's protocol expects one.
      const expiresAt = new Date(Date.now() + sessionTtlMs).toISOString();
      sendJson(res, 201, { session: `kps_${randomBytes(24).toString('base64url')}`, expires_at: expiresAt });
      return true;
    }
    if (route === 'config' && cachedConfig && cachedConfig.until > Date.now()) {
      sendRaw(res, 200, cachedConfig.body);
      return true;
    }

    const controller = new AbortController();
    const onClose = (): void => {
      if (!res.writableFinished) controller.abort(new Error('client disconnected'));
    };
    res.on('close', onClose);
    const headerTimer = setTimeout(() => controller.abort(new Error('upstream timeout')), timeoutMs);
    let upstreamRes: Response;
    try {
      upstreamRes = await doFetch(`${upstream}/${route}`, {
        method: ROUTES[route],
        headers: {
          authorization: `Bearer ${options.secretKey}`,
          accept: route === 'chat' ? (header(req, 'accept') ?? 'text/event-stream') : 'application/json',
          ...(route === 'chat' ? { 'content-type': 'application/json' } : {}),
        },
        ...(route === 'chat' ? { body } : {}),
        signal: controller.signal,
      });
    } catch {
      clearTimeout(headerTimer);
      res.off('close', onClose);
      if (!res.destroyed) sendError(res, 502, 'upstream_unavailable', 'The Kit service could not be reached.');
      return true;
    }
    clearTimeout(headerTimer);

    if (route === 'config') {
      const text = await upstreamRes.text().catch(() => null);
      res.off('close', onClose);
      if (text === null) {
        sendError(res, 502, 'upstream_unavailable', 'The Kit service broke the connection.');
        return true;
      }
      if (upstreamRes.status !== 200) {
        relay(res, upstreamRes, text);
        return true;
      }
      let config: Record<string, unknown>;
      try {
        config = JSON.parse(text) as Record<string, unknown>;
      } catch {
        sendError(res, 502, 'upstream_unavailable', 'The Kit service sent a malformed configuration.');
        return true;
      }
      const rewritten = JSON.stringify({ ...config, bot_challenge: { provider: 'none' } });
      if (cacheMs > 0) cachedConfig = { body: rewritten, until: Date.now() + cacheMs };
      sendRaw(res, 200, rewritten);
      return true;
    }

    // POST /chat: relay status, headers and the body as it arrives.
    const headers: Record<string, string> = {};
    for (const name of RELAYED) {
      const value = upstreamRes.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    res.writeHead(upstreamRes.status, headers);
    res.flushHeaders();
    try {
      if (upstreamRes.body) {
        for await (const chunk of upstreamRes.body as unknown as AsyncIterable<Uint8Array>) {
          if (res.destroyed) break;
          if (!res.write(chunk)) await new Promise<void>((resolve) => {
            res.once('drain', resolve);
            res.once('close', resolve);
          });
        }
      }
      res.end();
    } catch {
      // The upstream broke mid-stream (or the visitor left and we aborted): end the relayed stream abruptly, as the
      // upstream did, so the SDK sees a broken stream rather than a clean end.
      res.destroy();
    } finally {
      res.off('close', onClose);
      controller.abort(new Error('done'));
    }
    return true;
  };
}

function routeOf(req: IncomingMessage): Route | null {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const m = /\/(config|session|chat)\/?$/.exec(path);
  return m ? (m[1] as Route) : null;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

async function readBody(req: IncomingMessage, parsed: unknown, max: number): Promise<string | null> {
  if (req.readableEnded) {
    // A body parser got there first (Koa/Express): re-serialise what it parsed.
    const text = parsed === undefined ? '' : JSON.stringify(parsed);
    return Buffer.byteLength(text) > max ? null : text;
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        // Answer 413 now and let the rest drain (breaking off the read would reset the socket before the answer).
        chunks.length = 0;
        resolve(null);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(size > max ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function requestId(): string {
  return `req_proxy_${randomBytes(9).toString('base64url')}`;
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  sendRaw(res, status, JSON.stringify(value));
}

function sendRaw(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(body);
}

function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  const id = requestId();
  res.setHeader('Request-Id', id);
  sendJson(res, status, { error: { code, message, request_id: id } });
}

function relay(res: ServerResponse, upstreamRes: Response, text: string): void {
  const headers: Record<string, string> = {};
  for (const name of RELAYED) {
    const value = upstreamRes.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  res.writeHead(upstreamRes.status, headers);
  res.end(text);
}
