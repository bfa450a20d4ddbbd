import { createServer as createHttp, type RequestListener, type Server } from 'node:http';
import { latencyTrace } from './http/latency-trace.js';
import { createServer as createNet, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';

/** The HTTP limits of ServerConfig.http plus whether client IPs come from a trusted proxy. */
export interface HttpServerOptions {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  /** Concurrent connections per remote address; 0 = no cap. Ignored behind a trusted proxy (see inflightLimit). */
  readonly maxConnectionsPerIp: number;
  /**
   * Connections still sending their first request head, all addresses together; 0 = no cap. Past it the OLDEST
   * such connection is closed with 408: a new client (a health check, a visitor) always gets in, and a slow-header
   * flood spread over many addresses can never release more than this many requests at once. Optional: default 0.
   */
  readonly maxPendingHeaders?: number;
  readonly trustProxyHops: number;
}

/** A listening front (accepts, caps per IP) and the HTTP server it hands accepted connections to. */
export interface KitHttpServer {
  readonly http: Server;
  listen(port: number, host: string): Promise<AddressInfo>;
  /** Stops accepting and closes idle keep-alive connections; busy ones end with their response. */
  stopAccepting(): void;
  /** Open connections now, per remote address (for tests and diagnostics). */
  connectionsOf(ip: string): number;
  /** Connections still sending their first request head (counted only when `maxPendingHeaders` is set). */
  pendingHeaders(): number;
}

// Over the cap a connection gets this and is closed before any byte of it is parsed: no request object, no
// middleware, no log line — a flood costs one accept and one small write per connection.
const TOO_MANY_BODY = '{"error":{"code":"rate_limited","message":"Too many open connections from this address; retry later.","request_id":""}}\n';
const TOO_MANY = Buffer.from(
  'HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 1\r\nConnection: close\r\n' +
    `Content-Length: ${Buffer.byteLength(TOO_MANY_BODY)}\r\n\r\n${TOO_MANY_BODY}`,
);
/** How long an over-cap connection may linger after its 429 before it is destroyed (ms). */
const REFUSED_LINGER_MS = 1_000;
const REQUEST_TIMEOUT = Buffer.from('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
/** Timed-out connections closed per turn of the event loop (see closeTimedOut). */
const CLOSE_BATCH = 100;

/**
 * The server main.ts listens with. Deliberate timeouts: `headersTimeout` ends connections that dribble their
 * headers (slowloris), `requestTimeout` bounds receiving a whole request (not the response: SSE streams run
 * as long as they need and send a keep-alive comment at least every 15 s), `keepAliveTimeout` closes idle
 * connections. Without a trusted proxy, each remote address may hold `maxConnectionsPerIp` connections; the
 * next get a 429 at once. All addresses together may hold `maxPendingHeaders` connections that have not sent their first
 * request head; past it the oldest is closed (408). Behind a proxy every connection comes from the proxy, so the cap moves to requests
 * in flight per forwarded client IP (middleware/inflight-limit.ts).
 */
export function createHttpServer(handler: RequestListener, options: HttpServerOptions): KitHttpServer {
  const http = createHttp(
    {
      headersTimeout: options.headersTimeoutMs,
      requestTimeout: Math.max(options.requestTimeoutMs, options.headersTimeoutMs),
      keepAliveTimeout: options.keepAliveTimeoutMs,
      // Node checks headers/request timeouts on this interval (default 30 s): check often enough that a 10 s
      // headersTimeout means about 10 s.
      connectionsCheckingInterval: Math.min(1_000, Math.max(100, Math.floor(options.headersTimeoutMs / 4))),
    },
    handler,
  );
  // Connections that connected together time out together: Node would answer and destroy thousands in one
  // tick (a 600 ms stall at 3 000). Closing them a batch per turn lets /healthz and real requests in between.
  const timedOut: Socket[] = [];
  const closeTimedOut = (): void => {
    for (const socket of timedOut.splice(0, CLOSE_BATCH)) {
      if (socket.destroyed) continue;
      if (socket.writable) socket.write(REQUEST_TIMEOUT);
      socket.destroy();
    }
    if (timedOut.length > 0) setImmediate(closeTimedOut);
  };
  http.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      if (timedOut.push(socket) === 1) setImmediate(closeTimedOut);
      return;
    }
    // Node's default for malformed requests: 400 (or 431/413) and close; no log line for a stranger's bytes.
    if (socket.writable && !(socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
      socket.write(err.code === 'HPE_HEADER_OVERFLOW' ? 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n' : 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    }
    socket.destroy();
  });
  const cap = options.trustProxyHops > 0 ? 0 : options.maxConnectionsPerIp;
  const open = new Map<string, number>();
  // Connections whose first request head has not arrived, oldest first (a Set keeps insertion order).
  const maxPending = options.maxPendingHeaders ?? 0;
  const pending = new Set<Socket>();
  http.on('request', (req: { socket: Socket }) => pending.delete(req.socket));
  const trace = latencyTrace;
  if (trace) http.prependListener('request', (req, res) => trace.request(req, res));
  const admitPending = (socket: Socket): void => {
    if (maxPending <= 0) return;
    pending.add(socket);
    socket.once('close', () => pending.delete(socket));
    if (pending.size <= maxPending) return;
    const oldest = pending.values().next().value as Socket;
    pending.delete(oldest);
    if (oldest.writable) oldest.write(REQUEST_TIMEOUT);
    oldest.destroy();
  };
  const accept = (socket: Socket): void => {
    const ip = socket.remoteAddress ?? '';
    const count = (open.get(ip) ?? 0) + 1;
    if (cap > 0 && count > cap) {
      socket.on('error', () => undefined);
      socket.end(TOO_MANY);
      setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
      return;
    }
    open.set(ip, count);
    socket.once('close', () => {
      const left = (open.get(ip) ?? 1) - 1;
      if (left <= 0) open.delete(ip);
      else open.set(ip, left);
    });
    admitPending(socket);
    http.emit('connection', socket);
  };
  // The same socket options http.Server gives its own connections (it handles half-closed ones itself).
  const front: NetServer = createNet({ allowHalfOpen: true, noDelay: true }, accept);
  return {
    http,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        front.once('error', reject);
        front.listen(port, host, () => {
          front.off('error', reject);
          // http.Server starts tracking connections (the headers/request timeout checks) on its own 'listening'
          // event; it never listens itself here, so tell it the front does.
          http.emit('listening');
          resolve(front.address() as AddressInfo);
        });
      }),
    stopAccepting() {
      if (front.listening) front.close();
      http.closeIdleConnections();
    },
    connectionsOf: (ip) => open.get(ip) ?? 0,
    pendingHeaders: () => pending.size,
  };
}
