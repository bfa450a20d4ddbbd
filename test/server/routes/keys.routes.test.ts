import { createHash } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { parseKey } from '../../../core/keys/key-format.js';
import type { Platform } from '../../../server/platform.js';
import { sharedPglite } from '../../support/databases.js';
import { createTestPlatform, freshToken, seedOrg, testClock, type SeededOrg, type TestClock } from '../../support/platform.js';

describe('keyRoutes', () => {
  let platform: Platform;
  let org: SeededOrg;
  let clock: TestClock;
  const api = () => request(platform.app.callback());
  const as = (token: string) => ({
    get: (path: string) => api().get(path).set('authorization', `Bearer ${token}`),
    post: (path: string, body?: object) => {
      const r = api().post(path).set('authorization', `Bearer ${token}`);
      return body === undefined ? r : r.send(body);
    },
    patch: (path: string, body: object) => api().patch(path).set('authorization', `Bearer ${token}`).send(body),
    delete: (path: string) => api().delete(path).set('authorization', `Bearer ${token}`),
  });

  before(async function () {
    this.timeout(180_000);
    clock = testClock();
    platform = await createTestPlatform({ database: await sharedPglite(), clock });
    org = await seedOrg(platform, 'keys');
    await platform.database.knex('organizations').where({ id: org.orgId }).update({ tier: 'business' }); // room for every key the tests make
  });
  after(() => platform.close());

  it('creates a secret key, shows it once and stores only its SHA-256', async () => {
    const dev = as(org.members.developer.token);
    const res = await dev.post('/v1/keys', { kind: 'secret', name: 'Backend', ip_allowlist: ['203.0.113.9/24', '2001:DB8::1'] });
    expect(res.status).to.equal(201);
    const { key, secret } = res.body;
    const parsed = parseKey(secret);
    expect(parsed.ok && parsed.key.kind).to.equal('secret');
    expect(key).to.include({ kind: 'secret', name: 'Backend', status: 'active', prefix: secret.slice(0, 12), last4: secret.slice(-4), created_by: org.members.developer.userId });
    expect(key).to.not.have.property('value');
    expect(key.ip_allowlist).to.deep.equal(['203.0.113.0/24', '2001:db8::1']);
    const row = await platform.database.knex('api_keys').where({ id: key.id }).first();
    expect(row.value).to.equal(null);
    expect(row.hash).to.equal(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(row)).to.not.include(secret.slice(12, -4));
    const listed = await dev.get('/v1/keys?limit=100');
    const again = listed.body.data.find((k: { id: string }) => k.id === key.id);
    expect(again).to.not.have.property('value');
    expect(JSON.stringify(listed.body)).to.not.include(secret);
  });

  it('lists publishable keys in full, with normalised allowed origins', async () => {
    const res = await as(org.members.admin.token).post('/v1/keys', { kind: 'publishable', name: 'Site', allowed_origins: ['https://Shop.Example.com/', 'https://*.example.com', 'chrome-extension://abcdefghijklmnopabcdefghijklmnop'] });
    expect(res.status).to.equal(201);
    expect(res.body.key.value).to.equal(res.body.secret);
    expect(res.body.key.allowed_origins).to.deep.equal(['https://shop.example.com', 'https://*.example.com', 'chrome-extension://abcdefghijklmnopabcdefghijklmnop']);
    const listed = await as(org.members.owner.token).get('/v1/keys?limit=100');
    expect(listed.body.data.find((k: { id: string }) => k.id === res.body.key.id).value).to.equal(res.body.secret);
  });

  const invalidLists: Array<[string, object]> = [
    ['a path in an origin', { kind: 'publishable', name: 'x', allowed_origins: ['https://a.com/path'] }],
    ['a bare wildcard', { kind: 'publishable', name: 'x', allowed_origins: ['*'] }],
    ['a TLD wildcard', { kind: 'publishable', name: 'x', allowed_origins: ['https://*.com'] }],
    ['a javascript: origin', { kind: 'publishable', name: 'x', allowed_origins: ['javascript:alert(1)'] }],
    ['origins on a secret key', { kind: 'secret', name: 'x', allowed_origins: ['https://a.com'] }],
    ['an IP list on a publishable key', { kind: 'publishable', name: 'x', ip_allowlist: ['10.0.0.1'] }],
    ['a short-form IPv4', { kind: 'secret', name: 'x', ip_allowlist: ['127.1'] }],
    ['an over-long prefix', { kind: 'secret', name: 'x', ip_allowlist: ['10.0.0.0/33'] }],
    ['a host name', { kind: 'secret', name: 'x', ip_allowlist: ['example.com'] }],
    ['101 origins', { kind: 'publishable', name: 'x', allowed_origins: Array.from({ length: 101 }, (_, i) => `https://a${i}.example.com`) }],
    ['an unknown kind', { kind: 'admin', name: 'x' }],
    ['an unknown field', { kind: 'secret', name: 'x', scopes: ['all'] }],
  ];
  for (const [what, body] of invalidLists) {
    it(`refuses ${what} with invalid_request and creates nothing`, async () => {
      const before = await platform.database.knex('api_keys').where({ org_id: org.orgId }).count({ n: '*' });
      const res = await as(org.members.owner.token).post('/v1/keys', body);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_request');
      expect(await platform.database.knex('api_keys').where({ org_id: org.orgId }).count({ n: '*' })).to.deep.equal(before);
    });
  }

  it('pages through keys newest first with limit and starting_after', async () => {
    const fresh = await seedOrg(platform, 'keys-pages');
    await platform.database.knex('organizations').where({ id: fresh.orgId }).update({ tier: 'pro' });
    const owner = as(fresh.members.owner.token);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      clock.advance(1000);
      ids.push((await owner.post('/v1/keys', { kind: 'publishable', name: `k${i}` })).body.key.id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const res = await owner.get(`/v1/keys?limit=3${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(res.status).to.equal(200);
      seen.push(...res.body.data.map((k: { id: string }) => k.id));
      if (!res.body.has_more) break;
      cursor = res.body.data.at(-1).id;
    }
    expect(seen).to.deep.equal([...ids].reverse());
    for (const bad of ['limit=0', 'limit=101', 'limit=abc', 'starting_after=key_unknown123', 'starting_after=usr_x']) {
      expect((await owner.get(`/v1/keys?${bad}`)).status, bad).to.equal(400);
    }
  });

  it('updates name, origins and IP list, and refuses a kind-mismatched list', async () => {
    const owner = as(org.members.owner.token);
    const pub = (await owner.post('/v1/keys', { kind: 'publishable', name: 'Before' })).body.key;
    const res = await owner.patch(`/v1/keys/${pub.id}`, { name: 'After', allowed_origins: ['http://localhost:3000'] });
    expect(res.status).to.equal(200);
    expect(res.body.key).to.include({ name: 'After' });
    expect(res.body.key.allowed_origins).to.deep.equal(['http://localhost:3000']);
    expect((await owner.patch(`/v1/keys/${pub.id}`, { ip_allowlist: ['10.0.0.1'] })).status).to.equal(400);
    expect((await owner.patch('/v1/keys/key_doesnotexist', { name: 'x' })).status).to.equal(404);
  });

  it('rotates with a grace period: the old key is expiring, then revoked and hidden', async () => {
    const owner = as(org.members.owner.token);
    const created = (await owner.post('/v1/keys', { kind: 'secret', name: 'Rotating', ip_allowlist: ['10.0.0.0/8'] })).body;
    const res = await owner.post(`/v1/keys/${created.key.id}/rotate`, { expire_previous_in_seconds: 3600 });
    expect(res.status).to.equal(201);
    expect(res.body.key).to.include({ name: 'Rotating', status: 'active', kind: 'secret' });
    expect(res.body.key.ip_allowlist).to.deep.equal(['10.0.0.0/8']);
    expect(res.body.secret).to.not.equal(created.secret);
    expect(Date.parse(res.body.previous.expires_at) - clock.now().getTime()).to.equal(3600_000);
    const listed = (await owner.get('/v1/keys?limit=100')).body.data;
    expect(listed.find((k: { id: string }) => k.id === created.key.id).status).to.equal('expiring');
    expect((await owner.post(`/v1/keys/${created.key.id}/rotate`, {})).status, 'a key rotates once').to.equal(409);
    clock.advance(3600_000);
    const owner2 = as(await freshToken(platform, org.orgId, org.members.owner)); // the first token has expired meanwhile
    const later = (await owner2.get('/v1/keys?limit=100')).body.data;
    expect(later.map((k: { id: string }) => k.id)).to.not.include(created.key.id);
    const all = (await owner2.get('/v1/keys?limit=100&include_revoked=true')).body.data;
    expect(all.find((k: { id: string }) => k.id === created.key.id).status).to.equal('revoked');
    clock.advance(-3600_000); // back, so the members' one-hour tokens stay valid for the next tests
  });

  it('rotates without a body (grace 0) and refuses out-of-range grace periods', async () => {
    const owner = as(org.members.owner.token);
    const id = (await owner.post('/v1/keys', { kind: 'secret', name: 'Now' })).body.key.id;
    for (const bad of [-1, 604_801, 1.5, '60']) expect((await owner.post(`/v1/keys/${id}/rotate`, { expire_previous_in_seconds: bad })).status).to.equal(400);
    const res = await owner.post(`/v1/keys/${id}/rotate`);
    expect(res.status).to.equal(201);
    expect(Date.parse(res.body.previous.expires_at)).to.equal(clock.now().getTime());
  });

  it('deletes a key: 204, then 404 for every later operation on it', async () => {
    const owner = as(org.members.owner.token);
    const id = (await owner.post('/v1/keys', { kind: 'publishable', name: 'Doomed' })).body.key.id;
    expect((await owner.delete(`/v1/keys/${id}`)).status).to.equal(204);
    expect((await owner.delete(`/v1/keys/${id}`)).status).to.equal(404);
    expect((await owner.patch(`/v1/keys/${id}`, { name: 'x' })).status).to.equal(404);
    expect((await owner.post(`/v1/keys/${id}/rotate`, {})).status).to.equal(404);
  });

  it("caps active keys at the plan's max_keys under a parallel burst; deleting or rotating frees no extra room", async () => {
    const fresh = await seedOrg(platform, 'keys-cap'); // free: 5 keys
    const owner = as(fresh.members.owner.token);
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => owner.post('/v1/keys', { kind: i % 2 ? 'secret' : 'publishable', name: `burst ${i}` })));
    const created = burst.filter((r) => r.status === 201);
    expect(created).to.have.length(5);
    const refused = burst.filter((r) => r.status !== 201);
    expect(refused.every((r) => r.status === 409 && r.body.error.code === 'conflict' && /free plan allows 5 active keys/.test(r.body.error.message))).to.equal(true);
    // The body says the limit and the count, so a dashboard can show them without parsing the message.
    expect(refused.every((r) => JSON.stringify(r.body.error.details) === JSON.stringify({ max_keys: 5, active_keys: 5 }))).to.equal(true);
    // A rotation replaces a key: the successor is active, the previous one only expiring.
    const rotated = await owner.post(`/v1/keys/${created[0]!.body.key.id}/rotate`, { expire_previous_in_seconds: 3600 });
    expect(rotated.status).to.equal(201);
    expect((await owner.post('/v1/keys', { kind: 'secret', name: 'one too many' })).status).to.equal(409);
    expect((await owner.delete(`/v1/keys/${created[1]!.body.key.id}`)).status).to.equal(204);
    expect((await owner.post('/v1/keys', { kind: 'secret', name: 'in the freed slot' })).status).to.equal(201);
    expect((await owner.post('/v1/keys', { kind: 'secret', name: 'over again' })).status).to.equal(409);
  });
});
