import { expect } from 'chai';
import { ContainerModule } from 'inversify';
import request from 'supertest';
import type { KeyAuth } from '../../../server/auth/auth-context.js';
import { defineRoute } from '../../../server/http/route.js';
import type { Platform } from '../../../server/platform.js';
import { resolve, TOKENS } from '../../../server/tokens.js';
import { sharedPglite } from '../../support/databases.js';
import { createTestPlatform, seedOrg, type SeededOrg } from '../../support/platform.js';

/** A key route registered the way part 2 registers /config, /session and /chat. */
const probeModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.Routes).toConstantValue([
    defineRoute({
      method: 'get',
      path: '/probe',
      operationId: 'probe',
      summary: 'test route',
      tags: ['Test'],
      auth: { kind: 'key', kinds: ['publishable', 'secret'] },
      responses: { 200: { description: 'The verified key.' } },
      async handler({ auth }) {
        const key: KeyAuth = auth;
        return { status: 200, body: { key_id: key.keyId, kind: key.keyKind, org_id: key.orgId, tier: key.orgTier } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/probe-secret',
      operationId: 'probeSecret',
      summary: 'test route',
      tags: ['Test'],
      auth: { kind: 'key', kinds: ['secret'] },
      responses: { 204: { description: 'Nothing.' } },
      async handler() {
        return { status: 204 };
      },
    }),
  ]);
});

describe('Authenticator', () => {
  let platform: Platform;
  let org: SeededOrg;
  let pub: { id: string; value: string };
  let openPub: string;
  let sec: { id: string; value: string };
  const api = () => request(platform.app.callback());

  before(async function () {
    this.timeout(180_000);
    platform = await createTestPlatform({ database: await sharedPglite(), modules: [probeModule], env: { KIT_TRUST_PROXY: '1', KIT_CORS_ORIGINS: '*' } });
    org = await seedOrg(platform, 'authn');
    const keys = resolve(platform.container, 'KeyService');
    const owner = { kind: 'member' as const, userId: org.members.owner.userId, orgId: org.orgId, role: 'owner' as const };
    const p = await keys.create(owner, 'publishable', { name: 'p', allowedOrigins: ['https://shop.example.com', 'https://*.example.org'] });
    const o = await keys.create(owner, 'publishable', { name: 'loopback only' });
    const s = await keys.create(owner, 'secret', { name: 's', ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'] });
    if (!p.ok || !o.ok || !s.ok) throw new Error('keys');
    pub = { id: p.value.key.id, value: p.value.secret };
    openPub = o.value.secret;
    sec = { id: s.value.key.id, value: s.value.secret };
  });
  after(() => platform.close());

  it('lets another module add key routes that receive the verified key', async () => {
    const res = await api().get('/v1/probe').set('authorization', `Bearer ${pub.value}`).set('origin', 'https://shop.example.com');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ key_id: pub.id, kind: 'publishable', org_id: org.orgId, tier: 'free' });
    const served = await api().get('/v1/openapi.json');
    expect(served.status, served.text).to.equal(200);
    const doc = served.body;
    expect(doc.paths['/probe'].get.security).to.deep.equal([{ publishableKey: [] }, { secretKey: [] }]);
  });

  it("echoes only origins the publishable key allows, and refuses others with origin_not_allowed", async () => {
    const ok = await api().get('/v1/probe').set('authorization', `Bearer ${pub.value}`).set('origin', 'https://a.b.example.org');
    expect(ok.status).to.equal(200);
    expect(ok.headers['access-control-allow-origin']).to.equal('https://a.b.example.org');
    expect(ok.headers.vary).to.match(/origin/i);
    const bad = await api().get('/v1/probe').set('authorization', `Bearer ${pub.value}`).set('origin', 'https://evil.example.net');
    expect(bad.status).to.equal(403);
    expect(bad.body.error.code).to.equal('origin_not_allowed');
    expect(bad.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it("counts a key as used only when a request with it is admitted: not a refused origin, not the console's preview", async () => {
    const owner = { kind: 'member' as const, userId: org.members.owner.userId, orgId: org.orgId, role: 'owner' as const };
    const created = await resolve(platform.container, 'KeyService').create(owner, 'publishable', { name: 'last use', allowedOrigins: ['https://shop.example.com'] });
    if (!created.ok) throw new Error('key');
    const key = { id: created.value.key.id, value: created.value.secret };
    const lastUsed = async () => {
      await resolve(platform.container, 'LastUsedTracker').flush();
      const row = await platform.database.knex('api_keys').where({ id: key.id }).first('last_used_at');
      return row.last_used_at as Date | string | null;
    };
    expect((await api().get('/v1/probe').set('authorization', `Bearer ${key.value}`).set('origin', 'https://evil.example.net')).status).to.equal(403);
    const grant = await resolve(platform.container, 'PreviewGrants').issue(owner, key.id);
    if (!grant.ok) throw new Error('grant');
    expect((await api().get('/v1/probe').set('authorization', `Bearer ${key.value}`).set('kit-preview', grant.value.token)).status).to.equal(200);
    expect(await lastUsed()).to.equal(null);
    expect((await api().get('/v1/probe').set('authorization', `Bearer ${key.value}`).set('origin', 'https://shop.example.com')).status).to.equal(200);
    expect(await lastUsed()).to.not.equal(null);
  });

  it('allows only loopback origins for a key with no allowed origins', async () => {
    expect((await api().get('/v1/probe').set('authorization', `Bearer ${openPub}`).set('origin', 'http://localhost:5173')).status).to.equal(200);
    expect((await api().get('/v1/probe').set('authorization', `Bearer ${openPub}`).set('origin', 'https://shop.example.com')).status).to.equal(403);
  });

  it("enforces the secret key's IP allowlist on the client address behind a trusted proxy", async () => {
    const from = (ip: string) => api().get('/v1/probe').set('authorization', `Bearer ${sec.value}`).set('x-forwarded-for', ip);
    expect((await from('203.0.113.50')).status).to.equal(200);
    expect((await from('2001:db8:5::1')).status).to.equal(200);
    const bad = await from('198.51.100.7');
    expect(bad.status).to.equal(403);
    expect(bad.body.error.code).to.equal('ip_not_allowed');
    // a client cannot prepend its own address: only the hop added by the trusted proxy counts
    expect((await from('203.0.113.50, 198.51.100.7')).status).to.equal(403);
  });

  it('answers unauthenticated, invalid_api_key and forbidden for missing, bad and misplaced credentials', async () => {
    const cases: Array<[string | null, string, number, string]> = [
      [null, '/v1/probe', 401, 'unauthenticated'],
      ['kit_pub_' + 'x'.repeat(38), '/v1/probe', 401, 'invalid_api_key'],
      ['not-a-key-or-token', '/v1/probe', 401, 'invalid_api_key'],
      [org.members.owner.token, '/v1/probe', 403, 'forbidden'],
      [pub.value, '/v1/probe-secret', 403, 'forbidden'],
    ];
    for (const [credential, path, status, code] of cases) {
      const req = path === '/v1/probe' ? api().get(path) : api().post(path);
      const res = await (credential ? req.set('authorization', `Bearer ${credential}`) : req);
      expect(res.status, `${credential?.slice(0, 12)} ${path}`).to.equal(status);
      expect(res.body.error.code).to.equal(code);
    }
  });

  it('refuses a deleted key at once', async () => {
    const owner = { kind: 'member' as const, userId: org.members.owner.userId, orgId: org.orgId, role: 'owner' as const };
    const keys = resolve(platform.container, 'KeyService');
    const k = await keys.create(owner, 'secret', { name: 'short-lived' });
    if (!k.ok) throw new Error(k.reason);
    const call = () => api().get('/v1/probe').set('authorization', `Bearer ${k.value.secret}`);
    expect((await call()).status).to.equal(200);
    expect((await api().delete(`/v1/keys/${k.value.key.id}`).set('authorization', `Bearer ${org.members.developer.token}`)).status).to.equal(204);
    const res = await call();
    expect(res.status).to.equal(401);
    expect(res.body.error.code).to.equal('invalid_api_key');
  });
});
