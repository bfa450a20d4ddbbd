import { connect, type Socket } from 'node:net';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Platform } from '../../../server/platform.js';
import { resolve } from '../../../server/tokens.js';
import { EndlessUpstream } from '../../fakes/endless-upstream.js';
import { sharedPglite } from '../../support/databases.js';
import { createTestPlatform, seedOrg } from '../../support/platform.js';
import { chatBody, createKeys, eventually } from '../support/chat.js';

const CLIENTS = 20;
const STALL_MS = 400;

/** Sends POST /v1/chat on a raw socket and never reads a byte of the answer. */
function neverReadingClient(port: number, key: string): Socket {
  const body = JSON.stringify(chatBody());
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined); // the server is expected to cut us off
  socket.write(
    `POST /v1/chat HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.pause(); // nothing is read from the kernel: its buffers fill, then the server's writes stop draining
  return socket;
}

// Issue #11.6: clients that never read their SSE stream, against an upstream that ignores max_tokens, kept streams
// (and the upstream) open until they left, wrote no usage row meanwhile, and leaked drain/close listeners.
describe('POST /v1/chat with clients that never read', function () {
  this.timeout(120_000);
  let platform: Platform;
  let server: Server;
  let port: number;
  let upstream: EndlessUpstream;
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);

  before(async () => {
    upstream = new EndlessUpstream();
    const url = await upstream.start();
    platform = await createTestPlatform({
      database: await sharedPglite(),
      env: {
        KIT_INFERENCE_URL: url,
        KIT_INFERENCE_MODEL: 'endless',
        KIT_SSE_WRITE_STALL_MS: String(STALL_MS),
        KIT_SSE_KEEPALIVE_MS: '50', // many keep-alives while stalled: each used to add listeners
        KIT_PLAN_LIMITS: JSON.stringify({ free: { requests_per_minute: 1000, org_requests_per_minute: 100_000, monthly_tokens: 1_000_000_000, max_output_tokens: 1_000_000 } }), // no output cap: the stall bound alone must end these streams
      },
    });
    server = platform.app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
    process.on('warning', onWarning);
  });
  after(async () => {
    process.off('warning', onWarning);
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await platform?.close();
    await upstream?.stop();
  });

  it('cuts every stalled stream within the bound: upstream aborted, one usage row each, connection closed, no listener leak', async () => {
    const org = await seedOrg(platform, 'stall');
    const keys = await createKeys(platform, org);
    const connections = () => new Promise<number>((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
    const sockets = Array.from({ length: CLIENTS }, () => neverReadingClient(port, keys.secret));
    try {
      await eventually(async () => upstream.calls >= CLIENTS, 20_000);
      const rows = () => platform.database.knex('usage_events').where({ org_id: org.orgId }).count<{ n: number }[]>('* as n').then((r) => Number(r[0]!.n));
      // Every stream has stopped draining (a few hundred KB each) and been cut well before any client leaves.
      await eventually(async () => (await rows()) === CLIENTS, 30_000);
      // Then the upstream answers and the client connections close. Twenty upstreams pumping in this same process
      // slow each turn of the event loop: on a machine at load 10 the last one closed after more than 10 s.
      await eventually(async () => upstream.open === 0, 30_000);
      await eventually(async () => (await connections()) === 0, 30_000);
      // Each row is settled after its stream ended (docs/api.md): read the tokens once this process has settled them.
      await resolve(platform.container, 'ChatService').settledFor(org.orgId);
      const metered = await platform.database.knex('usage_events').where({ org_id: org.orgId }).select('output_tokens', 'model');
      for (const row of metered) {
        expect(row.model).to.equal('endless');
        expect(Number(row.output_tokens), 'what was streamed is metered').to.be.greaterThan(0);
      }
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).to.deep.equal([]);
      // Every client is still connected on its side and has read nothing: the server acted alone.
      for (const s of sockets) expect(s.bytesRead).to.equal(0);
    } finally {
      for (const s of sockets) s.destroy();
    }
  });
});
