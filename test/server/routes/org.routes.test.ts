import { expect } from 'chai';
import request from 'supertest';
import type { Platform } from '../../../server/platform.js';
import { sharedPglite } from '../../support/databases.js';
import { addMember, createTestPlatform, seedOrg, type SeededOrg } from '../../support/platform.js';

describe('orgRoutes', () => {
  let platform: Platform;
  let org: SeededOrg;
  let other: SeededOrg;
  const api = () => request(platform.app.callback());
  const as = (token: string) => ({
    get: (path: string) => api().get(path).set('authorization', `Bearer ${token}`),
    post: (path: string, body: object) => api().post(path).set('authorization', `Bearer ${token}`).send(body),
    patch: (path: string, body: object) => api().patch(path).set('authorization', `Bearer ${token}`).send(body),
    delete: (path: string) => api().delete(path).set('authorization', `Bearer ${token}`),
  });

  before(async function () {
    this.timeout(180_000);
    platform = await createTestPlatform({ database: await sharedPglite() });
    org = await seedOrg(platform, 'org');
    other = await seedOrg(platform, 'org-other');
  });
  after(() => platform.close());

  it('shows the organization with its member count to every role', async () => {
    for (const member of Object.values(org.members)) {
      const res = await as(member.token).get('/v1/org');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ id: org.orgId, tier: 'free', member_count: 4 });
    }
  });

  it('lets owners and admins rename it, with the name cleaned up', async () => {
    const res = await as(org.members.admin.token).patch('/v1/org', { name: '  Cafe\u0301 Ltd  ' });
    expect(res.status).to.equal(200);
    expect(res.body.name).to.equal('Caf\u00e9 Ltd');
    expect((await as(org.members.developer.token).patch('/v1/org', { name: 'x' })).status).to.equal(403);
  });

  it('lists members in join order with pagination', async () => {
    const first = await as(org.members.viewer.token).get('/v1/org/members?limit=2');
    expect(first.status).to.equal(200);
    expect(first.body.data.map((m: { role: string }) => m.role)).to.deep.equal(['owner', 'admin']);
    expect(first.body.has_more).to.equal(true);
    const second = await as(org.members.viewer.token).get(`/v1/org/members?limit=2&starting_after=${first.body.data[1].user_id}`);
    expect(second.body.data.map((m: { role: string }) => m.role)).to.deep.equal(['developer', 'viewer']);
    expect(second.body.has_more).to.equal(false);
    expect(second.body.data[0]).to.have.all.keys('user_id', 'email', 'name', 'role', 'joined_at');
  });

  it('lets an admin invite non-owners but not owners; an owner may invite an owner', async () => {
    const admin = as(org.members.admin.token);
    const res = await admin.post('/v1/org/members', { email: 'New.Person@Example.test', role: 'viewer' });
    expect(res.status).to.equal(201);
    expect(res.body.invitation).to.include({ email: 'new.person@example.test', role: 'viewer' });
    expect(res.body.invitation.token).to.match(/^kit_inv_[0-9A-Za-z]{40}$/);
    expect(Date.parse(res.body.invitation.expires_at) - Date.now()).to.be.within(7 * 86400_000 - 60_000, 7 * 86400_000);
    expect((await admin.post('/v1/org/members', { email: 'boss@example.test', role: 'owner' })).status).to.equal(403);
    expect((await as(org.members.owner.token).post('/v1/org/members', { email: 'boss@example.test', role: 'owner' })).status).to.equal(201);
    expect((await admin.post('/v1/org/members', { email: org.members.viewer.email, role: 'viewer' })).status, 'already a member').to.equal(409);
  });

  it('lets an admin change roles of non-owners but never touch an owner or grant owner', async () => {
    const admin = as(org.members.admin.token);
    const target = await addMember(platform, org.orgId, 'viewer');
    const res = await admin.patch(`/v1/org/members/${target.userId}`, { role: 'developer' });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ user_id: target.userId, role: 'developer' });
    expect((await admin.patch(`/v1/org/members/${target.userId}`, { role: 'owner' })).status).to.equal(403);
    expect((await admin.patch(`/v1/org/members/${org.members.owner.userId}`, { role: 'viewer' })).status).to.equal(403);
    expect((await admin.delete(`/v1/org/members/${org.members.owner.userId}`)).status).to.equal(403);
    const role = await platform.database.knex('memberships').where({ org_id: org.orgId, user_id: org.members.owner.userId }).first('role');
    expect(role.role).to.equal('owner');
  });

  it('keeps the last owner: demoting or removing them is a conflict, until a second owner exists', async () => {
    const fresh = await seedOrg(platform, 'org-owner');
    const owner = as(fresh.members.owner.token);
    expect((await owner.patch(`/v1/org/members/${fresh.members.owner.userId}`, { role: 'admin' })).status).to.equal(409);
    expect((await owner.delete(`/v1/org/members/${fresh.members.owner.userId}`)).status).to.equal(409);
    expect((await owner.patch(`/v1/org/members/${fresh.members.admin.userId}`, { role: 'owner' })).status).to.equal(200);
    expect((await owner.patch(`/v1/org/members/${fresh.members.owner.userId}`, { role: 'admin' })).status).to.equal(200);
    // the former owner (now admin) may no longer touch the new owner
    expect((await owner.delete(`/v1/org/members/${fresh.members.admin.userId}`)).status).to.equal(403);
  });

  it('answers not_found for members of another organization, never forbidden', async () => {
    const owner = as(org.members.owner.token);
    expect((await owner.patch(`/v1/org/members/${other.members.developer.userId}`, { role: 'viewer' })).status).to.equal(404);
    expect((await as(org.members.admin.token).patch(`/v1/org/members/${other.members.developer.userId}`, { role: 'owner' })).status).to.equal(404);
    expect((await owner.delete(`/v1/org/members/${other.members.developer.userId}`)).status).to.equal(404);
    expect((await owner.get(`/v1/org/members?starting_after=${other.members.owner.userId}`)).status).to.equal(400);
    const theirs = await platform.database.knex('memberships').where({ org_id: other.orgId }).count({ n: '*' });
    expect(Number(theirs[0]!.n)).to.equal(4);
  });

  it('keeps only one owner consistent under concurrent demotions', async () => {
    const fresh = await seedOrg(platform, 'org-race');
    const second = await addMember(platform, fresh.orgId, 'owner');
    const [a, b] = await Promise.all([
      as(fresh.members.owner.token).patch(`/v1/org/members/${second.userId}`, { role: 'admin' }),
      as(second.token).patch(`/v1/org/members/${fresh.members.owner.userId}`, { role: 'admin' }),
    ]);
    const statuses = [a.status, b.status].sort();
    const owners = await platform.database.knex('memberships').where({ org_id: fresh.orgId, role: 'owner' }).count({ n: '*' });
    expect(Number(owners[0]!.n)).to.equal(1);
    // the loser is refused as the last owner (409) or, if it already lost its owner role, as an admin (403)
    expect(statuses[0]).to.equal(200);
    expect([403, 409]).to.include(statuses[1]);
  });
});
