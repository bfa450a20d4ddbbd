import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { expect } from 'chai';
import Koa from 'koa';
import { createKitProxy, createKitProxyMiddleware } from '../../../adapters/node/kit-proxy.js';
import { createAltchaSolver } from '../../../adapters/remote/altcha-solver.js';
import { createFetchTransport } from '../../../adapters/remote/fetch-transport.js';
import { createPlatformClient } from '../../../adapters/remote/platform-client.js';
import { createRemoteInference, type RemoteInferenceEvent } from '../../../adapters/remote/remote-inference.js';
import type { Platform } from '../../../server/platform.js';
import { sharedPglite } from '../../support/databases.js';
import { createTestPlatform, listen, seedOrg } from '../../support/platform.js';
import { createKeys, OFF_TOPIC_QUESTION, PRICING, PRICING_QUESTION } from '../../server/support/chat.js';

const run = promisify(execFile);

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Mode B against the real Platform API: a server with a secret key, and the proxy helper in front of the SDK. */
describe('createKitProxy against the real Platform API', () => {
  let platform: Platform;
  let api: { url: string; close(): Promise<void> };
  let keys: Awaited<ReturnType<typeof createKeys>>;
  const usageOfSecretKey = async () => Number((await platform.database.knex('usage_events').where({ key_id: keys.secretId }).count<{ n: number }[]>('* as n'))[0]!.n);

  before(async function () {
    this.timeout(120_000);
    platform = await createTestPlatform({ database: await sharedPglite() });
    api = await listen(platform);
    keys = await createKeys(platform, await seedOrg(platform, 'mode-b'));
  });
  after(async () => {
    await api.close();
    await platform.close();
  });

  it('streams a cited answer to a server calling /v1/chat with its secret key (the curl example of docs/mode-b.md)', async function () {
    this.timeout(30_000);
    const body = JSON.stringify({ messages: [{ role: 'user', content: PRICING_QUESTION }], sources: [PRICING], stream: true });
    const { stdout } = await run('curl', ['-sN', `${api.url}/v1/chat`, '-H', `Authorization: Bearer ${keys.secret}`, '-H', 'Content-Type: application/json', '-d', body]);
    const events = [...stdout.matchAll(/^event: (\w+)\nid: (\d+)\ndata: (.*)$/gm)].map((m) => ({ event: m[1], id: Number(m[2]), data: JSON.parse(m[3]!) }));
    expect(events[0]!.event).to.equal('start');
    expect(events.at(-1)!.event).to.equal('done');
    expect(events.filter((e) => e.event === 'delta').map((e) => e.data.text).join('')).to.include('20 dollars');
    expect(events.find((e) => e.event === 'citation')!.data).to.deep.equal({ index: 1, url: PRICING.url, title: PRICING.title });
  });

  for (const flavour of ['Node handler', 'Koa middleware'] as const) {
    it(`serves the SDK's client end to end through the ${flavour}: config without a challenge, a local session, a streamed cited answer metered on the secret key`, async function () {
      this.timeout(30_000);
      const options = { secretKey: keys.secret, upstream: `${api.url}/v1`, configCacheSeconds: 0 };
      let customer: { url: string; server: Server };
      if (flavour === 'Node handler') {
        const proxy = createKitProxy(options);
        customer = await serve((req, res) => proxy(req, res));
      } else {
        const app = new Koa();
        app.use(createKitProxyMiddleware(options));
        customer = await serve(app.callback());
      }
      const client = createPlatformClient({
        baseUrl: `${customer.url}/kit/v1`,
        apiKey: 'kit_pub_ignoredByTheProxyButShapedLikeAKey0000',
        transport: createFetchTransport(),
        solveChallenge: createAltchaSolver({ worker: false }),
      });
      try {
        const before = await usageOfSecretKey();
        const config = await client.getConfig();
        expect(config.bot_challenge).to.deep.equal({ provider: 'none' });
        expect(config.limits.requests_per_minute).to.equal(60);
        const engine = createRemoteInference(client);
        const events: RemoteInferenceEvent[] = [];
        for await (const event of engine.answer({ question: PRICING_QUESTION, history: [], sources: [PRICING] })) events.push(event);
        const text = events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
        expect(text).to.include('20 dollars');
        expect(events.filter((e) => e.type === 'citation')).to.deep.equal([{ type: 'citation', index: 1 }]);
        expect(events.at(-1)?.type).to.equal('done');
        expect(engine.model).to.equal('extractive');

        const refusal: RemoteInferenceEvent[] = [];
        for await (const event of engine.answer({ question: OFF_TOPIC_QUESTION, history: [], sources: [PRICING] })) refusal.push(event);
        expect(refusal.map((e) => e.type)).to.deep.equal(['start', 'refusal', 'done']);
        expect(await usageOfSecretKey()).to.equal(before + 2);
      } finally {
        client.destroy();
        await stop(customer.server);
      }
    });
  }
});
