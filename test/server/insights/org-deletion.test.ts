import { expect } from 'chai';
import type { Platform } from '../../../server/platform.js';
import { resolve } from '../../../server/tokens.js';
import type { FakeStripeServer } from '../../fakes/stripe-server.js';
import { describeOnEachDatabase } from '../../support/databases.js';
import { addMember, createTestPlatform, listen, seedOrg, type SeededOrg } from '../../support/platform.js';
import { chatBody, createKeys, openSession, streamChat, TEST_ALTCHA_ENV } from '../support/chat.js';
import { startStripe } from '../support/stripe.js';

const ORIGIN = 'https://shop.example.com';
/** Every table that holds an organisation's rows (`org_id`). */
const ORG_TABLES = [
  'memberships', 'invitations', 'api_keys', 'usage_events', 'org_meters', 'usage_daily', 'usage_daily_keys', 'usage_monthly_keys',
  'assistant_settings', 'question_logging', 'question_log', 'question_daily', 'question_groups',
  'question_day_groups', 'question_day_gap_pages', 'question_gap_pages', 'question_day_votes', 'question_daily_totals',
] as const;

describeOnEachDatabase('DELETE /org', (db) => {
  let platform: Platform;
  let server: { url: string; close(): Promise<void> };
  let stripe: FakeStripeServer;

  before(async function () {
    this.timeout(120_000);
    const billing = await startStripe();
    stripe = billing.fake;
    platform = await createTestPlatform({ database: db(), env: { ...TEST_ALTCHA_ENV, ...billing.env, KIT_QUESTION_LOG_FLUSH_MS: '20', KIT_KEY_CACHE_TTL_MS: '60000' } });
    server = await listen(platform);
  });
  after(async () => {
    await server?.close();
    await platform?.close();
    await stripe?.stop();
  });

  const call = async (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const rowsOf = async (orgId: string) => {
    const counts: Record<string, number> = {};
    for (const table of ORG_TABLES) counts[table] = Number((await db().knex(table).where({ org_id: orgId }).count<{ n: number }[]>({ n: '*' }))[0]!.n);
    counts.organizations = Number((await db().knex('organizations').where({ id: orgId }).count<{ n: number }[]>({ n: '*' }))[0]!.n);
    return counts;
  };

  /** An organisation with something in every table: keys, a logged chat with a vote, settings, an invitation, a paying customer. */
  async function populated(label: string): Promise<{ org: SeededOrg; keys: Awaited<ReturnType<typeof createKeys>>; name: string }> {
    const org = await seedOrg(platform, label);
    const keys = await createKeys(platform, org);
    const owner = org.members.owner.token;
    expect((await call('PATCH', '/org/question-logging', owner, { mode: 'redacted' }, { 'if-match': '*' })).status).to.equal(200);
    expect((await call('PATCH', '/assistant', owner, { name: 'Helper' }, { 'if-match': '*' })).status).to.equal(200);
    expect((await call('PATCH', `/keys/${keys.publishableId}/assistant`, owner, { greeting: 'Hi' }, { 'if-match': '*' })).status).to.equal(200);
    expect((await call('POST', '/org/members', owner, { email: `${label}-invitee@example.test`, role: 'viewer' })).status).to.equal(201);
    const session = await openSession(server.url, keys.publishable, ORIGIN);
    const chat = await streamChat(server.url, { authorization: `Bearer ${keys.publishable}`, 'kit-session': session, origin: ORIGIN }, chatBody(undefined, { conversation_id: `cnv_${label}` }));
    expect(chat.status).to.equal(200);
    const vote = await call('POST', '/feedback', keys.publishable, { message_id: String(chat.events[0]!.json.request_id), rating: 'down' }, { 'kit-session': session, origin: ORIGIN });
    expect(vote.status).to.equal(200);
    await resolve(platform.container, 'QuestionLogService').flush();
    await resolve(platform.container, 'UsageService').rollUp();
    const name = (await db().knex('organizations').where({ id: org.orgId }).first()).name as string;
    return { org, keys, name };
  }

  it('refuses every role but owner, and an owner who does not confirm the exact name; nothing is deleted', async () => {
    const { org, name } = await populated('del-refused');
    const before = await rowsOf(org.orgId);
    for (const role of ['admin', 'developer', 'viewer'] as const) {
      const res = await call('DELETE', '/org', org.members[role].token, { confirm_name: name });
      expect(res.status, role).to.equal(403);
      expect(res.body.error.code).to.equal('forbidden');
    }
    for (const confirm of [name.toUpperCase(), `${name} `, '']) {
      const res = await call('DELETE', '/org', org.members.owner.token, { confirm_name: confirm });
      expect(res.status, JSON.stringify(confirm)).to.equal(400);
      expect(res.body.error.message).to.include('confirm_name');
    }
    expect((await call('DELETE', '/org', org.members.owner.token)).status).to.equal(400);
    expect(await rowsOf(org.orgId)).to.deep.equal(before);
  });

  it("deletes the organization, its keys, logs, settings, usage and memberships, its Stripe customer and its members' orphaned accounts", async () => {
    const { org, keys, name } = await populated('del-all');
    const other = await populated('del-bystander');
    // A member who also belongs to the bystander organisation keeps the account; the others lose theirs.
    const shared = await addMember(platform, other.org.orgId, 'developer');
    await db().knex('memberships').insert({ org_id: org.orgId, user_id: shared.userId, role: 'viewer', joined_at: new Date() });
    await db().knex('organizations').where({ id: org.orgId }).update({ stripe_customer_id: 'cus_testdelall', tier: 'pro' });
    const before = await rowsOf(org.orgId);
    for (const table of ORG_TABLES) expect(before[table], table).to.be.greaterThan(0);
    const bystander = await rowsOf(other.org.orgId);
    // The key works, and its lookup is cached on this replica.
    expect((await fetch(`${server.url}/v1/config`, { headers: { authorization: `Bearer ${keys.publishable}`, origin: ORIGIN } })).status).to.equal(200);

    const res = await call('DELETE', '/org', org.members.owner.token, { confirm_name: name });
    expect(res.status, JSON.stringify(res.body)).to.equal(204);

    const after = await rowsOf(org.orgId);
    expect(Object.values(after).every((n) => n === 0), JSON.stringify(after)).to.equal(true);
    expect(await rowsOf(other.org.orgId)).to.deep.equal(bystander);
    expect(stripe.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).to.include('/v1/customers/cus_testdelall');
    const users = await db().knex('users').whereIn('id', [...Object.values(org.members).map((m) => m.userId), shared.userId]).select('id');
    expect(users.map((u) => u.id)).to.deep.equal([shared.userId]);
    // At once: the keys (despite the cache), the members' tokens.
    const config = await fetch(`${server.url}/v1/config`, { headers: { authorization: `Bearer ${keys.publishable}`, origin: ORIGIN } });
    expect(config.status).to.equal(401);
    expect((await call('GET', '/org', org.members.owner.token)).status).to.equal(401);
    expect((await call('GET', '/org', shared.token)).status).to.equal(200);
  });

  it('deletes nothing when Stripe cannot delete the customer, and succeeds on retry', async () => {
    const { org, name } = await populated('del-stripe');
    await db().knex('organizations').where({ id: org.orgId }).update({ stripe_customer_id: 'cus_testretry' });
    const before = await rowsOf(org.orgId);
    stripe.failStatus = 500;
    try {
      const res = await call('DELETE', '/org', org.members.owner.token, { confirm_name: name });
      expect(res.status).to.equal(503);
      expect(res.body.error.code).to.equal('billing_unavailable');
    } finally {
      stripe.failStatus = undefined;
    }
    expect(await rowsOf(org.orgId)).to.deep.equal(before);
    expect((await call('DELETE', '/org', org.members.owner.token, { confirm_name: name })).status).to.equal(204);
    expect((await rowsOf(org.orgId)).organizations).to.equal(0);
  });

  it('deletes once when two owners send it together', async () => {
    const { org, name } = await populated('del-race');
    const second = await addMember(platform, org.orgId, 'owner');
    const results = await Promise.all([org.members.owner.token, second.token, org.members.owner.token].map((t) => call('DELETE', '/org', t, { confirm_name: name })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 204)).to.have.length(1);
    // The others find no organisation, or no membership any more.
    for (const r of results.filter((x) => x.status !== 204)) expect([401, 404]).to.include(r.status);
    expect((await rowsOf(org.orgId)).organizations).to.equal(0);
  });
});
