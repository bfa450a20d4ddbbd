import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { expect } from 'chai';
import Koa from 'koa';
import { createLogger } from '../../../server/logger.js';
import { errorHandler } from '../../../server/middleware/error-handler.js';
import { inflightLimit } from '../../../server/middleware/inflight-limit.js';

describe('inflightLimit (behind a trusted proxy)', () => {
  let server: Server;
  let url: string;
  let release: () => void = () => undefined;
  let gate = Promise.resolve();

  before(async () => {
    const app = new Koa({ proxy: true });
    app.use(errorHandler(createLogger('silent')));
    app.use(inflightLimit(2));
    app.use(async (ctx) => {
      await gate;
      ctx.body = { ok: true };
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('lets each forwarded client IP have `max` requests in flight; more get 429 at once; probes and other IPs pass', async () => {
    gate = new Promise<void>((r) => (release = r));
    const get = (path: string, ip: string) => fetch(`${url}${path}`, { headers: { 'x-forwarded-for': ip } });
    const held = [get('/v1/chat', '198.51.100.1'), get('/v1/chat', '198.51.100.1')];
    await new Promise((r) => setTimeout(r, 50));
    const over = await get('/v1/chat', '198.51.100.1');
    expect(over.status).to.equal(429);
    expect(over.headers.get('retry-after')).to.equal('1');
    expect((await over.json()).error.code).to.equal('rate_limited');
    const probe = get('/healthz', '198.51.100.1');
    const other = get('/v1/chat', '198.51.100.2');
    release();
    expect((await Promise.all([...held, probe, other])).map((r) => r.status)).to.deep.equal([200, 200, 200, 200]);
    // Finished requests free their places.
    expect((await get('/v1/chat', '198.51.100.1')).status).to.equal(200);
  });
});
