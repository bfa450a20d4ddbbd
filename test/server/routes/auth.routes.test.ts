import { expect } from 'chai';
import { SignJWT, base64url } from 'jose';
import request from 'supertest';
import type { PasswordHasherPort } from '../../../core/ports/password-hasher.port.js';
import type { Platform } from '../../../server/platform.js';
import { sharedPglite } from '../../support/databases.js';
import { createTestPlatform, seedOrg, SEED_PASSWORD, TEST_JWT_SECRET, testClock, type SeededOrg } from '../../support/platform.js';
import { resolve } from '../../../server/tokens.js';

const secret = new TextEncoder().encode(TEST_JWT_SECRET);
let counter = 0;
const uniqueEmail = (label: string) => `${label}-${Date.now()}-${counter++}@example.test`;

describe('authRoutes', () => {
  let platform: Platform;
  let org: SeededOrg;
  const api = () => request(platform.app.callback());

  before(async function () {
    this.timeout(180_000);
    platform = await createTestPlatform({ database: await sharedPglite() });
    org = await seedOrg(platform, 'auth');
  });
  after(() => platform.close());

  describe('POST /v1/auth/signup', () => {
    it('creates user, organization and owner membership and returns a working token', async () => {
      const email = uniqueEmail('Signup').toUpperCase();
      const res = await api().post('/v1/auth/signup').send({ email, password: 'long enough pw', name: 'Grace', organization_name: 'Grace Co' });
      expect(res.status).to.equal(201);
      expect(res.body.user.email).to.equal(email.toLowerCase());
      expect(res.body.user.id).to.match(/^usr_/);
      expect(res.body.organization).to.include({ name: 'Grace Co', tier: 'free', member_count: 1 });
      expect(res.body.role).to.equal('owner');
      expect(Date.parse(res.body.expires_at) - Date.now()).to.be.within(3500_000, 3600_000);
      const me = await api().get('/v1/org').set('authorization', `Bearer ${res.body.token}`);
      expect(me.body.id).to.equal(res.body.organization.id);
      const stored = await platform.database.knex('users').where({ id: res.body.user.id }).first();
      expect(stored.password_hash).to.match(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it('answers conflict for an email already registered, in any case, and creates nothing', async () => {
      const users = await platform.database.knex('users').count({ n: '*' });
      const res = await api().post('/v1/auth/signup').send({ email: org.members.viewer.email.toUpperCase(), password: 'another password' });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('conflict');
      expect(await platform.database.knex('users').count({ n: '*' })).to.deep.equal(users);
    });

    it('joins the inviting organization with the invited role through invite_token', async () => {
      const email = uniqueEmail('invitee');
      const invite = await api().post('/v1/org/members').set('authorization', `Bearer ${org.members.admin.token}`).send({ email, role: 'developer' });
      expect(invite.status).to.equal(201);
      const wrongEmail = await api().post('/v1/auth/signup').send({ email: uniqueEmail('other'), password: 'long enough pw', invite_token: invite.body.invitation.token });
      expect(wrongEmail.status).to.equal(400);
      const res = await api().post('/v1/auth/signup').send({ email, password: 'long enough pw', invite_token: invite.body.invitation.token });
      expect(res.status).to.equal(201);
      expect(res.body.organization.id).to.equal(org.orgId);
      expect(res.body.role).to.equal('developer');
      const again = await api().post('/v1/auth/signup').send({ email: uniqueEmail('again'), password: 'long enough pw', invite_token: invite.body.invitation.token });
      expect(again.status).to.equal(400);
      expect(again.body.error.code).to.equal('invalid_request');
    });
  });

  describe('POST /v1/auth/login', () => {
    it('signs in with the right password and picks the organization', async () => {
      const res = await api().post('/v1/auth/login').send({ email: org.members.developer.email, password: SEED_PASSWORD });
      expect(res.status).to.equal(200);
      expect(res.body.organization.id).to.equal(org.orgId);
      expect(res.body.role).to.equal('developer');
      const elsewhere = await api().post('/v1/auth/login').send({ email: org.members.developer.email, password: SEED_PASSWORD, organization_id: 'org_doesnotexist' });
      expect(elsewhere.status).to.equal(404);
    });

    it('gives the same answer for an unknown email and a wrong password, verifying a hash in both cases', async () => {
      const hasher = resolve(platform.container, 'PasswordHasher') as PasswordHasherPort;
      const original = hasher.verify.bind(hasher);
      let verifies = 0;
      hasher.verify = async (h, p) => {
        verifies++;
        return original(h, p);
      };
      try {
        const unknown = await api().post('/v1/auth/login').send({ email: uniqueEmail('nobody'), password: 'whatever 123' });
        expect(verifies).to.equal(1);
        const wrong = await api().post('/v1/auth/login').send({ email: org.members.viewer.email, password: 'whatever 123' });
        expect(verifies).to.equal(2);
        expect(unknown.status).to.equal(401);
        expect(wrong.status).to.equal(401);
        expect(unknown.body.error.code).to.equal(wrong.body.error.code);
        expect(unknown.body.error.message).to.equal(wrong.body.error.message);
      } finally {
        hasher.verify = original;
      }
    });

    it('accepts an invitation for an existing user through invite_token', async () => {
      const other = await seedOrg(platform, 'auth-other');
      const invite = await api().post('/v1/org/members').set('authorization', `Bearer ${org.members.owner.token}`).send({ email: other.members.viewer.email, role: 'admin' });
      const res = await api().post('/v1/auth/login').send({ email: other.members.viewer.email, password: SEED_PASSWORD, invite_token: invite.body.invitation.token });
      expect(res.status).to.equal(200);
      expect(res.body.organization.id).to.equal(org.orgId);
      expect(res.body.role).to.equal('admin');
      const home = await api().post('/v1/auth/login').send({ email: other.members.viewer.email, password: SEED_PASSWORD, organization_id: other.orgId });
      expect(home.body.role).to.equal('viewer');
    });
  });

  describe('login rate limits', () => {
    let limited: Platform;
    // The limits count in fixed 15-minute windows: the clock stands in the middle of one, so a run at :14:59.9 does
    // not see its attempts split over two windows (it did once, in session 14's fresh-clone CI at 06:30 UTC).
    const midWindow = () => testClock(new Date(Math.floor(Date.now() / 900_000) * 900_000 + 450_000));
    before(async () => {
      // Behind one trusted proxy, so each test can be its own client address (X-Forwarded-For).
      limited = await createTestPlatform({ database: await sharedPglite(), clock: midWindow(), env: { KIT_LOGIN_MAX_PER_EMAIL: '3', KIT_LOGIN_MAX_PER_IP: '6', KIT_TRUST_PROXY: '1' } });
    });
    after(() => limited.close());

    it('limits failed logins per email, then attempts per IP, with Retry-After and RateLimit headers', async () => {
      const app = limited.app.callback();
      const target = await seedOrg(platform, 'ratelimit');
      const ip = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
      const login = (email: string, password: string, from = ip) => request(app).post('/v1/auth/login').set('x-forwarded-for', from).send({ email, password });
      for (let i = 0; i < 3; i++) expect((await login(target.members.admin.email, `wrong ${i} password`)).status).to.equal(401);
      const blocked = await login(target.members.admin.email, SEED_PASSWORD);
      expect(blocked.status).to.equal(429);
      expect(blocked.body.error.code).to.equal('rate_limited');
      expect(Number(blocked.headers['retry-after'])).to.be.within(1, 900);
      expect(blocked.headers.ratelimit).to.match(/^limit=3, remaining=0, reset=\d+$/);
      // the email stays blocked from any address
      expect((await login(target.members.admin.email, SEED_PASSWORD, '203.0.113.77')).status).to.equal(429);
      // another email still works from this address until the per-IP budget (6 attempts) is spent
      expect((await login(target.members.viewer.email, SEED_PASSWORD)).status).to.equal(200);
      expect((await login(target.members.viewer.email, SEED_PASSWORD)).status).to.equal(200);
      const ipBlocked = await login(target.members.viewer.email, SEED_PASSWORD);
      expect(ipBlocked.status).to.equal(429);
      expect(ipBlocked.headers.ratelimit).to.match(/^limit=6, /);
      expect((await login(target.members.viewer.email, SEED_PASSWORD, '203.0.113.78')).status).to.equal(200);
    });

    it('ignores X-Forwarded-For when no proxy is trusted', async () => {
      const direct = await createTestPlatform({ database: await sharedPglite(), clock: midWindow(), env: { KIT_LOGIN_MAX_PER_IP: '1' } });
      try {
        const app = direct.app.callback();
        await request(app).post('/v1/auth/login').set('x-forwarded-for', '192.0.2.1').send({ email: uniqueEmail('x'), password: 'whatever 1' });
        const second = await request(app).post('/v1/auth/login').set('x-forwarded-for', '192.0.2.2').send({ email: uniqueEmail('y'), password: 'whatever 1' });
        expect(second.status).to.equal(429);
      } finally {
        await direct.close();
      }
    });
  });

  describe('dashboard tokens', () => {
    const now = () => Math.floor(Date.now() / 1000);
    const claims = () => ({ org: org.orgId, role: 'owner' });
    const sign = (p: { alg?: string; iss?: string; aud?: string; exp?: number; key?: Uint8Array; sub?: string }) =>
      new SignJWT(claims())
        .setProtectedHeader({ alg: p.alg ?? 'HS256', typ: 'JWT' })
        .setSubject(p.sub ?? org.members.owner.userId)
        .setIssuer(p.iss ?? 'kit')
        .setAudience(p.aud ?? 'kit-platform')
        .setIssuedAt(now() - 10)
        .setExpirationTime(p.exp ?? now() + 600)
        .sign(p.key ?? secret);

    it('accepts a well-formed token (control case)', async () => {
      expect((await api().get('/v1/org').set('authorization', `Bearer ${await sign({})}`)).status).to.equal(200);
    });

    const attacks: Array<[string, () => Promise<string>]> = [
      ['expired', () => sign({ exp: now() - 1 })],
      ['wrong audience', () => sign({ aud: 'someone-else' })],
      ['wrong issuer', () => sign({ iss: 'evil' })],
      ['signed with another secret', () => sign({ key: new TextEncoder().encode('another-secret-another-secret-another-secret') })],
      ['HS512 with the right secret (algorithm pinned)', () => sign({ alg: 'HS512' })],
      [
        'alg none',
        async () => {
          const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
          const payload = base64url.encode(JSON.stringify({ ...claims(), sub: org.members.owner.userId, iss: 'kit', aud: 'kit-platform', exp: now() + 600 }));
          return `${header}.${payload}.`;
        },
      ],
      [
        'tampered payload (role and org changed, signature kept)',
        async () => {
          const [h, , s] = (await sign({})).split('.');
          const payload = base64url.encode(JSON.stringify({ org: 'org_other', role: 'owner', sub: org.members.owner.userId, iss: 'kit', aud: 'kit-platform', exp: now() + 600 }));
          return `${h}.${payload}.${s}`;
        },
      ],
      ['garbage', async () => 'not.a.jwt'],
    ];
    for (const [name, make] of attacks) {
      it(`refuses a token that is ${name} with unauthenticated`, async () => {
        const res = await api().get('/v1/org').set('authorization', `Bearer ${await make()}`);
        expect(res.status).to.equal(401);
        expect(res.body.error.code).to.equal('unauthenticated');
      });
    }

    it('ends access at once for a member removed from the organization, with a still-valid token', async () => {
      const victim = await seedOrg(platform, 'auth-removed');
      const res = await api().delete(`/v1/org/members/${victim.members.developer.userId}`).set('authorization', `Bearer ${victim.members.owner.token}`);
      expect(res.status).to.equal(204);
      const after = await api().get('/v1/keys').set('authorization', `Bearer ${victim.members.developer.token}`);
      expect(after.status).to.equal(401);
    });
  });
});
