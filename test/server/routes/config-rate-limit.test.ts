import { expect } from 'chai';
import type { Platform } from '../../../server/platform.js';
import { sharedPglite } from '../../support/databases.js';
import { createTestPlatform, listen, seedOrg, testClock } from '../../support/platform.js';
import { createKeys } from '../support/chat.js';

describe('GET /v1/config flood limit (per key and client IP)', () => {
  // Mid-minute, so a burst never straddles two windows.
  const clock = testClock(new Date('2026-05-01T12:00:20Z'));
  let platform: Platform;
  let server: { url: string; close(): Promise<void> };
  let keys: Awaited<ReturnType<typeof createKeys>>;
  let otherKeys: Awaited<ReturnType<typeof createKeys>>;
  const config = (key: string, ip: string) =>
    fetch(`${server.url}/v1/config`, { headers: { authorization: `Bearer ${key}`, origin: 'https://shop.example.com', 'x-forwarded-for': ip } });

  before(async function () {
    this.timeout(120_000);
    platform = await createTestPlatform({ database: await sharedPglite(), clock, env: { KIT_TRUST_PROXY: '1', KIT_CONFIG_PER_MINUTE: '20' } });
    server = await listen(platform);
    const org = await seedOrg(platform, 'config-limit');
    keys = await createKeys(platform, org);
    otherKeys = await createKeys(platform, org);
  });
  after(async () => {
    await server.close();
    await platform.close();
  });

  it('answers exactly the limit of a parallel burst; the rest get 429 rate_limited with Retry-After and RateLimit', async () => {
    const burst = await Promise.all(Array.from({ length: 60 }, () => config(keys.publishable, '198.51.100.7')));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(20);
    expect(statuses.filter((s) => s === 429)).to.have.length(40);
    const refused = burst.find((r) => r.status === 429)!;
    expect((await refused.json()).error.code).to.equal('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).to.equal(40);
    expect(refused.headers.get('ratelimit')).to.equal('limit=20, remaining=0, reset=40');
  });

  it('counts each client IP and each key apart, and opens again in the next minute', async () => {
    expect((await config(keys.publishable, '198.51.100.7')).status).to.equal(429);
    expect((await config(keys.publishable, '198.51.100.8')).status).to.equal(200);
    expect((await config(otherKeys.publishable, '198.51.100.7')).status).to.equal(200);
    clock.advance(60_000);
    expect((await config(keys.publishable, '198.51.100.7')).status).to.equal(200);
  });
});
