import { expect } from 'chai';
import { KEY_PREFIXES } from '../../core/keys/key-format.js';
import type { MemberAuth } from '../../server/auth/auth-context.js';
import type { Platform } from '../../server/platform.js';
import { resolve } from '../../server/tokens.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { createResponseValidator } from '../support/openapi-validator.js';
import { addMember, createTestPlatform, listen, seedOrg, SEED_PASSWORD, type SeededOrg } from '../support/platform.js';
import { createAltchaSolver } from '../../adapters/remote/altcha-solver.js';
import type { FakeStripeServer } from '../fakes/stripe-server.js';
import { chatBody, openSession, TEST_ALTCHA_ENV } from './support/chat.js';
import { signedEvent, startStripe, stripeEvent } from './support/stripe.js';

const PRINCIPALS = ['anonymous', 'publishable', 'secret', 'owner', 'admin', 'developer', 'viewer', 'other_org'] as const;
type Principal = (typeof PRINCIPALS)[number];
type Expected = Readonly<Record<Principal, number>>;

/** Statuses of a route taking API keys of `kinds` (a dashboard token there is the wrong credential kind). */
function key(kinds: readonly ('publishable' | 'secret')[], ok: number): Expected {
  return { anonymous: 401, publishable: kinds.includes('publishable') ? ok : 403, secret: kinds.includes('secret') ? ok : 403, owner: 403, admin: 403, developer: 403, viewer: 403, other_org: 403 };
}

/** Statuses of a JWT route: `ok` for roles in `roles` (and for another org's owner acting on its own org when `ownOrg`). */
function jwt(roles: readonly string[], ok: number, other: number): Expected {
  const role = (r: string) => (roles.includes(r) ? ok : 403);
  return { anonymous: 401, publishable: 403, secret: 403, owner: role('owner'), admin: role('admin'), developer: role('developer'), viewer: role('viewer'), other_org: other };
}
const open = (status: number): Expected => Object.fromEntries(PRINCIPALS.map((p) => [p, status])) as unknown as Expected;

interface Cell {
  readonly url: string;
  readonly body?: object;
  /** The raw body to send instead of `body` (signed webhooks). */
  readonly raw?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Checked after a refused request: the target must be as before. */
  readonly unchanged?: () => Promise<void>;
}

interface RouteCase {
  readonly method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI path (under /v1), or null for the operational endpoints outside the API. */
  readonly template: string | null;
  readonly expected: Expected;
  prepare(principal: Principal, n: number): Promise<Cell>;
}

describeOnEachDatabase('authorization matrix', (db) => {
  let platform: Platform;
  let server: { url: string; close(): Promise<void> };
  let org: SeededOrg;
  let other: SeededOrg;
  let credentials: Record<Principal, string | null>;
  let validate: ReturnType<typeof createResponseValidator>;
  let cells = 0;
  let stripe: FakeStripeServer;

  before(async function () {
    this.timeout(120_000);
    const billing = await startStripe();
    stripe = billing.fake;
    platform = await createTestPlatform({ database: db(), env: { ...TEST_ALTCHA_ENV, ...billing.env, KIT_PLAN_LIMITS: JSON.stringify({ free: { max_keys: 10_000 } }) } }); // every cell makes its own key
    server = await listen(platform);
    org = await seedOrg(platform, 'matrix');
    other = await seedOrg(platform, 'matrix-other');
    const owner = ownerAuth();
    const keys = resolve(platform.container, 'KeyService');
    const pub = await keys.create(owner, 'publishable', { name: 'matrix pub' });
    const sec = await keys.create(owner, 'secret', { name: 'matrix sec' });
    if (!pub.ok || !sec.ok) throw new Error('keys');
    credentials = {
      anonymous: null,
      publishable: pub.value.secret,
      secret: sec.value.secret,
      owner: org.members.owner.token,
      admin: org.members.admin.token,
      developer: org.members.developer.token,
      viewer: org.members.viewer.token,
      other_org: other.members.owner.token,
    };
    validate = createResponseValidator(await (await fetch(`${server.url}/v1/openapi.json`)).json());
  });
  after(async () => {
    await server.close();
    await platform.close();
    await stripe.stop();
    // Reported figure: routes × principals on this database.
    console.log(`      authorization matrix: ${cells} cells`);
  });

  const ownerAuth = (): MemberAuth => ({ kind: 'member', userId: org.members.owner.userId, orgId: org.orgId, role: 'owner' });
  async function freshKey(): Promise<{ id: string; unchanged: () => Promise<void> }> {
    const created = await resolve(platform.container, 'KeyService').create(ownerAuth(), 'secret', { name: 'target' });
    if (!created.ok) throw new Error(created.reason);
    const id = created.value.key.id;
    return {
      id,
      unchanged: async () => {
        const row = await db().knex('api_keys').where({ id }).first();
        expect(row).to.include({ name: 'target', revoked_at: null, expires_at: null });
      },
    };
  }
  async function freshMember(): Promise<{ userId: string; unchanged: () => Promise<void> }> {
    const member = await addMember(platform, org.orgId, 'developer');
    return {
      userId: member.userId,
      unchanged: async () => {
        const row = await db().knex('memberships').where({ org_id: org.orgId, user_id: member.userId }).first();
        expect(row?.role).to.equal('developer');
      },
    };
  }
  const orgName = async () => (await db().knex('organizations').where({ id: org.orgId }).first()).name as string;

  /** A solved ALTCHA challenge of the matrix's publishable key (what a browser posts to /session). */
  async function solvedChallenge(): Promise<object> {
    const config = await (await fetch(`${server.url}/v1/config`, { headers: { authorization: `Bearer ${credentials.publishable}` } })).json();
    return { provider: 'altcha', solution: await createAltchaSolver({ worker: false })(config.bot_challenge.challenge) };
  }

  /** A logged conversation of the matrix's organisation, for the routes that read or delete one. */
  async function loggedConversation(label: string): Promise<{ id: string; questionId: string; unchanged: () => Promise<void> }> {
    const conversationId = `cnv_${label}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const questionId = `qst_${Math.random().toString(36).slice(2, 14)}x${Date.now()}`;
    await db().knex('question_log').insert({
      id: questionId, org_id: org.orgId, message_id: `msg_${questionId.slice(4)}`, conversation_id: conversationId, created_at: new Date(),
      mode: 'local', outcome: 'answered', question: 'How much is shipping?', question_hash: 'matrixhash', source: 'sdk',
    });
    return {
      id: conversationId,
      questionId,
      unchanged: async () => {
        expect(await db().knex('question_log').where({ org_id: org.orgId, conversation_id: conversationId })).to.have.length(1);
      },
    };
  }
  const settingsVersion = async (scope: string) => ((await db().knex('assistant_settings').where({ org_id: org.orgId, scope }).first())?.version ?? 0) as number;
  const loggingVersion = async () => ((await db().knex('question_logging').where({ org_id: org.orgId }).first())?.version ?? 0) as number;

  const ROUTES: readonly RouteCase[] = [
    { method: 'get', template: null, expected: open(200), prepare: async () => ({ url: '/healthz' }) },
    { method: 'get', template: null, expected: open(200), prepare: async () => ({ url: '/readyz' }) },
    { method: 'get', template: '/openapi.json', expected: open(200), prepare: async () => ({ url: '/v1/openapi.json' }) },
    {
      method: 'post',
      template: '/auth/signup',
      expected: open(201),
      prepare: async (p, n) => ({ url: '/v1/auth/signup', body: { email: `matrix-signup-${p}-${n}-${Date.now()}@example.test`, password: 'matrix password' } }),
    },
    { method: 'post', template: '/auth/login', expected: open(200), prepare: async () => ({ url: '/v1/auth/login', body: { email: org.members.viewer.email, password: SEED_PASSWORD } }) },
    { method: 'get', template: '/keys', expected: jwt(['owner', 'admin', 'developer'], 200, 200), prepare: async () => ({ url: '/v1/keys' }) },
    { method: 'post', template: '/keys', expected: jwt(['owner', 'admin', 'developer'], 201, 201), prepare: async () => ({ url: '/v1/keys', body: { kind: 'publishable', name: 'matrix' } }) },
    {
      method: 'patch',
      template: '/keys/{id}',
      expected: jwt(['owner', 'admin', 'developer'], 200, 404),
      prepare: async () => {
        const key = await freshKey();
        return { url: `/v1/keys/${key.id}`, body: { name: 'renamed' }, unchanged: key.unchanged };
      },
    },
    {
      method: 'post',
      template: '/keys/{id}/rotate',
      expected: jwt(['owner', 'admin', 'developer'], 201, 404),
      prepare: async () => {
        const key = await freshKey();
        return { url: `/v1/keys/${key.id}/rotate`, body: { expire_previous_in_seconds: 60 }, unchanged: key.unchanged };
      },
    },
    {
      method: 'delete',
      template: '/keys/{id}',
      expected: jwt(['owner', 'admin', 'developer'], 204, 404),
      prepare: async () => {
        const key = await freshKey();
        return { url: `/v1/keys/${key.id}`, unchanged: key.unchanged };
      },
    },
    { method: 'get', template: '/usage', expected: jwt(['owner', 'admin', 'developer', 'viewer'], 200, 200), prepare: async () => ({ url: '/v1/usage' }) },
    { method: 'get', template: '/org', expected: jwt(['owner', 'admin', 'developer', 'viewer'], 200, 200), prepare: async () => ({ url: '/v1/org' }) },
    {
      method: 'patch',
      template: '/org',
      expected: jwt(['owner', 'admin'], 200, 200),
      prepare: async () => {
        const before = await orgName();
        return { url: '/v1/org', body: { name: 'matrix org' }, unchanged: async () => {
            expect(await orgName()).to.equal(before);
          },
        };
      },
    },
    { method: 'get', template: '/org/members', expected: jwt(['owner', 'admin', 'developer', 'viewer'], 200, 200), prepare: async () => ({ url: '/v1/org/members' }) },
    {
      method: 'post',
      template: '/org/members',
      expected: jwt(['owner', 'admin'], 201, 201),
      prepare: async (p, n) => ({ url: '/v1/org/members', body: { email: `matrix-invite-${p}-${n}@example.test`, role: 'viewer' } }),
    },
    {
      method: 'patch',
      template: '/org/members/{user_id}',
      expected: jwt(['owner', 'admin'], 200, 404),
      prepare: async () => {
        const member = await freshMember();
        return { url: `/v1/org/members/${member.userId}`, body: { role: 'viewer' }, unchanged: member.unchanged };
      },
    },
    {
      method: 'delete',
      template: '/org/members/{user_id}',
      expected: jwt(['owner', 'admin'], 204, 404),
      prepare: async () => {
        const member = await freshMember();
        return { url: `/v1/org/members/${member.userId}`, unchanged: member.unchanged };
      },
    },
    // Issue 14 (console). POST /org/leave is left out: each principal leaving would change the seeded organisation
    // for the routes after it (test/server/routes/console.routes.test.ts covers it).
    { method: 'get', template: '/org/invitations', expected: jwt(['owner', 'admin', 'developer', 'viewer'], 200, 200), prepare: async () => ({ url: '/v1/org/invitations' }) },
    {
      method: 'delete',
      template: '/org/invitations/{id}',
      expected: jwt(['owner', 'admin'], 204, 404),
      prepare: async (p, n) => {
        const id = `inv_matrix${n}${Date.now()}`;
        await db().knex('invitations').insert({ id, org_id: org.orgId, email: `matrix-${p}-${n}@example.test`, role: 'viewer', token_hash: `${id}-hash`, invited_by: null, expires_at: new Date(Date.now() + 86_400_000), created_at: new Date() });
        return { url: `/v1/org/invitations/${id}`, unchanged: async () => { expect(await db().knex('invitations').where({ id }).first()).to.not.equal(undefined); } };
      },
    },
    {
      method: 'post',
      template: '/keys/{id}/preview',
      expected: jwt(['owner', 'admin', 'developer'], 201, 404),
      prepare: async () => {
        const created = await resolve(platform.container, 'KeyService').create(ownerAuth(), 'publishable', { name: 'preview' });
        if (!created.ok) throw new Error(created.reason);
        return { url: `/v1/keys/${created.value.key.id}/preview` };
      },
    },
    // No Stripe customer yet: the roles that may open the portal get 409, the others 403.
    { method: 'post', template: '/billing/portal', expected: jwt(['owner', 'admin'], 409, 409), prepare: async () => ({ url: '/v1/billing/portal', body: { return_url: 'https://example.test/back' } }) },
    { method: 'get', template: '/config', expected: key(['publishable', 'secret'], 200), prepare: async () => ({ url: '/v1/config' }) },
    { method: 'post', template: '/session', expected: key(['publishable'], 201), prepare: async () => ({ url: '/v1/session', body: await solvedChallenge() }) },
    {
      method: 'post',
      template: '/chat',
      expected: key(['publishable', 'secret'], 200),
      prepare: async (p) => ({
        url: '/v1/chat',
        body: chatBody(undefined, { stream: false }),
        ...(p === 'publishable' ? { headers: { 'kit-session': await openSession(server.url, credentials.publishable!, null) } } : {}),
      }),
    },
    { method: 'get', template: '/assistant', expected: jwt(['owner', 'admin', 'developer', 'viewer'], 200, 200), prepare: async () => ({ url: '/v1/assistant' }) },
    {
      method: 'patch',
      template: '/assistant',
      expected: jwt(['owner', 'admin', 'developer'], 200, 200),
      prepare: async () => {
        const before = await settingsVersion('*');
        return { url: '/v1/assistant', body: { greeting: 'Hi!' }, headers: { 'if-match': '*' }, unchanged: async () => { expect(await settingsVersion('*')).to.equal(before); } };
      },
    },
    {
      method: 'get',
      template: '/keys/{id}/assistant',
      expected: jwt(['owner', 'admin', 'developer', 'viewer'], 200, 404),
      prepare: async () => ({ url: `/v1/keys/${(await freshKey()).id}/assistant` }),
    },
    {
      method: 'patch',
      template: '/keys/{id}/assistant',
      expected: jwt(['owner', 'admin', 'developer'], 200, 404),
      prepare: async () => {
        const key = await freshKey();
        return { url: `/v1/keys/${key.id}/assistant`, body: { name: 'Key bot' }, headers: { 'if-match': '"0"' }, unchanged: async () => { expect(await settingsVersion(key.id)).to.equal(0); } };
      },
    },
    {
      method: 'delete',
      template: '/keys/{id}/assistant',
      expected: jwt(['owner', 'admin', 'developer'], 204, 404),
      prepare: async () => {
        const key = await freshKey();
        await db().knex('assistant_settings').insert({ org_id: org.orgId, scope: key.id, key_id: key.id, settings: JSON.stringify({ name: 'x' }), version: 1, updated_at: new Date() });
        return { url: `/v1/keys/${key.id}/assistant`, unchanged: async () => { expect(await settingsVersion(key.id)).to.equal(1); } };
      },
    },
    { method: 'get', template: '/org/question-logging', expected: jwt(['owner', 'admin', 'developer', 'viewer'], 200, 200), prepare: async () => ({ url: '/v1/org/question-logging' }) },
    {
      method: 'patch',
      template: '/org/question-logging',
      expected: jwt(['owner', 'admin'], 200, 200),
      prepare: async () => {
        const before = await loggingVersion();
        return { url: '/v1/org/question-logging', body: { retention_days: 30 }, headers: { 'if-match': '*' }, unchanged: async () => { expect(await loggingVersion()).to.equal(before); } };
      },
    },
    { method: 'get', template: '/questions', expected: jwt(['owner', 'admin', 'developer', 'viewer'], 200, 200), prepare: async () => ({ url: '/v1/questions' }) },
    { method: 'get', template: '/questions/export', expected: jwt(['owner', 'admin', 'developer', 'viewer'], 200, 200), prepare: async () => ({ url: '/v1/questions/export' }) },
    {
      method: 'get',
      template: '/questions/{id}',
      expected: jwt(['owner', 'admin', 'developer', 'viewer'], 200, 404),
      prepare: async (p) => ({ url: `/v1/questions/${(await loggedConversation(p)).questionId}` }),
    },
    {
      method: 'get',
      template: '/conversations/{id}',
      expected: jwt(['owner', 'admin', 'developer', 'viewer'], 200, 404),
      prepare: async (p) => ({ url: `/v1/conversations/${(await loggedConversation(p)).id}` }),
    },
    {
      method: 'delete',
      template: '/conversations/{id}',
      expected: jwt(['owner', 'admin', 'developer'], 204, 404),
      prepare: async (p) => {
        const c = await loggedConversation(p);
        return { url: `/v1/conversations/${c.id}`, unchanged: c.unchanged };
      },
    },
    { method: 'get', template: '/insights/top-questions', expected: jwt(['owner', 'admin', 'developer', 'viewer'], 200, 200), prepare: async () => ({ url: '/v1/insights/top-questions' }) },
    { method: 'get', template: '/insights/coverage-gaps', expected: jwt(['owner', 'admin', 'developer', 'viewer'], 200, 200), prepare: async () => ({ url: '/v1/insights/coverage-gaps' }) },
    { method: 'get', template: '/insights/daily', expected: jwt(['owner', 'admin', 'developer', 'viewer'], 200, 200), prepare: async () => ({ url: '/v1/insights/daily' }) },
    { method: 'get', template: '/org/export', expected: jwt(['owner', 'admin'], 200, 200), prepare: async () => ({ url: '/v1/org/export' }) },
    {
      method: 'delete',
      template: '/org',
      // Each cell acts on a throw-away organisation (with the principal's role in it): a success deletes it.
      // other_org is that organisation's owner deleting its own; API keys and no credential never reach one.
      expected: jwt(['owner'], 204, 204),
      prepare: async (p, n) => {
        const target = await seedOrg(platform, `matrix-delete-${p}-${n}`);
        const name = (await db().knex('organizations').where({ id: target.orgId }).first()).name as string;
        const token = p === 'other_org' ? target.members.owner.token : p in target.members ? target.members[p as keyof SeededOrg['members']].token : null;
        return {
          url: '/v1/org',
          body: { confirm_name: name },
          ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
          unchanged: async () => {
            expect(await db().knex('organizations').where({ id: target.orgId })).to.have.length(1);
            expect(await db().knex('organizations').where({ id: org.orgId })).to.have.length(1);
          },
        };
      },
    },
    {
      method: 'post',
      template: '/feedback',
      expected: key(['publishable'], 200),
      prepare: async (p, n) => ({
        url: '/v1/feedback',
        body: { message_id: `msg_matrix${n}x${Date.now()}`, rating: 'up' },
        ...(p === 'publishable' ? { headers: { 'kit-session': await openSession(server.url, credentials.publishable!, null) } } : {}),
      }),
    },
    {
      method: 'post',
      template: '/beacon',
      // The key travels in the body (sendBeacon sends no headers): whatever the Authorization header, the body decides.
      expected: open(202),
      prepare: async () => ({
        url: '/v1/beacon',
        body: { key: credentials.publishable, session: await openSession(server.url, credentials.publishable!, null), counts: [{ mode: 'local', outcome: 'answered', count: 1 }] },
      }),
    },
    {
      method: 'post',
      template: '/billing/checkout',
      expected: jwt(['owner', 'admin'], 201, 201),
      prepare: async () => ({ url: '/v1/billing/checkout', body: { plan: 'pro', success_url: 'https://app.example.com/ok', cancel_url: 'https://app.example.com/no' } }),
    },
    {
      method: 'post',
      template: '/billing/webhook',
      expected: open(200),
      prepare: async (p, n) => {
        const { body, signature } = signedEvent(stripeEvent(`evt_matrix_${p}_${n}_${Date.now()}`, 'invoice.paid', { id: 'in_matrix', object: 'invoice' }));
        return { url: '/v1/billing/webhook', raw: body, headers: { 'stripe-signature': signature } };
      },
    },
  ];

  for (const route of ROUTES) {
    const label = `${route.method.toUpperCase()} ${route.template === null ? '' : '/v1'}${route.template ?? (route.method === 'get' ? '(health)' : '')}`;
    it(`answers ${label} for every principal exactly as the contract says`, async function () {
      this.timeout(60_000);
      const mismatches: string[] = [];
      for (const [n, principal] of PRINCIPALS.entries()) {
        const cell = await route.prepare(principal, n);
        const token = credentials[principal];
        const payload = cell.raw ?? (cell.body ? JSON.stringify(cell.body) : undefined);
        const res = await fetch(`${server.url}${cell.url}`, {
          method: route.method.toUpperCase(),
          headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(payload ? { 'content-type': 'application/json' } : {}), ...cell.headers },
          ...(payload ? { body: payload } : {}),
        });
        const text = await res.text();
        const json = /^application\/json/.test(res.headers.get('content-type') ?? '');
        const body = text === '' || !json ? undefined : JSON.parse(text);
        cells++;
        if (res.status !== route.expected[principal]) mismatches.push(`${principal}: ${res.status} ${text.slice(0, 160)} (expected ${route.expected[principal]})`);
        expect(res.headers.get('request-id'), `${principal} Request-Id`).to.match(/^req_/);
        if (route.template !== null && (json || text === '')) {
          const problem = validate(route.method, route.template, res.status, body);
          if (problem) mismatches.push(`${principal}: ${problem}`);
        }
        if (res.status >= 400) {
          expect(body.error.request_id).to.equal(res.headers.get('request-id'));
          await cell.unchanged?.();
        }
        if (principal === 'other_org' && route.expected.anonymous === 401 && res.status < 300 && body && typeof body === 'object') {
          // acting on its own organisation, never ours
          expect(JSON.stringify(body)).to.not.include(org.orgId);
        }
      }
      expect(mismatches, mismatches.join('\n')).to.deep.equal([]);
    });
  }

  it('refuses a key-shaped credential with a wrong checksum on every JWT route with invalid_api_key', async () => {
    const body = KEY_PREFIXES.secret + 'A'.repeat(32);
    const bad = body + 'ZZZZZZ';
    for (const route of ROUTES.filter((r) => r.template && !['/openapi.json', '/auth/signup', '/auth/login', '/billing/webhook', '/beacon'].includes(r.template))) {
      const cell = await route.prepare('anonymous', 99);
      const res = await fetch(`${server.url}${cell.url}`, { method: route.method.toUpperCase(), headers: { authorization: `Bearer ${bad}`, 'content-type': 'application/json' }, ...(cell.body ? { body: JSON.stringify(cell.body) } : {}) });
      expect(res.status, `${route.method} ${route.template}`).to.equal(401);
      expect((await res.json()).error.code).to.equal('invalid_api_key');
      await cell.unchanged?.();
    }
  });
});
