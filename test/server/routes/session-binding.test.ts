import { expect } from 'chai';
import { createAltchaSolver } from '../../../adapters/remote/altcha-solver.js';
import { createPlatform, type Platform } from '../../../server/platform.js';
import { createLogger } from '../../../server/logger.js';
import { describeOnEachDatabase } from '../../support/databases.js';
import { listen, seedOrg, testConfig } from '../../support/platform.js';
import { chatBody, createKeys, TEST_ALTCHA_ENV } from '../support/chat.js';

const SHOP = 'https://shop.example.com';
const solve = createAltchaSolver({ worker: false });

// Issue #11.5: a challenge fetched with one organisation's key opened a session on another's; and one solution
// must open one session however many copies of it arrive together.
describe('POST /v1/session: challenge bound to its key, one session per solution', function () {
  this.timeout(180_000);

  describeOnEachDatabase('ALTCHA binding', (db) => {
    let platform: Platform;
    let server: { url: string; close(): Promise<void> };
    let mallory: Awaited<ReturnType<typeof createKeys>>;
    let alice: Awaited<ReturnType<typeof createKeys>>;

    before(async () => {
      platform = await createPlatform(testConfig({ ...TEST_ALTCHA_ENV }), { database: db(), logger: createLogger('silent') });
      server = await listen(platform);
      mallory = await createKeys(platform, await seedOrg(platform, 'mallory'), { allowedOrigins: [SHOP] });
      alice = await createKeys(platform, await seedOrg(platform, 'alice'), { allowedOrigins: [SHOP] });
    });
    after(async () => {
      await server?.close();
      await platform?.close();
    });

    const challengeFor = async (key: string, origin: string | null = SHOP) => {
      const res = await fetch(`${server.url}/v1/config`, { headers: { authorization: `Bearer ${key}`, ...(origin ? { origin } : {}) } });
      expect(res.status).to.equal(200);
      return ((await res.json()) as { bot_challenge: { challenge: Parameters<typeof solve>[0] } }).bot_challenge.challenge;
    };
    const session = (key: string, solution: string, origin: string | null = SHOP) =>
      fetch(`${server.url}/v1/session`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(origin ? { origin } : {}) },
        body: JSON.stringify({ provider: 'altcha', solution }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as { session?: string; error?: { code: string; message: string } } }));

    it("refuses a challenge fetched with org M's key when presented with org A's key, and it still works for M", async () => {
      const solution = await solve(await challengeFor(mallory.publishable));
      const stolen = await session(alice.publishable, solution);
      expect(stolen.status).to.equal(403);
      expect(stolen.body.error?.code).to.equal('challenge_failed');
      expect(stolen.body.error?.message).to.match(/another key/);
      // The refusal did not burn the solution: its own key still gets the session (once).
      const own = await session(mallory.publishable, solution);
      expect(own.status).to.equal(201);
      const chat = await fetch(`${server.url}/v1/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.publishable}`, 'kit-session': own.body.session!, origin: SHOP, 'content-type': 'application/json' },
        body: JSON.stringify(chatBody(undefined, { stream: false })),
      });
      expect(chat.status, "M's session on A's key").to.equal(401);
    });

    it('refuses a challenge fetched without Origin for one key when presented with another key from any origin', async () => {
      const solution = await solve(await challengeFor(mallory.publishable, null));
      expect((await session(alice.publishable, solution, null)).status).to.equal(403);
      expect((await session(alice.publishable, solution)).status).to.equal(403);
    });

    it('opens exactly one session when 20 copies of one solution arrive together', async () => {
      const solution = await solve(await challengeFor(alice.publishable));
      const results = await Promise.all(Array.from({ length: 20 }, () => session(alice.publishable, solution)));
      expect(results.filter((r) => r.status === 201)).to.have.length(1);
      const refused = results.filter((r) => r.status !== 201);
      expect(refused).to.have.length(19);
      for (const r of refused) expect(r.body.error?.code).to.equal('challenge_failed');
    });
  });
});
