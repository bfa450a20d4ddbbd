import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { createHttpServer, type HttpServerOptions, type KitHttpServer } from '../../server/http-server.js';
import { testPostgres } from '../support/databases.js';
import { postgresAvailable } from '../support/postgres.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import type { FloodOptions, FloodReport } from './support/slow-header-flood.js';

const run = promisify(execFile);

const LIMITS = { headersTimeoutMs: 1_000, requestTimeoutMs: 1_000, keepAliveTimeoutMs: 1_000, maxConnectionsPerIp: 20, trustProxyHops: 0 };

/** Opens a raw TCP connection from `localAddress`; collects what the server sends and when it closes. */
function rawConnection(port: number, localAddress: string): Promise<{ socket: Socket; data: () => string; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => (data += c));
    socket.on('error', () => undefined);
    const closed = new Promise<number>((r) => socket.once('close', () => r(performance.now() - started)));
    socket.once('connect', () => resolve({ socket, data: () => data, closed }));
    socket.once('error', reject);
  });
}

describe('createHttpServer', () => {
  let server: KitHttpServer | null = null;
  let port = 0;
  const start = async (limits: HttpServerOptions = LIMITS, handler: Parameters<typeof createHttpServer>[0] = (_req, res) => res.end('ok')) => {
    server = createHttpServer(handler, limits);
    port = (await server.listen(0, '127.0.0.1')).port;
  };
  afterEach(() => {
    server?.stopAccepting();
    server?.http.closeAllConnections();
    server = null;
  });

  it('caps open connections per client address: the next one gets 429 rate_limited at once, other addresses are served', async () => {
    await start();
    const held = await Promise.all(Array.from({ length: 20 }, () => rawConnection(port, '127.0.0.5')));
    const over = await Promise.all(Array.from({ length: 5 }, () => rawConnection(port, '127.0.0.5')));
    for (const c of over) await c.closed;
    for (const c of over) {
      expect(c.data()).to.match(/^HTTP\/1\.1 429 Too Many Requests\r\n/).and.include('Retry-After: 1');
      expect(JSON.parse(c.data().split('\r\n\r\n')[1]!).error.code).to.equal('rate_limited');
    }
    expect(server!.connectionsOf('127.0.0.5')).to.equal(20);
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).to.equal('ok');
    // A closed connection frees its place.
    held[0]!.socket.destroy();
    await held[0]!.closed;
    await new Promise((r) => setTimeout(r, 20));
    const again = await rawConnection(port, '127.0.0.5');
    again.socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await again.closed;
    expect(again.data()).to.match(/^HTTP\/1\.1 200/);
    for (const c of held) c.socket.destroy();
  });

  it('holds at most maxPendingHeaders unfinished request heads over all addresses: the oldest is closed with 408, a new client gets in', async () => {
    await start({ ...LIMITS, maxPendingHeaders: 10 });
    const heads = [];
    for (let i = 0; i < 15; i++) {
      const c = await rawConnection(port, `127.0.0.${10 + (i % 5)}`);
      c.socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
      heads.push(c);
      await new Promise((r) => setTimeout(r, 5));
    }
    for (const c of heads.slice(0, 5)) await c.closed;
    for (const c of heads.slice(0, 5)) expect(c.data()).to.match(/^HTTP\/1\.1 408 /);
    expect(server!.pendingHeaders()).to.equal(10);
    // A client that sends its head at once is served (evicting one more unfinished head), and leaves the count.
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).to.equal('ok');
    expect(server!.pendingHeaders()).to.be.at.most(10);
    // The heads still held complete normally.
    const last = heads.at(-1)!;
    last.socket.write('Connection: close\r\n\r\n');
    await last.closed;
    expect(last.data()).to.match(/^HTTP\/1\.1 200/);
    for (const c of heads) c.socket.destroy();
  });

  it('closes a connection that never finishes its headers after headersTimeout, not Node\'s default 60 s', async () => {
    await start();
    const slow = await rawConnection(port, '127.0.0.6');
    slow.socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    const timer = setInterval(() => slow.socket.write('X-Drip: 1\r\n'), 200);
    const closedAfter = await slow.closed;
    clearInterval(timer);
    expect(closedAfter).to.be.within(900, 5_000);
    expect(slow.data()).to.match(/^HTTP\/1\.1 408/);
  });

  it('lets a response stream far longer than requestTimeout (SSE): the limit is on receiving the request only', async () => {
    await start(LIMITS, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const timer = setInterval(() => {
        res.write(`: keep-alive ${n}\n\n`);
        if (++n === 10) {
          clearInterval(timer);
          res.end('event: done\ndata: {}\n\n');
        }
      }, 250);
    });
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/stream`);
    const text = await res.text();
    expect(performance.now() - started).to.be.greaterThan(2_000);
    expect(text).to.include(': keep-alive 9').and.include('event: done');
  });
});

describe('slow-header floods against the real server (flood and probe in separate processes)', function () {
  this.timeout(240_000);
  let child: ChildServer;
  let dir: string | null = null;

  before(async () => {
    const db: Record<string, string> = postgresAvailable() ? { DATABASE_URL: (await testPostgres()).url } : { KIT_DATA_DIR: (dir = mkdtempSync(join(tmpdir(), 'kit-flood-'))) };
    child = await startChildServer({ ...db, KIT_DEMO: 'false', KIT_HEADERS_TIMEOUT_MS: '5000' });
  });
  after(async () => {
    await child?.stop('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Probes /healthz every 25 ms from 127.0.0.1 while the flood runs; returns the flood's report and the probe latencies. */
  async function floodAndProbe(options: Omit<FloodOptions, 'port'>): Promise<{ report: FloodReport; latencies: number[] }> {
    const port = Number(new URL(child.url).port);
    const latencies: number[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const t = performance.now();
        const res = await fetch(`${child.url}/healthz`);
        await res.text();
        expect(res.status).to.equal(200);
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/server/support/slow-header-flood.ts', JSON.stringify({ port, ...options })], { timeout: 120_000 });
    probing = false;
    await probe;
    return { report: JSON.parse(stdout) as FloodReport, latencies };
  }

  // The stated bound: no /healthz probe waits longer than this during a flood of 3 000 slow-header connections
  // (issue 11 §8 measured 660–2 200 ms before). Generous for a shared 2-core machine; `npm run bench -- embedded`
  // prints the real figures.
  const HEALTHZ_BOUND_MS = 500;

  it('3 000 slow-header connections from one address released at once: the cap refuses most, /healthz stays under the bound', async () => {
    const { report, latencies } = await floodAndProbe({ connections: 3_000, sources: 1, path: '/healthz', dribbleMs: 500, holdMs: 1_500, settleMs: 1_500 });
    expect(report.refused429, JSON.stringify(report)).to.equal(3_000 - 256);
    expect(report.answeredAfterRelease, JSON.stringify(report)).to.equal(256);
    expect(Math.max(...latencies), `healthz latencies ${latencies.map((l) => l.toFixed(0)).join(',')}`).to.be.lessThan(HEALTHZ_BOUND_MS);
  });

  // Spread over 12 addresses, every one under the per-address cap, the per-address cap refuses nothing: what bounds
  // this flood is KIT_MAX_PENDING_HEADERS (512) — past it the oldest unfinished head is closed — so the release can
  // only free ≤ 512 requests at once (issue 11.8's residual: 3 000 released together held /healthz up to 1.1 s).
  it('3 000 slow-header connections from 12 addresses (each under the per-address cap) released at once: ≤ 512 pending heads, /healthz stays under the bound', async () => {
    const { report, latencies } = await floodAndProbe({ connections: 3_000, sources: 12, path: '/healthz', dribbleMs: 500, holdMs: 1_500, settleMs: 1_500 });
    const max = Math.max(...latencies);
    console.log(`      ${JSON.stringify(report)}; /healthz max ${max.toFixed(0)} ms over ${latencies.length} probes`);
    expect(report.refused429, JSON.stringify(report)).to.equal(0);
    // Each probe connection takes a pending slot for a moment too (evicting one flood head), hence ≤ rather than =.
    expect(report.answeredAfterRelease, JSON.stringify(report)).to.be.within(400, 512);
    expect(report.closedBeforeRelease + report.answeredAfterRelease, JSON.stringify(report)).to.equal(3_000);
    expect(max, `healthz latencies ${latencies.map((l) => l.toFixed(0)).join(',')}`).to.be.lessThan(HEALTHZ_BOUND_MS);
  });

  it('3 000 slow-header connections from 12 addresses that never finish: all are cut at headersTimeout, /healthz stays under the bound', async () => {
    const { report, latencies } = await floodAndProbe({ connections: 3_000, sources: 12, path: '/v1/config', dribbleMs: 500, holdMs: 7_500, settleMs: 200 });
    expect(report.refused429).to.equal(0);
    expect(report.closedBeforeRelease, 'closed by the 5 s headersTimeout').to.equal(3_000);
    expect(Math.max(...latencies), `healthz latencies ${latencies.map((l) => l.toFixed(0)).join(',')}`).to.be.lessThan(HEALTHZ_BOUND_MS);
  });
});
