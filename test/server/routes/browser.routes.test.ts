import { expect } from 'chai';
import { createAltchaSolver } from '../../../adapters/remote/altcha-solver.js';
import type { Platform } from '../../../server/platform.js';
import { FakeTurnstileServer } from '../../fakes/turnstile-server.js';
import { sharedPglite } from '../../support/databases.js';
import { createTestPlatform, listen, seedOrg, testClock, type SeededOrg } from '../../support/platform.js';
import { createKeys, openSession, TEST_ALTCHA_ENV } from '../support/chat.js';

const SHOP = 'https://shop.example.com';

describe('browserRoutes', () => {
  describe('with ALTCHA (the default)', () => {
    const clock = testClock();
    let platform: Platform;
    let server: { url: string; close(): Promise<void> };
    let org: SeededOrg;
    let keys: Awaited<ReturnType<typeof createKeys>>;
    const config = (key: string, origin: string | null = SHOP, extra: Record<string, string> = {}) =>
      fetch(`${server.url}/v1/config`, { headers: { authorization: `Bearer ${key}`, ...(origin ? { origin } : {}), ...extra } });
    const session = (key: string, body: unknown, origin: string | null = SHOP) =>
      fetch(`${server.url}/v1/session`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(origin ? { origin } : {}) },
        body: JSON.stringify(body),
      });
    const solve = createAltchaSolver({ worker: false });

    before(async function () {
      this.timeout(120_000);
      platform = await createTestPlatform({
        database: await sharedPglite(),
        clock,
        env: { ...TEST_ALTCHA_ENV, KIT_TRUST_PROXY: '1', KIT_PLAN_LIMITS: JSON.stringify({ pro: { requests_per_minute: 3 } }) },
      });
      server = await listen(platform);
      org = await seedOrg(platform, 'browser');
      keys = await createKeys(platform, org, { ipAllowlist: ['203.0.113.0/24'] });
    });
    after(async () => {
      await server.close();
      await platform.close();
    });

    it('answers GET /config for a publishable key with the plan and a fresh challenge, never cached', async () => {
      const res = await config(keys.publishable);
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(res.headers.get('access-control-allow-origin')).to.equal(SHOP);
      expect(res.headers.get('access-control-expose-headers')).to.include('Retry-After').and.include('RateLimit').and.include('Request-Id');
      const body = await res.json();
      expect(body).to.deep.include({ tier: 'free', mode: 'auto', model: 'auto' });
      expect(body.limits).to.deep.equal({
        requests_per_minute: 60,
        session_requests_per_minute: 10,
        max_question_chars: 1000,
        max_context_chars: 60000,
        max_pages: 100,
        session_ttl_seconds: 600,
        monthly_tokens: 200000,
      });
      expect(body.bot_challenge.provider).to.equal('altcha');
      expect(body.bot_challenge.challenge).to.have.all.keys('algorithm', 'challenge', 'maxnumber', 'salt', 'signature');
      expect(body.bot_challenge.challenge.maxnumber).to.equal(1000);
      const again = await (await config(keys.publishable)).json();
      expect(again.bot_challenge.challenge.challenge).to.not.equal(body.bot_challenge.challenge.challenge);
    });

    it('refuses GET /config from an origin the key does not allow, readable by that page so the SDK can say why', async () => {
      const res = await config(keys.publishable, 'https://evil.example.net');
      expect(res.status).to.equal(403);
      expect((await res.json()).error.code).to.equal('origin_not_allowed');
      // The error is readable cross-origin (it holds no data); a success never is for an origin the key refuses.
      expect(res.headers.get('access-control-allow-origin')).to.equal('https://evil.example.net');
      expect(res.headers.get('access-control-expose-headers')).to.include('Request-Id');
    });

    it('makes every error answer of the browser routes readable by the calling page (invalid key, no session)', async () => {
      const badKey = await config('kit_pub_' + 'x'.repeat(38), 'https://other.example');
      expect(badKey.status).to.equal(401);
      expect((await badKey.json()).error.code).to.equal('invalid_api_key');
      expect(badKey.headers.get('access-control-allow-origin')).to.equal('https://other.example');
      const chat = await fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${keys.publishable}`, origin: SHOP, 'content-type': 'application/json' }, body: '{}' });
      expect(chat.status).to.be.within(400, 499);
      expect(chat.headers.get('access-control-allow-origin')).to.equal(SHOP);
    });

    it('answers a CORS preflight of the browser routes for any origin (the key decides on the real request)', async () => {
      const res = await fetch(`${server.url}/v1/chat`, { method: 'OPTIONS', headers: { origin: 'https://anything.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, kit-session' } });
      expect(res.status).to.equal(204);
      expect(res.headers.get('access-control-allow-origin')).to.equal('https://anything.example');
      expect(res.headers.get('access-control-allow-headers')).to.match(/kit-session/i);
    });

    it('answers GET /config for a secret key with bot_challenge none, inside its IP allowlist only', async () => {
      const ok = await config(keys.secret, null, { 'x-forwarded-for': '203.0.113.7' });
      expect(ok.status).to.equal(200);
      expect((await ok.json()).bot_challenge).to.deep.equal({ provider: 'none' });
      const refused = await config(keys.secret, null, { 'x-forwarded-for': '198.51.100.7' });
      expect(refused.status).to.equal(403);
      expect((await refused.json()).error.code).to.equal('ip_not_allowed');
    });

    it('exchanges a solved challenge for a session bound to the key and origin, once', async () => {
      const body = await (await config(keys.publishable)).json();
      const solution = await solve(body.bot_challenge.challenge);
      const first = await session(keys.publishable, { provider: 'altcha', solution });
      expect(first.status).to.equal(201);
      expect(first.headers.get('access-control-allow-origin')).to.equal(SHOP);
      const issued = await first.json();
      expect(issued.session).to.match(/^kit_ses_/);
      expect(Date.parse(issued.expires_at) - clock.now().getTime()).to.be.within(599_000, 600_000);
      const replay = await session(keys.publishable, { provider: 'altcha', solution });
      expect(replay.status).to.equal(403);
      expect((await replay.json()).error.code).to.equal('challenge_failed');
    });

    it('keeps a solution single-use when the platform clock differs from the wall clock (claims expire on the platform clock)', async () => {
      clock.advance(-3_600_000); // the challenge's expiry is an hour before the wall clock's now
      try {
        const solution = await solve((await (await config(keys.publishable)).json()).bot_challenge.challenge);
        expect((await session(keys.publishable, { provider: 'altcha', solution })).status).to.equal(201);
        const replay = await session(keys.publishable, { provider: 'altcha', solution });
        expect(replay.status).to.equal(403);
        expect((await replay.json()).error.code).to.equal('challenge_failed');
      } finally {
        clock.advance(3_600_000);
      }
    });

    it('refuses a solution presented from another origin than the challenge was issued for', async () => {
      const body = await (await config(keys.publishable, SHOP)).json();
      const solution = await solve(body.bot_challenge.challenge);
      const res = await session(keys.publishable, { provider: 'altcha', solution }, 'http://localhost:3000');
      expect(res.status).to.equal(403); // the key does not allow localhost
      const loopbackKey = (await createKeys(platform, org, { allowedOrigins: ['https://shop.example.com', 'http://localhost:3000'] })).publishable;
      const c2 = await (await config(loopbackKey, SHOP)).json();
      const moved = await session(loopbackKey, { provider: 'altcha', solution: await solve(c2.bot_challenge.challenge) }, 'http://localhost:3000');
      expect(moved.status).to.equal(403);
      expect((await moved.json()).error.code).to.equal('challenge_failed');
    });

    it('refuses an expired challenge, a wrong solution, a wrong provider and a missing solution', async () => {
      const body = await (await config(keys.publishable)).json();
      const solution = await solve(body.bot_challenge.challenge);
      const tampered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(solution, 'base64').toString()), number: 1_000_001 })).toString('base64');
      expect((await (await session(keys.publishable, { provider: 'altcha', solution: tampered })).json()).error.code).to.equal('challenge_failed');
      expect((await (await session(keys.publishable, { provider: 'none', solution: null })).json()).error.code).to.equal('challenge_failed');
      expect((await (await session(keys.publishable, { provider: 'altcha', solution: null })).json()).error.code).to.equal('challenge_failed');
      clock.advance(301_000);
      try {
        const late = await session(keys.publishable, { provider: 'altcha', solution });
        expect(late.status).to.equal(403);
        expect((await late.json()).error.code).to.equal('challenge_failed');
      } finally {
        clock.advance(-301_000);
      }
    });

    it('refuses POST /session for a secret key (they need no session)', async () => {
      const res = await session(keys.secret, { provider: 'none', solution: null }, null);
      expect(res.status).to.equal(403);
      expect((await res.json()).error.code).to.equal('forbidden');
    });

    it('limits sessions per key per minute like chats, with Retry-After', async () => {
      const pro = await seedOrg(platform, 'browser-pro');
      await platform.database.knex('organizations').where({ id: pro.orgId }).update({ tier: 'pro' });
      const proKey = (await createKeys(platform, pro)).publishable;
      const codes: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 4; i++) {
        last = await session(proKey, { provider: 'altcha', solution: await solve((await (await config(proKey)).json()).bot_challenge.challenge) });
        codes.push(last.status);
      }
      expect(codes).to.deep.equal([201, 201, 201, 429]);
      expect(Number(last!.headers.get('retry-after'))).to.be.within(1, 60);
      expect(last!.headers.get('ratelimit')).to.match(/^limit=3, remaining=0, reset=\d+$/);
    });

    it('accepts a challenge fetched without Origin (a same-origin GET) and binds the session to the POST\'s Origin', async () => {
      const body = await (await config(keys.publishable, null)).json();
      expect(new URLSearchParams(body.bot_challenge.challenge.salt.split('?')[1]).get('origin')).to.equal(null);
      const res = await session(keys.publishable, { provider: 'altcha', solution: await solve(body.bot_challenge.challenge) }, SHOP);
      expect(res.status).to.equal(201);
      const token = (await res.json()).session as string;
      const chat = (origin: string | null) =>
        fetch(`${server.url}/v1/chat`, {
          method: 'POST',
          headers: { authorization: `Bearer ${keys.publishable}`, 'kit-session': token, 'content-type': 'application/json', ...(origin ? { origin } : {}) },
          body: JSON.stringify({ messages: [{ role: 'user', content: 'Who are you?' }], sources: [], stream: false }),
        });
      expect((await chat(SHOP)).status).to.equal(200);
      expect((await chat(null)).status).to.equal(401);
    });

    it('runs the SDK-shaped flow with no Origin (curl, servers): the session is bound to "no origin"', async () => {
      const token = await openSession(server.url, keys.publishable, null);
      expect(token).to.match(/^kit_ses_/);
    });
  });

  describe('with Turnstile', () => {
    let platform: Platform;
    let server: { url: string; close(): Promise<void> };
    let turnstile: FakeTurnstileServer;
    let key: string;

    before(async function () {
      this.timeout(120_000);
      turnstile = new FakeTurnstileServer({ secret: 'ts-secret', enforceSingleUse: false });
      const verifyUrl = await turnstile.start();
      platform = await createTestPlatform({
        database: await sharedPglite(),
        env: { KIT_BOT_CHALLENGE: 'turnstile', KIT_TURNSTILE_SECRET: 'ts-secret', KIT_TURNSTILE_SITE_KEY: '0xSITEKEY', KIT_TURNSTILE_VERIFY_URL: verifyUrl },
      });
      server = await listen(platform);
      key = (await createKeys(platform, await seedOrg(platform, 'turnstile'))).publishable;
    });
    after(async () => {
      await server.close();
      await platform.close();
      await turnstile.stop();
    });

    const post = (solution: string, origin = SHOP) =>
      fetch(`${server.url}/v1/session`, { method: 'POST', headers: { authorization: `Bearer ${key}`, origin, 'content-type': 'application/json' }, body: JSON.stringify({ provider: 'turnstile', solution }) });

    it('hands out the site key and verifies tokens at the configured siteverify URL, once each, for the right hostname', async () => {
      const cfg = await (await fetch(`${server.url}/v1/config`, { headers: { authorization: `Bearer ${key}`, origin: SHOP } })).json();
      expect(cfg.bot_challenge).to.deep.equal({ provider: 'turnstile', site_key: '0xSITEKEY' });
      const token = turnstile.issueToken('shop.example.com');
      expect((await post(token)).status).to.equal(201);
      expect(turnstile.calls.at(-1)?.form.secret).to.equal('ts-secret');
      const again = await post(token); // the fake does not enforce single use: the replay store must
      expect(again.status).to.equal(403);
      expect((await again.json()).error.code).to.equal('challenge_failed');
      const elsewhere = await post(turnstile.issueToken('other.example.com'));
      expect(elsewhere.status).to.equal(403);
    });

    it('answers upstream_unavailable when siteverify fails', async () => {
      turnstile.failStatus = 500;
      try {
        const res = await post(turnstile.issueToken('shop.example.com'));
        expect(res.status).to.equal(502);
        expect((await res.json()).error.code).to.equal('upstream_unavailable');
      } finally {
        turnstile.failStatus = undefined;
      }
    });
  });
});
