import { expect } from 'chai';
import request from 'supertest';
import type { Platform } from '../../../server/platform.js';
import { describeOnEachDatabase } from '../../support/databases.js';
import { createTestPlatform, seedOrg, SEED_PASSWORD, testClock, type SeededOrg, type TestClock } from '../../support/platform.js';
import { linkIn, startTestSmtp, type TestSmtp } from '../../support/smtp.js';
import { startStripe } from '../support/stripe.js';
import type { FakeStripeServer } from '../../fakes/stripe-server.js';

let n = 0;
const unique = (label: string) => `${label}-${Date.now()}-${n++}@example.test`;
const cookieOf = (res: request.Response) => String((res.headers['set-cookie'] as unknown as string[])[0]).split(';')[0]!;

describeOnEachDatabase('console routes (browser sessions, password reset, invitations, preview grants)', (db) => {
  let platform: Platform;
  let smtp: TestSmtp;
  let stripe: FakeStripeServer;
  let clock: TestClock;
  let org: SeededOrg;
  const api = () => request(platform.app.callback());

  before(async function () {
    this.timeout(120_000);
    smtp = await startTestSmtp();
    const billing = await startStripe();
    stripe = billing.fake;
    clock = testClock();
    platform = await createTestPlatform({
      database: db(),
      clock,
      env: { KIT_SMTP_URL: smtp.url, KIT_CONSOLE_SESSION_IDLE_SECONDS: '3600', KIT_CONSOLE_SESSION_MAX_SECONDS: '86400', ...billing.env },
    });
    org = await seedOrg(platform, 'console');
  });
  after(async () => {
    await platform.close();
    await smtp.stop();
    await stripe.stop();
  });

  async function signIn(email: string, password = SEED_PASSWORD) {
    const res = await api().post('/v1/auth/session').send({ email, password });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return { cookie: cookieOf(res), csrf: res.body.csrf_token as string, body: res.body };
  }

  describe('browser sessions', () => {
    it('signs in with an HttpOnly SameSite=Strict cookie and no token in the body; member routes take the cookie', async () => {
      const res = await api().post('/v1/auth/session').send({ email: org.members.developer.email, password: SEED_PASSWORD });
      expect(res.status).to.equal(201);
      const setCookie = String((res.headers['set-cookie'] as unknown as string[])[0]);
      expect(setCookie).to.match(/^kit_console=[A-Za-z0-9_-]{43};/);
      expect(setCookie).to.match(/httponly/i);
      expect(setCookie).to.match(/samesite=strict/i);
      expect(setCookie).to.match(/path=\//i);
      expect(res.body).not.to.have.property('token');
      expect(res.body.role).to.equal('developer');
      expect(res.headers['cache-control']).to.equal('no-store');
      const keys = await api().get('/v1/keys').set('cookie', cookieOf(res));
      expect(keys.status).to.equal(200);
      // The role is still the database's: a developer may not manage members.
      const invite = await api().post('/v1/org/members').set('cookie', cookieOf(res)).set('x-csrf-token', res.body.csrf_token).send({ email: unique('x'), role: 'viewer' });
      expect(invite.status).to.equal(403);
    });

    it('ends a session after the idle time and at its absolute end, and on sign-out everywhere it was copied', async () => {
      const a = await signIn(org.members.viewer.email);
      clock.advance(3000_000);
      expect((await api().get('/v1/auth/session').set('cookie', a.cookie)).status).to.equal(200); // activity renews the idle time
      clock.advance(3000_000);
      expect((await api().get('/v1/auth/session').set('cookie', a.cookie)).status).to.equal(200);
      clock.advance(3601_000);
      const idle = await api().get('/v1/auth/session').set('cookie', a.cookie);
      expect(idle.status).to.equal(401);
      expect(idle.body.error.message).to.include('sign in again');

      const b = await signIn(org.members.viewer.email);
      for (let i = 0; i < 26; i++) {
        clock.advance(3500_000);
        await api().get('/v1/org').set('cookie', b.cookie);
      }
      expect((await api().get('/v1/org').set('cookie', b.cookie)).status).to.equal(401); // past 24 h whatever the activity

      const c = await signIn(org.members.viewer.email);
      expect((await api().delete('/v1/auth/session').set('cookie', c.cookie)).status).to.equal(403); // sign-out needs the CSRF token too
      expect((await api().delete('/v1/auth/session').set('cookie', c.cookie).set('x-csrf-token', c.csrf)).status).to.equal(204);
      expect((await api().get('/v1/org').set('cookie', c.cookie)).status).to.equal(401);
    });

    it('switches organization only to one the user belongs to', async () => {
      const other = await seedOrg(platform, 'console-other');
      const a = await signIn(org.members.owner.email);
      const stranger = await api().patch('/v1/auth/session').set('cookie', a.cookie).set('x-csrf-token', a.csrf).send({ organization_id: other.orgId });
      expect(stranger.status).to.equal(404);
      await platform.database.knex('memberships').insert({ org_id: other.orgId, user_id: org.members.owner.userId, role: 'viewer', joined_at: new Date() });
      const switched = await api().patch('/v1/auth/session').set('cookie', a.cookie).set('x-csrf-token', a.csrf).send({ organization_id: other.orgId });
      expect(switched.status).to.equal(200);
      expect(switched.body.organization.id).to.equal(other.orgId);
      expect(switched.body.role).to.equal('viewer');
      expect(switched.body.organizations.map((o: { id: string }) => o.id)).to.include.members([org.orgId, other.orgId]);
      expect((await api().get('/v1/keys').set('cookie', a.cookie)).status).to.equal(403); // a viewer there
    });

    it('refuses a cookie sign-in posted from another origin (login CSRF)', async () => {
      const res = await api().post('/v1/auth/session').set('origin', 'https://evil.example').send({ email: org.members.viewer.email, password: SEED_PASSWORD });
      expect(res.status).to.equal(403);
      expect(res.headers['set-cookie']).to.equal(undefined);
    });
  });

  describe('password reset', () => {
    it('emails a link over SMTP for a known address and the same 202 for an unknown one', async () => {
      const email = unique('reset');
      await api().post('/v1/auth/signup').send({ email, password: 'old password 1' }).expect(201);
      const before = smtp.messages.length;
      expect((await api().post('/v1/auth/password-reset').send({ email: unique('nobody') })).status).to.equal(202);
      const res = await api().post('/v1/auth/password-reset').send({ email });
      expect(res.status).to.equal(202);
      expect(res.body).to.deep.equal({ accepted: true });
      const mail = await smtp.waitFor((m) => m.to.includes(email));
      expect(smtp.messages.length).to.equal(before + 1); // nothing for the unknown address
      expect(mail.headers.get('x-kit-mail')).to.equal('password_reset');
      expect(linkIn(mail, 'http://127.0.0.1')).to.match(/\/console\/reset-password#token=kit_rst_[0-9A-Za-z]{40}$/);
    });

    it('lets exactly one of many parallel uses of a token through, and ends the sessions of the account', async () => {
      const email = unique('burst');
      await api().post('/v1/auth/signup').send({ email, password: 'old password 1' }).expect(201);
      const session = await signIn(email, 'old password 1');
      await api().post('/v1/auth/password-reset').send({ email }).expect(202);
      const token = linkIn(await smtp.waitFor((m) => m.to.includes(email)), 'http://').split('token=')[1]!;
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => api().post('/v1/auth/password-reset/confirm').send({ token, password: `new password ${i}` })),
      );
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 204)).to.have.length(1);
      expect(statuses.filter((s) => s === 400)).to.have.length(11);
      const winner = answers.findIndex((r) => r.status === 204);
      expect((await api().post('/v1/auth/login').send({ email, password: `new password ${winner}` })).status).to.equal(200);
      expect((await api().post('/v1/auth/login').send({ email, password: 'old password 1' })).status).to.equal(401);
      expect((await api().get('/v1/auth/session').set('cookie', session.cookie)).status).to.equal(401);
    });

    it('refuses an expired token', async () => {
      const email = unique('expired');
      await api().post('/v1/auth/signup').send({ email, password: 'old password 1' }).expect(201);
      await api().post('/v1/auth/password-reset').send({ email }).expect(202);
      const token = linkIn(await smtp.waitFor((m) => m.to.includes(email)), 'http://').split('token=')[1]!;
      clock.advance(3601_000);
      const res = await api().post('/v1/auth/password-reset/confirm').send({ token, password: 'new password 1' });
      expect(res.status).to.equal(400);
      expect(res.body.error.message).to.include('expired');
    });

    it('never builds a link from a non-loopback Host header (no KIT_PUBLIC_URL): no email is sent', async () => {
      const email = unique('host');
      await api().post('/v1/auth/signup').send({ email, password: 'old password 1' }).expect(201);
      const before = smtp.messages.length;
      await api().post('/v1/auth/password-reset').set('host', 'evil.example').send({ email }).expect(202);
      await api().post('/v1/auth/password-reset').send({ email: org.members.viewer.email }).expect(202); // a marker that arrives after
      await smtp.waitFor((m) => m.to.includes(org.members.viewer.email));
      expect(smtp.messages.slice(before).some((m) => m.to.includes(email))).to.equal(false);
    });
  });

  describe('invitations, leaving, billing portal, preview grants', () => {
    // Earlier tests moved the clock past the seeded tokens' hour.
    beforeEach(async () => {
      org = await seedOrg(platform, 'console');
    });

    it('emails the invitation, keeps returning its token, lists and revokes it', async () => {
      const email = unique('invited');
      const res = await api().post('/v1/org/members').set('authorization', `Bearer ${org.members.admin.token}`).send({ email, role: 'viewer' });
      expect(res.status).to.equal(201);
      expect(res.body.emailed).to.equal(true);
      expect(res.body.invitation.token).to.match(/^kit_inv_/);
      const mail = await smtp.waitFor((m) => m.to.includes(email));
      expect(linkIn(mail, 'http://')).to.include(`/console/accept-invite#token=${res.body.invitation.token}`);
      const list = await api().get('/v1/org/invitations').set('authorization', `Bearer ${org.members.viewer.token}`);
      expect(list.status).to.equal(200);
      const item = list.body.data.find((i: { email: string }) => i.email === email);
      expect(item).to.include({ role: 'viewer' });
      expect(JSON.stringify(list.body)).not.to.include('kit_inv_');
      expect((await api().delete(`/v1/org/invitations/${item.id}`).set('authorization', `Bearer ${org.members.developer.token}`)).status).to.equal(403);
      expect((await api().delete(`/v1/org/invitations/${item.id}`).set('authorization', `Bearer ${org.members.admin.token}`)).status).to.equal(204);
      const accept = await api().post('/v1/auth/signup').send({ email, password: 'long enough pw', invite_token: res.body.invitation.token });
      expect(accept.status).to.equal(400);
    });

    it('lets any member leave but never the last owner', async () => {
      const team = await seedOrg(platform, 'leaving');
      expect((await api().post('/v1/org/leave').set('authorization', `Bearer ${team.members.viewer.token}`)).status).to.equal(204);
      const last = await api().post('/v1/org/leave').set('authorization', `Bearer ${team.members.owner.token}`);
      expect(last.status).to.equal(409);
      expect(last.body.error.message).to.include('last owner');
    });

    it('opens the Stripe customer portal only once the organization has a Stripe customer', async () => {
      const team = await seedOrg(platform, 'portal');
      const auth = `Bearer ${team.members.admin.token}`;
      const before = await api().post('/v1/billing/portal').set('authorization', auth).send({ return_url: 'http://127.0.0.1/console/billing' });
      expect(before.status).to.equal(409);
      await api().post('/v1/billing/checkout').set('authorization', auth).send({ plan: 'pro', success_url: 'http://127.0.0.1/ok', cancel_url: 'http://127.0.0.1/no' }).expect(201);
      const portal = await api().post('/v1/billing/portal').set('authorization', auth).send({ return_url: 'http://127.0.0.1/console/billing' });
      expect(portal.status).to.equal(201);
      expect(portal.body.url).to.match(/^https:\/\/billing\.stripe\.com\/p\/session\//);
      const call = stripe.calls.find((c) => c.path === '/v1/billing_portal/sessions')!;
      expect(call.form.return_url).to.equal('http://127.0.0.1/console/billing');
      expect((await api().post('/v1/billing/portal').set('authorization', `Bearer ${team.members.developer.token}`).send({ return_url: 'http://127.0.0.1/x' })).status).to.equal(403);
    });

    it("accepts a preview grant for its key from Kit's own origin only", async () => {
      const created = await api().post('/v1/keys').set('authorization', `Bearer ${org.members.developer.token}`).send({ kind: 'publishable', name: 'shop', allowed_origins: ['https://shop.example'] });
      const key = created.body.key;
      const grant = await api().post(`/v1/keys/${key.id}/preview`).set('authorization', `Bearer ${org.members.developer.token}`);
      expect(grant.status).to.equal(201);
      // The server's own origin is what its Host header says: http://kit.test here.
      const config = (origin: string, token: string) =>
        api().get('/v1/config').set('host', 'kit.test').set('authorization', `Bearer ${key.value}`).set('origin', origin).set('kit-preview', token);
      expect((await config('http://kit.test', grant.body.token)).status).to.equal(200);
      expect((await config('https://evil.example', grant.body.token)).status).to.equal(403);
      expect((await config('http://kit.test', grant.body.token.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A')))).status).to.equal(403);
      expect((await api().get('/v1/config').set('host', 'kit.test').set('authorization', `Bearer ${key.value}`).set('origin', 'http://kit.test')).status).to.equal(403); // no grant
      clock.advance(901_000);
      expect((await config('http://kit.test', grant.body.token)).status).to.equal(403);
      const viewer = await api().post(`/v1/keys/${key.id}/preview`).set('authorization', `Bearer ${org.members.viewer.token}`);
      expect(viewer.status).to.equal(403);
      const stranger = await seedOrg(platform, 'preview-stranger');
      expect((await api().post(`/v1/keys/${key.id}/preview`).set('authorization', `Bearer ${stranger.members.owner.token}`)).status).to.equal(404);
    });

    it("previews a draft on the owner's own site: allowed origins only, that origin only, signed, 15 minutes", async () => {
      const auth = `Bearer ${org.members.developer.token}`;
      const created = await api().post('/v1/keys').set('authorization', auth).send({ kind: 'publishable', name: 'site', allowed_origins: ['https://shop.example', 'https://*.shop.example'] });
      const key = created.body.key;
      const grant = (body: unknown) => api().post(`/v1/keys/${key.id}/preview`).set('authorization', auth).send(body as object);
      // Not an allowed origin: the contract's error naming what the key allows.
      const refused = await grant({ url: 'https://elsewhere.example/pricing', assistant: { greeting: 'Draft' } });
      expect(refused.status).to.equal(400);
      expect(refused.body.error.code).to.equal('invalid_request');
      expect(refused.body.error.message).to.equal("url: https://elsewhere.example is not an allowed origin of this key (it allows https://shop.example, https://*.shop.example); add it to the key's allowed origins first");
      expect((await grant({ url: 'javascript:alert(1)' })).body.error.message).to.equal('url: must be an http: or https: address of a page of your site');
      expect((await grant({ url: 'https://shop.example/', assistant: { contact_url: 'ftp://x' } })).status).to.equal(400); // the draft is validated as PATCH /assistant
      // A wildcard-allowed page: the answer's url carries the token in its fragment.
      const ok = await grant({ url: 'https://www.shop.example/pricing?x=1', assistant: { greeting: 'Draft greeting', theme: { accent: '#112233' } } });
      expect(ok.status).to.equal(201);
      expect(ok.body.url).to.equal(`https://www.shop.example/pricing?x=1#kit-preview=${ok.body.token}`);
      const config = (origin: string, token?: string) => {
        const r = api().get('/v1/config').set('authorization', `Bearer ${key.value}`).set('origin', origin);
        return token ? r.set('kit-preview', token) : r;
      };
      const previewed = await config('https://www.shop.example', ok.body.token);
      expect(previewed.status).to.equal(200);
      expect(previewed.body.assistant.greeting).to.equal('Draft greeting');
      expect(previewed.body.assistant.theme.accent).to.equal('#112233');
      expect(previewed.body.assistant.theme.position).to.be.a('string'); // the rest of the theme stays the saved one
      // Without the token, from another allowed origin, or forged: the saved settings (never an error).
      expect((await config('https://www.shop.example')).body.assistant.greeting).to.not.equal('Draft greeting');
      expect((await config('https://shop.example', ok.body.token)).body.assistant.greeting).to.not.equal('Draft greeting');
      const [, payload, sig] = String(ok.body.token).split('.');
      const forged = `kpo.${Buffer.from(Buffer.from(payload!, 'base64url').toString().replace('Draft greeting', 'Forged greeting')).toString('base64url')}.${sig}`;
      expect((await config('https://www.shop.example', forged)).body.assistant.greeting).to.not.equal('Forged greeting');
      clock.advance(901_000);
      expect((await config('https://www.shop.example', ok.body.token)).body.assistant.greeting).to.not.equal('Draft greeting');
      // A secret key has no browser preview.
      const secret = await api().post('/v1/keys').set('authorization', auth).send({ kind: 'secret', name: 'backend' });
      expect((await api().post(`/v1/keys/${secret.body.key.id}/preview`).set('authorization', auth).send({ url: 'https://shop.example/' })).status).to.equal(400);
    });
  });
});
