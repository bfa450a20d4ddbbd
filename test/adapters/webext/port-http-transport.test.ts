import { expect } from 'chai';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAltchaSolver } from '../../../adapters/remote/altcha-solver.js';
import { createPlatformClient } from '../../../adapters/remote/platform-client.js';
import { createRemoteInference } from '../../../adapters/remote/remote-inference.js';
import { createFetchRelay } from '../../../adapters/webext/fetch-relay.js';
import { createPortHttpTransport, fromBase64, toBase64 } from '../../../adapters/webext/port-http-transport.js';
import { servePortStream } from '../../../adapters/webext/port-stream.js';
import type { HttpResponse } from '../../../core/ports/http-transport.port.js';
import { FAKE_PUBLISHABLE_KEY, startFakePlatformApi } from '../../fakes/platform-api-server.js';
import { connectTo, type TestPort } from './runtime-port-pair.js';

const until = async (check: () => boolean, ms = 3_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

async function bytesOf(response: HttpResponse): Promise<Uint8Array> {
  if (typeof response.body === 'string') return new TextEncoder().encode(response.body);
  const parts: Uint8Array[] = [];
  for await (const part of response.body) parts.push(part);
  return Uint8Array.from(parts.flatMap((p) => [...p]));
}

describe('createPortHttpTransport over createFetchRelay', () => {
  let server: Server;
  let base: string;
  let handle: (path: string, headers: IncomingHttpHeaders, body: string, res: ServerResponse) => void;
  const hits: string[] = [];
  const closed: string[] = [];
  const opened: TestPort[] = [];
  const transport = () => createPortHttpTransport({
    connect: connectTo((port) => servePortStream(port, createFetchRelay({ allow: (url) => url.startsWith(`${base}/v1/`) })), opened),
  });

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        hits.push(req.url ?? '');
        res.on('close', () => { if (!res.writableFinished) closed.push(req.url ?? ''); });
        handle(req.url ?? '', req.headers, body, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  beforeEach(() => { hits.length = 0; closed.length = 0; opened.length = 0; });

  it('returns status, lower-case headers and the exact body bytes when the body mixes UTF-8 and binary', async () => {
    const payload = Buffer.concat([Buffer.from('prix : 20 € — ok ✓ '), Buffer.from([0, 255, 128, 10])]);
    handle = (_path, headers, body, res) => {
      res.writeHead(201, { 'Request-Id': 'req_1', 'X-Echo-Body': body, 'X-Echo-Auth': String(headers.authorization), 'X-Echo-Cookie': String(headers.cookie) });
      res.write(payload.subarray(0, 9)); // splits the € sign's bytes across two chunks
      setTimeout(() => res.end(payload.subarray(9)), 10);
    };
    const response = await transport().request({
      method: 'POST', url: `${base}/v1/chat`, body: '{"q":"été"}',
      headers: { authorization: 'Bearer kit_pub_x', 'content-type': 'application/json', cookie: 'session=stolen' },
    });
    expect(response.status).to.equal(201);
    expect(response.headers['request-id']).to.equal('req_1');
    expect(response.headers['x-echo-body']).to.equal('{"q":"été"}');
    expect(response.headers['x-echo-auth']).to.equal('Bearer kit_pub_x');
    expect(response.headers['x-echo-cookie'], 'headers outside the relay list are dropped').to.equal('undefined');
    expect(Buffer.from(await bytesOf(response)).equals(payload)).to.equal(true);
  });

  it('streams the body chunk by chunk when the server writes it over time', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    handle = (_p, _h, _b, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: delta\ndata: {"text":"first"}\n\n');
      void gate.then(() => res.end('event: done\ndata: {}\n\n'));
    };
    const response = await transport().request({ method: 'GET', url: `${base}/v1/stream`, headers: {} });
    const body = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    const first = await body.next();
    // The first event arrived while the server still holds the rest: nothing was buffered to the end.
    expect(new TextDecoder().decode(first.value)).to.contain('first');
    release();
    let rest = '';
    for (let step = await body.next(); !step.done; step = await body.next()) rest += new TextDecoder().decode(step.value);
    expect(rest).to.contain('event: done');
  });

  it('closes the server connection when the caller aborts mid-body', async () => {
    handle = (_p, _h, _b, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': hello\n\n'); // then hangs
    };
    const controller = new AbortController();
    const response = await transport().request({ method: 'GET', url: `${base}/v1/hang`, headers: {}, signal: controller.signal });
    const body = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    await body.next();
    const pending = body.next();
    const reason = new DOMException('stopped', 'AbortError');
    controller.abort(reason);
    expect(await pending.catch((e: unknown) => e)).to.equal(reason);
    await until(() => closed.includes('/v1/hang'));
  });

  it('closes the server connection when the reader stops early', async () => {
    handle = (_p, _h, _b, res) => {
      res.writeHead(200);
      res.write('a');
    };
    const response = await transport().request({ method: 'GET', url: `${base}/v1/early`, headers: {} });
    for await (const _ of response.body as AsyncIterable<Uint8Array>) break;
    await until(() => closed.includes('/v1/early'));
  });

  it('refuses a URL outside the allowed endpoint without sending anything', async () => {
    handle = (_p, _h, _b, res) => res.end('should not happen');
    const err = await transport().request({ method: 'GET', url: `${base}/admin`, headers: {} }).catch((e: unknown) => e);
    expect(err).to.include({ code: 'invalid_config' });
    expect(hits).to.deep.equal([]);
  });

  it('rejects with network_error when the service cannot be reached', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(dead.address() as AddressInfo).port}/v1/config`;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    const t = createPortHttpTransport({ connect: connectTo((port) => servePortStream(port, createFetchRelay({ allow: () => true }))) });
    const err = await t.request({ method: 'GET', url, headers: {} }).catch((e: unknown) => e);
    expect(err).to.include({ code: 'network_error' });
  });

  it('rejects with network_error when a redirect would leave the endpoint', async () => {
    handle = (_p, _h, _b, res) => res.writeHead(302, { location: 'http://example.invalid/steal' }).end();
    const err = await transport().request({ method: 'GET', url: `${base}/v1/redirect`, headers: {} }).catch((e: unknown) => e);
    expect(err).to.include({ code: 'network_error' });
  });

  it('carries a whole streamed Platform API answer for the real client, when used as its transport', async () => {
    const api = await startFakePlatformApi({ provider: 'altcha', maxNumber: 500 });
    try {
      const t = createPortHttpTransport({ connect: connectTo((port) => servePortStream(port, createFetchRelay({ allow: (url) => url.startsWith(`${api.url}/`) }))) });
      const client = createPlatformClient({ baseUrl: api.url, apiKey: FAKE_PUBLISHABLE_KEY, transport: t, solveChallenge: createAltchaSolver({ worker: false }) });
      const events = [];
      for await (const e of createRemoteInference(client).answer({ question: 'How much is Pro?', history: [], sources: [{ url: 'https://example.com/pricing', title: 'Pricing', text: 'Pro costs 20 €.' }] })) events.push(e);
      expect(events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text).join('')).to.equal('The Pro plan costs 20 €.');
      expect(events.at(-1)).to.deep.include({ type: 'done' });
      expect(api.count('POST /session')).to.equal(1);
      client.destroy();
    } finally {
      await api.close();
    }
  });
});

describe('toBase64 / fromBase64', () => {
  it('round-trips every byte value when the input is larger than one encoding slice', () => {
    const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256);
    expect(Buffer.from(fromBase64(toBase64(bytes))).equals(Buffer.from(bytes))).to.equal(true);
    expect(toBase64(bytes)).to.equal(Buffer.from(bytes).toString('base64'));
  });
});
