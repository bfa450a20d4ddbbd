import { expect } from 'chai';
import { createArgon2PasswordHasher } from '../../../adapters/node/argon2-password-hasher.js';
import type { PasswordHasherPort } from '../../../core/ports/password-hasher.port.js';
import { createPlatform, type Platform } from '../../../server/platform.js';
import { createLogger } from '../../../server/logger.js';
import { describeOnEachDatabase } from '../../support/databases.js';
import { listen, seedOrg, SEED_PASSWORD, testConfig } from '../../support/platform.js';

/** The real Argon2id hasher, counting how many passwords it was asked to check. */
function countingHasher(): PasswordHasherPort & { verifies: number } {
  const real = createArgon2PasswordHasher();
  const counter = {
    verifies: 0,
    hash: (password: string) => real.hash(password),
    async verify(hash: string, password: string) {
      counter.verifies += 1;
      return real.verify(hash, password);
    },
  };
  return counter;
}

let ipCounter = 0;
/** A client address no other test uses (the platform trusts one proxy hop). */
const freshIp = () => `198.18.${Math.floor(Math.random() * 250)}.${(ipCounter++ % 250) + 1}`;

describe('AccountService.login under parallel attempts', function () {
  this.timeout(180_000);

  describeOnEachDatabase('failed-login limits', (db) => {
    let platform: Platform;
    let server: { url: string; close(): Promise<void> };
    let hasher: ReturnType<typeof countingHasher>;
    const PER_EMAIL = 10;
    const PER_IP = 20;

    before(async () => {
      hasher = countingHasher();
      const config = testConfig({ KIT_LOGIN_MAX_PER_EMAIL: String(PER_EMAIL), KIT_LOGIN_MAX_PER_IP: String(PER_IP), KIT_TRUST_PROXY: '1' });
      platform = await createPlatform(config, { database: db(), logger: createLogger('silent'), passwordHasher: hasher });
      server = await listen(platform);
    });
    after(async () => {
      await server?.close();
      await platform?.close();
    });

    const login = (email: string, password: string, ip: string) =>
      fetch(`${server.url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ email, password }),
      }).then(async (res) => ({ status: res.status, code: ((await res.json()) as { error?: { code: string } }).error?.code }));

    it('checks exactly the per-email limit of 40 parallel wrong-password logins (from 40 addresses)', async () => {
      const org = await seedOrg(platform, 'burst-email');
      const before = hasher.verifies;
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => login(org.members.admin.email, `wrong password ${i}`, freshIp())));
      expect(hasher.verifies - before, 'passwords checked').to.equal(PER_EMAIL);
      expect(results.filter((r) => r.status === 401)).to.have.length(PER_EMAIL);
      expect(results.filter((r) => r.status === 429 && r.code === 'rate_limited')).to.have.length(40 - PER_EMAIL);
      // the right password is refused too while the window lasts, and costs no check
      const blocked = await login(org.members.admin.email, SEED_PASSWORD, freshIp());
      expect(blocked.status).to.equal(429);
      expect(hasher.verifies - before).to.equal(PER_EMAIL);
    });

    it('checks exactly the per-IP limit of 45 parallel logins from one address (45 emails)', async () => {
      const ip = freshIp();
      const before = hasher.verifies;
      const results = await Promise.all(Array.from({ length: 45 }, (_, i) => login(`nobody-${i}-${ipCounter}@example.test`, 'wrong password', ip)));
      expect(hasher.verifies - before, 'passwords checked').to.equal(PER_IP);
      expect(results.filter((r) => r.status === 401)).to.have.length(PER_IP);
      expect(results.filter((r) => r.status === 429)).to.have.length(45 - PER_IP);
    });

    it('does not count successful logins against the per-email limit', async () => {
      const org = await seedOrg(platform, 'burst-ok');
      // one after another: an attempt in flight holds a place in the window until its outcome is known
      for (let i = 0; i < PER_EMAIL + 5; i++) expect((await login(org.members.viewer.email, SEED_PASSWORD, freshIp())).status).to.equal(200);
      // …and failures still have their whole budget afterwards
      const failures = await Promise.all(Array.from({ length: PER_EMAIL + 2 }, () => login(org.members.viewer.email, 'wrong password', freshIp())));
      expect(failures.filter((r) => r.status === 401)).to.have.length(PER_EMAIL);
    });
  });
});
