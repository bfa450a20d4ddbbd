import { expect } from 'chai';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { createKitProxy, createKitProxyMiddleware, type KitProxyOptions } from '../../../adapters/node/kit-proxy.js';
import { createFetchTransport } from '../../../adapters/remote/fetch-transport.js';
import { createPlatformClient } from '../../../adapters/remote/platform-client.js';
import { encodeSseJson } from '../../../core/sse/encode-sse.js';

const SECRET = 'kit_sec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA000000';
const PUBLISHABLE = 'kit_pub_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB000000';
const CONFIG = {
  tier: 'pro',
  mode: 'auto',
  model: 'auto',
  limits: { requests_per_minute: 600, session_requests_per_minute: 20, max_question_chars: 1000, max_context_chars: 60000, max_pages: 100, session_ttl_seconds: 600 },
  bot_challenge: { provider: 'altcha', challenge: { algorithm: 'SHA-256', challenge: 'ab', maxnumber: 10, salt: 's', signature: 'cd' } },
};
const CHAT_BODY = { messages: [{ role: 'user', content: 'How much is Pro?' }], sources: [{ url: 'https://shop.example/pricing', title: 'Pricing', text: 'Pro costs $20.' }], model: 'auto', stream: true };

interface UpstreamCall {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  clientClosed: boolean;
  readonly closed: Promise<void>;
}

/** A loopback stand-in for the Platform API: it checks the secret key and answers /config and a streamed /chat. */
class FakeUpstream {
  readonly calls: UpstreamCall[] = [];
  /** The chat stream waits for this before its second half, so a test can see the first half arrive alone. */
  release: () => void = () => undefined;
  chatStatus = 200;
  private gate: Promise<void> = Promise.resolve();
  private server: Server | undefined;

  hold(): void {
    this.gate = new Promise((resolve) => (this.release = resolve));
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.release();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += chunk;
    let resolveClosed!: () => void;
    const call: UpstreamCall = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, clientClosed: false, closed: new Promise((r) => (resolveClosed = r)) };
    this.calls.push(call);
    let finished = false;
    res.on('close', () => {
      if (!finished) call.clientClosed = true;
      resolveClosed();
    });
    if (req.headers.authorization !== `Bearer ${SECRET}`) {
      finished = true;
      res.writeHead(401, { 'content-type': 'application/json', 'request-id': 'req_up_1' });
      res.end(JSON.stringify({ error: { code: 'invalid_api_key', message: 'bad key', request_id: 'req_up_1' } }));
      return;
    }
    if (req.url === '/v1/config') {
      finished = true;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(CONFIG));
      return;
    }
    if (req.url === '/v1/chat' && this.chatStatus !== 200) {
      finished = true;
      res.writeHead(this.chatStatus, { 'content-type': 'application/json', 'request-id': 'req_up_2', 'retry-after': '7', ratelimit: 'limit=600, remaining=0, reset=7', 'x-internal': 'secret-hop-detail' });
      res.end(JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests; retry later.', request_id: 'req_up_2' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no', 'request-id': 'req_up_3' });
    res.write(encodeSseJson('start', 1, { request_id: 'req_up_3', model: 'extractive', mode: 'remote' }));
    await this.gate;
    if (res.destroyed) return;
    res.write(encodeSseJson('delta', 2, { text: 'Pro costs $20.' }));
    res.write(encodeSseJson('citation', 3, { index: 1, url: 'https://shop.example/pricing', title: 'Pricing' }));
    finished = true;
    res.end(encodeSseJson('done', 4, { finish_reason: 'stop', usage: { input_tokens: 10, output_tokens: 5 } }));
  }
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; base: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('createKitProxy', () => {
  let upstream: FakeUpstream;
  let upstreamUrl: string;
  let proxyServer: Server;
  let proxyBase: string;

  const mount = async (extra: Partial<KitProxyOptions> = {}): Promise<void> => {
    if (proxyServer) await close(proxyServer);
    const handler = createKitProxy({ secretKey: SECRET, upstream: upstreamUrl, ...extra });
    ({ server: proxyServer, base: proxyBase } = await listen((req, res) => {
      if (req.url?.startsWith('/kit/v1/')) handler(req, res);
      else {
        res.writeHead(200);
        res.end('customer page');
      }
    }));
  };

  beforeEach(async () => {
    upstream = new FakeUpstream();
    upstreamUrl = await upstream.start();
    await mount();
  });
  afterEach(async () => {
    await close(proxyServer);
    await upstream.stop();
  });

  it('forwards GET /config with the secret key and answers bot_challenge none', async () => {
    const res = await fetch(`${proxyBase}/kit/v1/config`, { headers: { authorization: `Bearer ${PUBLISHABLE}`, cookie: 'sid=visitor' } });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as typeof CONFIG;
    expect(body).to.deep.equal({ ...CONFIG, bot_challenge: { provider: 'none' } });
    expect(upstream.calls).to.have.length(1);
    expect(upstream.calls[0]?.headers.authorization).to.equal(`Bearer ${SECRET}`);
    expect(upstream.calls[0]?.headers.cookie).to.equal(undefined);
  });

  it('answers POST /session itself with a session for the configured lifetime', async () => {
    await mount({ sessionTtlSeconds: 120 });
    const before = Date.now();
    const res = await fetch(`${proxyBase}/kit/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ provider: 'none', solution: null }) });
    expect(res.status).to.equal(201);
    const body = (await res.json()) as { session: string; expires_at: string };
    expect(body.session).to.match(/^kps_[A-Za-z0-9_-]{32}$/);
    const ttl = Date.parse(body.expires_at) - before;
    expect(ttl).to.be.within(119_000, 121_000);
    expect(upstream.calls).to.have.length(0);
  });

  it('streams /chat through without buffering, with the secret key and without the browser credentials', async () => {
    upstream.hold();
    const res = await fetch(`${proxyBase}/kit/v1/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${PUBLISHABLE}`, 'kit-session': 'kps_x', accept: 'text/event-stream' },
      body: JSON.stringify(CHAT_BODY),
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/event-stream');
    expect(res.headers.get('x-accel-buffering')).to.equal('no');
    expect(res.headers.get('request-id')).to.equal('req_up_3');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    // The upstream is holding the rest of its answer: what arrives now was relayed as it came.
    const first = decoder.decode((await reader.read()).value);
    expect(first).to.equal(encodeSseJson('start', 1, { request_id: 'req_up_3', model: 'extractive', mode: 'remote' }));
    upstream.release();
    let rest = '';
    for (let step = await reader.read(); !step.done; step = await reader.read()) rest += decoder.decode(step.value, { stream: true });
    expect(rest).to.include('event: delta').and.include('event: done');
    const call = upstream.calls[0];
    expect(call?.headers.authorization).to.equal(`Bearer ${SECRET}`);
    expect(call?.headers['kit-session']).to.equal(undefined);
    expect(JSON.parse(call?.body ?? '')).to.deep.equal(CHAT_BODY);
  });

  it('closes the upstream request when the visitor disconnects mid-stream', async () => {
    upstream.hold();
    const ac = new AbortController();
    const res = await fetch(`${proxyBase}/kit/v1/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CHAT_BODY), signal: ac.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    ac.abort();
    await upstream.calls[0]?.closed;
    expect(upstream.calls[0]?.clientClosed).to.equal(true);
  });

  it('relays an upstream error with its status and rate-limit headers only', async () => {
    upstream.chatStatus = 429;
    const res = await fetch(`${proxyBase}/kit/v1/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CHAT_BODY) });
    expect(res.status).to.equal(429);
    expect(res.headers.get('retry-after')).to.equal('7');
    expect(res.headers.get('ratelimit')).to.equal('limit=600, remaining=0, reset=7');
    expect(res.headers.get('x-internal')).to.equal(null);
    expect(((await res.json()) as { error: { code: string } }).error.code).to.equal('rate_limited');
  });

  it('answers upstream_unavailable when the service cannot be reached', async () => {
    await mount({ upstream: 'http://127.0.0.1:1/v1' });
    const res = await fetch(`${proxyBase}/kit/v1/config`);
    expect(res.status).to.equal(502);
    const body = (await res.json()) as { error: { code: string; request_id: string } };
    expect(body.error.code).to.equal('upstream_unavailable');
    expect(res.headers.get('request-id')).to.equal(body.error.request_id);
  });

  it('refuses wrong methods, non-JSON bodies and oversized bodies before calling upstream', async () => {
    await mount({ maxBodyBytes: 1000 });
    const wrongMethod = await fetch(`${proxyBase}/kit/v1/chat`);
    expect(wrongMethod.status).to.equal(405);
    expect(wrongMethod.headers.get('allow')).to.equal('POST');
    const textPlain = await fetch(`${proxyBase}/kit/v1/chat`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(textPlain.status).to.equal(415);
    const big = await fetch(`${proxyBase}/kit/v1/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'x'.repeat(3_000_000) }) });
    expect(big.status).to.equal(413);
    expect(((await big.json()) as { error: { code: string } }).error.code).to.equal('payload_too_large');
    expect(upstream.calls).to.have.length(0);
  });

  it('answers CORS for allowed origins and refuses other origins when allowedOrigins is set', async () => {
    await mount({ allowedOrigins: ['https://shop.example'] });
    const preflight = await fetch(`${proxyBase}/kit/v1/chat`, { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers.get('access-control-allow-origin')).to.equal('https://shop.example');
    expect(preflight.headers.get('access-control-allow-headers')).to.match(/Kit-Session/).and.match(/Kit-Preview/);
    const config = await fetch(`${proxyBase}/kit/v1/config`, { headers: { origin: 'https://shop.example' } });
    expect(config.headers.get('access-control-allow-origin')).to.equal('https://shop.example');
    const evil = await fetch(`${proxyBase}/kit/v1/chat`, { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body: JSON.stringify(CHAT_BODY) });
    expect(evil.status).to.equal(403);
    expect(evil.headers.get('access-control-allow-origin')).to.equal(null);
    expect(((await evil.json()) as { error: { code: string } }).error.code).to.equal('origin_not_allowed');
    expect(upstream.calls.map((c) => c.path)).to.deep.equal(['/v1/config']);
  });

  it('reuses a fetched /config for configCacheSeconds', async () => {
    await mount({ configCacheSeconds: 60 });
    for (let i = 0; i < 3; i++) expect((await fetch(`${proxyBase}/kit/v1/config`)).status).to.equal(200);
    expect(upstream.calls).to.have.length(1);
  });

  it("serves the SDK's platform client end to end: config, session and a streamed cited answer", async () => {
    const client = createPlatformClient({
      baseUrl: `${proxyBase}/kit/v1`,
      apiKey: PUBLISHABLE,
      transport: createFetchTransport(),
      solveChallenge: async () => {
        throw new Error('no challenge expected behind the proxy');
      },
    });
    try {
      const config = await client.getConfig();
      expect(config.bot_challenge).to.deep.equal({ provider: 'none' });
      const session = await client.getSession();
      expect(session.token).to.match(/^kps_/);
      const events: Array<{ event: string; data: unknown }> = [];
      for await (const e of client.chat({ messages: CHAT_BODY.messages as never, sources: CHAT_BODY.sources, model: 'auto' })) events.push({ event: e.event, data: JSON.parse(e.data) });
      expect(events.map((e) => e.event)).to.deep.equal(['start', 'delta', 'citation', 'done']);
      expect(events[2]?.data).to.deep.equal({ index: 1, url: 'https://shop.example/pricing', title: 'Pricing' });
      expect(upstream.calls.every((c) => c.headers.authorization === `Bearer ${SECRET}`)).to.equal(true);
    } finally {
      client.destroy();
    }
  });
});

describe('createKitProxyMiddleware', () => {
  let upstream: FakeUpstream;
  let server: Server;
  let base: string;

  beforeEach(async () => {
    upstream = new FakeUpstream();
    const upstreamUrl = await upstream.start();
    const app = new Koa();
    // A body parser before the proxy must not break it: it re-sends what was parsed.
    app.use(async (ctx, next) => {
      if (ctx.path === '/kit/v1/chat' && ctx.get('x-parse-first') === '1') {
        let raw = '';
        for await (const chunk of ctx.req) raw += chunk;
        (ctx.request as { body?: unknown }).body = JSON.parse(raw);
      }
      await next();
    });
    app.use(createKitProxyMiddleware({ secretKey: SECRET, upstream: upstreamUrl }));
    app.use((ctx) => {
      ctx.body = 'customer app';
    });
    ({ server, base } = await listen(app.callback()));
  });
  afterEach(async () => {
    await close(server);
    await upstream.stop();
  });

  it('streams /chat through Koa and passes other paths to the next middleware', async () => {
    for (const parseFirst of ['0', '1']) {
      const res = await fetch(`${base}/kit/v1/chat`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-parse-first': parseFirst }, body: JSON.stringify(CHAT_BODY) });
      expect(res.status).to.equal(200);
      const text = await res.text();
      expect(text).to.include('event: citation').and.include('event: done');
    }
    expect(upstream.calls.map((c) => JSON.parse(c.body))).to.deep.equal([CHAT_BODY, CHAT_BODY]);
    const other = await fetch(`${base}/pricing`);
    expect(await other.text()).to.equal('customer app');
  });
});
