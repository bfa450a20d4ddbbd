import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createChallenge, verifySolution } from 'altcha-lib/v1';

/**
 * A loopback stand-in for the Platform API's browser routes (CONTRACT §3–5) for the SDK client's unit tests:
 * GET /v1/config, POST /v1/session (altcha verified with altcha-lib, single use; or `none`), POST /v1/chat as
 * byte-exact SSE, error bodies with `Request-Id`, and scripted faults. The e2e tests use the real server instead.
 */

/** One request the fake received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: unknown;
}

/** One piece of a scripted SSE answer. `data` is JSON-encoded; `raw` is written as is. */
export type SseFrame =
  | { readonly event: string; readonly data: unknown }
  | { readonly comment: string }
  | { readonly raw: string }
  | { readonly waitMs: number }
  /** Keep the connection open without writing anything more (until the client goes away). */
  | { readonly hang: true }
  /** Destroy the socket: the connection is lost mid-stream. */
  | { readonly destroy: true };

/** A scripted answer for the next matching request, used once, before the normal behaviour. */
export type ScriptedReply =
  | { readonly status: number; readonly code?: string; readonly message?: string; readonly headers?: Readonly<Record<string, string>>; readonly rawBody?: string }
  | { readonly stream: readonly SseFrame[] }
  /** Destroy the socket without any answer (a network failure). */
  | { readonly drop: true };

export type FakeRoute = 'GET /config' | 'POST /session' | 'POST /chat';

/** Options of the fake. */
export interface FakePlatformApiOptions {
  readonly provider?: 'altcha' | 'none' | 'turnstile';
  /** altcha's maxnumber: small keeps the Node tests fast. Default 2000. */
  readonly maxNumber?: number;
  readonly sessionTtlSeconds?: number;
  /** The default answer stream of /chat (when nothing is scripted). */
  readonly chatFrames?: readonly SseFrame[];
}

/** A publishable key of the right shape for the fake (it checks the prefix only). */
export const FAKE_PUBLISHABLE_KEY = 'kit_pub_0123456789abcdefghijABCDEFGHIJ01abcdef';

/** The default answer: start, two deltas with a keep-alive between them, a citation and done. */
export const DEFAULT_CHAT_FRAMES: readonly SseFrame[] = Object.freeze([
  { event: 'start', data: { request_id: 'req_fake', model: 'fake-remote-1', mode: 'remote' } },
  { event: 'delta', data: { text: 'The Pro plan ' } },
  { comment: ' keep-alive' },
  { event: 'delta', data: { text: 'costs 20 €.' } },
  { event: 'citation', data: { index: 1, url: 'https://example.com/pricing', title: 'Pricing' } },
  { event: 'done', data: { finish_reason: 'stop', usage: { input_tokens: 42, output_tokens: 7 } } },
]);

/** Starts the fake on 127.0.0.1; `url` ends in `/v1`. Stop it with `close()`. */
export async function startFakePlatformApi(options: FakePlatformApiOptions = {}): Promise<FakePlatformApi> {
  const api = new FakePlatformApi(options);
  await api.listen();
  return api;
}

export class FakePlatformApi {
  url = '';
  readonly requests: RecordedRequest[] = [];
  /** Sessions issued, oldest first. */
  readonly issued: string[] = [];
  /** Solutions accepted by POST /session. */
  readonly solutions: string[] = [];
  /** /chat responses whose connection closed before the stream ended. */
  chatsClosedEarly = 0;
  private readonly scripts = new Map<FakeRoute, ScriptedReply[]>();
  private readonly sessions = new Map<string, number>();
  private readonly spent = new Set<string>();
  private readonly hmacKey = randomBytes(16).toString('hex');
  private readonly server: Server;
  private readonly closeWaiters: (() => void)[] = [];
  private requestCounter = 0;

  constructor(private readonly options: FakePlatformApiOptions) {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Queues replies for the next requests to `route`, in order. */
  script(route: FakeRoute, ...replies: ScriptedReply[]): void {
    this.scripts.set(route, [...(this.scripts.get(route) ?? []), ...replies]);
  }

  /** Forgets every session, as a restarted server with another signing key would. */
  forgetSessions(): void {
    this.sessions.clear();
  }

  /** Resolves when a /chat connection closes before its stream ended. */
  waitForChatClose(): Promise<void> {
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  /** Requests to one route. */
  count(route: FakeRoute): number {
    return this.requests.filter((r) => `${r.method} ${r.path}` === route).length;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = `req_${String(++this.requestCounter).padStart(6, '0')}`;
    const text = await readBody(req);
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    const path = (req.url ?? '').replace(/^\/v1/, '').split('?')[0] ?? '';
    this.requests.push({ method: req.method ?? '', path, headers: req.headers, body });
    const route = `${req.method} ${path}` as FakeRoute;
    const scripted = this.scripts.get(route)?.shift();

    const error = (status: number, code: string, message: string, headers: Readonly<Record<string, string>> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId, ...headers });
      res.end(JSON.stringify({ error: { code, message, request_id: requestId } }));
    };

    if (scripted && 'drop' in scripted) {
      req.socket.destroy();
      return;
    }
    if (scripted && 'status' in scripted) {
      if (scripted.rawBody !== undefined) {
        res.writeHead(scripted.status, { 'content-type': 'text/html', ...scripted.headers });
        res.end(scripted.rawBody);
      } else {
        error(scripted.status, scripted.code ?? 'internal_error', scripted.message ?? 'Scripted failure.', scripted.headers);
      }
      return;
    }
    if (!/^Bearer kit_pub_/.test(String(req.headers.authorization ?? ''))) return error(401, 'invalid_api_key', 'The API key is malformed.');

    if (route === 'GET /config') return this.config(res);
    if (route === 'POST /session') return this.session(body, res, error);
    if (route === 'POST /chat') {
      const token = String(req.headers['kit-session'] ?? '');
      const expires = this.sessions.get(token);
      if (expires === undefined || expires <= Date.now()) return error(401, 'session_required', 'A valid session is required.');
      const frames = scripted && 'stream' in scripted ? scripted.stream : (this.options.chatFrames ?? DEFAULT_CHAT_FRAMES);
      return this.stream(req, res, frames, requestId);
    }
    error(404, 'not_found', 'Not found.');
  }

  private async config(res: ServerResponse): Promise<void> {
    const provider = this.options.provider ?? 'altcha';
    const maxNumber = this.options.maxNumber ?? 2000;
    let botChallenge: unknown = { provider };
    if (provider === 'altcha') {
      const c = await createChallenge({ hmacKey: this.hmacKey, maxNumber, expires: new Date(Date.now() + 300_000) });
      botChallenge = { provider, challenge: { algorithm: c.algorithm, challenge: c.challenge, maxnumber: c.maxnumber, salt: c.salt, signature: c.signature } };
    } else if (provider === 'turnstile') {
      botChallenge = { provider, site_key: '0x4AAAAAAAfake' };
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        tier: 'free',
        mode: 'auto',
        model: 'auto',
        limits: {
          requests_per_minute: 60,
          session_requests_per_minute: 10,
          max_question_chars: 1000,
          max_context_chars: 60000,
          max_pages: 100,
          session_ttl_seconds: this.options.sessionTtlSeconds ?? 600,
        },
        bot_challenge: botChallenge,
      }),
    );
  }

  private async session(body: unknown, res: ServerResponse, error: (status: number, code: string, message: string) => void): Promise<void> {
    const { provider, solution } = (body ?? {}) as { provider?: unknown; solution?: unknown };
    const expected = this.options.provider ?? 'altcha';
    if (provider !== expected) return error(400, 'invalid_request', 'Wrong provider.');
    if (expected === 'altcha') {
      if (typeof solution !== 'string' || this.spent.has(solution) || !(await verifySolution(solution, this.hmacKey))) {
        return error(403, 'challenge_failed', 'The solution is wrong, expired or was already used.');
      }
      this.spent.add(solution);
      this.solutions.push(solution);
    }
    const token = `ses_${randomBytes(12).toString('hex')}`;
    const ttl = (this.options.sessionTtlSeconds ?? 600) * 1000;
    const expiresAt = Date.now() + ttl;
    this.sessions.set(token, expiresAt);
    this.issued.push(token);
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ session: token, expires_at: new Date(expiresAt).toISOString() }));
  }

  private async stream(req: IncomingMessage, res: ServerResponse, frames: readonly SseFrame[], requestId: string): Promise<void> {
    let ended = false;
    res.on('close', () => {
      if (ended) return;
      this.chatsClosedEarly++;
      for (const wake of this.closeWaiters.splice(0)) wake();
    });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no', 'request-id': requestId });
    res.flushHeaders();
    let id = 0;
    for (const frame of frames) {
      if (res.destroyed) return;
      if ('hang' in frame) return;
      if ('destroy' in frame) {
        req.socket.destroy();
        return;
      }
      if ('waitMs' in frame) {
        await new Promise((resolve) => setTimeout(resolve, frame.waitMs));
        continue;
      }
      if ('comment' in frame) res.write(`:${frame.comment}\n\n`);
      else if ('raw' in frame) res.write(frame.raw);
      else res.write(`id: ${++id}\nevent: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`);
    }
    ended = true;
    res.end();
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
