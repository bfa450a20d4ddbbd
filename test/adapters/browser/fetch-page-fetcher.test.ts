import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFetchPageFetcher } from '../../../adapters/browser/fetch-page-fetcher.js';
import type { PageFetchRequest, PageFetchResponse, PageFetchResult } from '../../../core/ports/page-fetcher.port.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A real loopback HTTP server; `seen` records every request path it received. */
async function serve(handler: Handler): Promise<{ server: Server; origin: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => { seen.push(req.url ?? ''); handler(req, res); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const base = (url: string): PageFetchRequest => ({ url, timeoutMs: 2000, credentials: 'omit', maxBytes: 1_000_000, accept: 'html' });
function value(result: PageFetchResult): PageFetchResponse {
  if (!result.ok) throw new Error(`expected a response, got ${result.code}: ${result.reason}`);
  return result.value;
}

describe('createFetchPageFetcher', () => {
  const servers: Server[] = [];
  const start = async (handler: Handler) => {
    const s = await serve(handler);
    servers.push(s.server);
    return s;
  };
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  it('returns status, final URL, media type, text and validators of a page', async () => {
    const { origin } = await start((req, res) => {
      if (req.url === '/old') { res.writeHead(301, { location: '/new' }); return res.end(); }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag: '"v1"', 'last-modified': 'Tue, 01 Oct 2024 10:00:00 GMT' });
      res.end('<title>Café</title>');
    });
    const r = value(await createFetchPageFetcher().fetch(base(`${origin}/old`)));
    expect(r).to.deep.equal({ status: 200, url: `${origin}/new`, contentType: 'text/html', text: '<title>Café</title>', bytes: 20, truncated: false, validators: { etag: '"v1"', lastModified: 'Tue, 01 Oct 2024 10:00:00 GMT' } });
  });

  it('reports a redirect to another origin without reading its body', async () => {
    const foreign = await start((_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<p>foreign secret</p>'); });
    const foreignUrl = foreign.origin.replace('127.0.0.1', 'localhost') + '/landing';
    const { origin } = await start((_req, res) => { res.writeHead(302, { location: foreignUrl }); res.end(); });
    const r = value(await createFetchPageFetcher({ documentOrigin: null }).fetch(base(`${origin}/out`)));
    expect(r.url).to.equal(foreignUrl);
    expect(r.text).to.equal('');
    expect(r.bytes).to.equal(0);
  });

  it('fails with timeout when the server is too slow, for headers or for the body', async () => {
    const { origin } = await start((req, res) => {
      if (req.url === '/slow-body') { res.writeHead(200, { 'content-type': 'text/html' }); res.write('<p>start'); return; }
      // /slow-headers: never answers
    });
    const fetcher = createFetchPageFetcher();
    for (const path of ['/slow-headers', '/slow-body']) {
      const started = Date.now();
      const r = await fetcher.fetch({ ...base(`${origin}${path}`), timeoutMs: 150 });
      expect(r, path).to.include({ ok: false, code: 'timeout' });
      expect(Date.now() - started, path).to.be.within(100, 1500);
    }
  });

  it('reads at most maxBytes of an endless 50 MB body and stops the download', async () => {
    let written = 0;
    let closed = false;
    const { origin } = await start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      res.on('close', () => { closed = true; });
      const pump = () => {
        while (!closed && written < 50_000_000) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const r = value(await createFetchPageFetcher().fetch({ ...base(`${origin}/sitemap.xml`), maxBytes: 100_000, accept: 'xml' }));
    expect(r.bytes).to.equal(100_000);
    expect(r.text).to.have.length(100_000);
    expect(r.truncated).to.equal(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(closed, 'the server saw the connection closed').to.equal(true);
    expect(written).to.be.below(10_000_000);
  });

  it('fails with aborted when the caller aborts, and with network when nothing listens', async () => {
    const { origin } = await start(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const fetcher = createFetchPageFetcher();
    expect(await fetcher.fetch({ ...base(`${origin}/hang`), signal: controller.signal })).to.include({ ok: false, code: 'aborted' });
    const closedPort = await start(() => {});
    const url = `${closedPort.origin}/x`;
    closedPort.server.close();
    expect(await fetcher.fetch(base(url))).to.include({ ok: false, code: 'network' });
  });

  it('passes the credentials mode and validators to fetch, and uses same-origin mode on its own origin', async () => {
    const { origin, seen } = await start((req, res) => {
      if (req.headers['if-none-match'] === '"v1"') { res.writeHead(304); return res.end(); }
      res.end('x');
    });
    const inits: RequestInit[] = [];
    // The real fetch, observed: Node's fetch has no cookie jar (and no document origin), so the cookie itself is
    // checked in Chromium by fetch-page-fetcher.chromium.test.ts.
    const observed: typeof fetch = (input, init) => { inits.push(init!); return fetch(input, { ...init, mode: 'cors' }); };
    const fetcher = createFetchPageFetcher({ fetch: observed, documentOrigin: origin });
    const r = value(await fetcher.fetch({ ...base(`${origin}/p`), credentials: 'same-origin', validators: { etag: '"v1"', lastModified: null } }));
    expect(r.status).to.equal(304);
    await fetcher.fetch(base(`${origin}/q`));
    expect(inits.map((i) => [i.credentials, i.mode, i.redirect])).to.deep.equal([['same-origin', 'same-origin', 'follow'], ['omit', 'same-origin', 'follow']]);
    await createFetchPageFetcher({ fetch: observed, documentOrigin: 'https://elsewhere.example' }).fetch(base(`${origin}/r`));
    expect(inits[2]!.mode).to.equal('cors');
    expect(seen).to.deep.equal(['/p', '/q', '/r']);
  });

  it('decodes the charset named by the header or by a meta tag', async () => {
    const latin1 = Buffer.from('<p>caf\xe9</p>', 'latin1');
    const { origin } = await start((req, res) => {
      if (req.url === '/header') { res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' }); return res.end(latin1); }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(Buffer.concat([Buffer.from('<meta charset="iso-8859-1">'), latin1]));
    });
    const fetcher = createFetchPageFetcher();
    expect(value(await fetcher.fetch(base(`${origin}/header`))).text).to.equal('<p>café</p>');
    expect(value(await fetcher.fetch(base(`${origin}/meta`))).text).to.equal('<meta charset="iso-8859-1"><p>café</p>');
  });

  it('does not cut a multi-byte character in half at the byte cap', async () => {
    const { origin } = await start((_req, res) => { res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }); res.end('ééé'); });
    const r = value(await createFetchPageFetcher().fetch({ ...base(`${origin}/`), maxBytes: 3 }));
    expect(r.text).to.equal('é');
  });
});
