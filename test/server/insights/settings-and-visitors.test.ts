import { expect } from 'chai';
import type { Platform } from '../../../server/platform.js';
import { resolve } from '../../../server/tokens.js';
import { describeOnEachDatabase } from '../../support/databases.js';
import { createTestPlatform, listen, seedOrg, type SeededOrg } from '../../support/platform.js';
import { createKeys, openSession, TEST_ALTCHA_ENV } from '../support/chat.js';

const ORIGIN = 'https://shop.example.com';

describeOnEachDatabase('assistant settings, beacon and feedback', (db) => {
  let platform: Platform;
  let server: { url: string; close(): Promise<void> };
  let org: SeededOrg;
  let keys: Awaited<ReturnType<typeof createKeys>>;

  before(async function () {
    this.timeout(120_000);
    platform = await createTestPlatform({ database: db(), env: { ...TEST_ALTCHA_ENV, KIT_SETTINGS_CACHE_TTL_MS: '0', KIT_FEEDBACK_PER_SESSION_PER_MINUTE: '5', KIT_BEACONS_PER_IP_PER_MINUTE: '5', KIT_TRUST_PROXY: '1', KIT_PLAN_LIMITS: JSON.stringify({ pro: { requests_per_minute: 2 } }) } });
    server = await listen(platform);
    org = await seedOrg(platform, 'settings');
    keys = await createKeys(platform, org);
  });
  after(async () => {
    await server.close();
    await platform.close();
  });

  const call = async (method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/v1${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  const owner = () => org.members.owner.token;
  const refusedCounts = async () =>
    Number((await db().knex('question_daily').where({ org_id: org.orgId, mode: 'remote', outcome: 'refused' }).sum<{ n: number }[]>({ n: 'questions' }))[0]!.n ?? 0);
  const config = async () => (await call('GET', '/config', keys.publishable, undefined, { origin: ORIGIN })).body;

  it('delivers defaults in /config, then the saved settings, with ETag versions that refuse a stale or missing If-Match', async () => {
    const fresh = await config();
    expect(fresh.assistant).to.deep.include({ name: null, starter_questions: [], language: 'auto', placement: 'launcher', logging: { mode: 'off', notice: null } });
    const read = await call('GET', '/assistant', org.members.viewer.token);
    expect(read.headers.get('etag')).to.equal('"0"');
    expect((await call('PATCH', '/assistant', owner(), { name: 'Acme Help' })).status).to.equal(428);
    const first = await call('PATCH', '/assistant', owner(), { name: 'Acme Help', starter_questions: ['How much is shipping?'], theme: { accent: '#0B5' } }, { 'if-match': '"0"' });
    expect(first.status).to.equal(200);
    expect(first.headers.get('etag')).to.equal('"1"');
    expect(first.body.theme.accent).to.equal('#00bb55');
    // A second editor still holding version 0 cannot overwrite the first's change.
    const stale = await call('PATCH', '/assistant', org.members.developer.token, { name: 'Other' }, { 'if-match': '"0"' });
    expect(stale.status).to.equal(412);
    expect(stale.body.error.code).to.equal('precondition_failed');
    const after = await config();
    expect(after.assistant).to.deep.include({ name: 'Acme Help', starter_questions: ['How much is shipping?'] });
    expect(after.assistant.theme.accent).to.equal('#00bb55');
  });

  it('lets exactly one of two editors with the same ETag win when they save together', async () => {
    const etag = (await call('GET', '/assistant', owner())).headers.get('etag')!;
    const results = await Promise.all(['A', 'B', 'C', 'D'].map((g) => call('PATCH', '/assistant', owner(), { greeting: `Hi ${g}` }, { 'if-match': etag })));
    expect(results.map((r) => r.status).sort()).to.deep.equal([200, 412, 412, 412]);
  });

  it('refuses bad settings with invalid_request naming the field', async () => {
    const bad: Array<[unknown, string]> = [
      [{ theme: { accent: 'red' } }, 'theme.accent'],
      [{ theme: { logo_url: 'http://cdn.example.com/logo.png' } }, 'theme.logo_url'],
      [{ contact_url: 'javascript:alert(1)' }, 'contact_url'],
      [{ starter_questions: ['1', '2', '3', '4', '5', '6', '7'] }, 'starter_questions'],
      [{ name: 'x'.repeat(61) }, 'name'],
      [{ instructions: 'y'.repeat(2001) }, 'instructions'],
      [{ greeting: 'bad\u0000text' }, 'greeting'],
      [{ language: 'tlh' }, 'language'],
      [{ unknown_field: true }, ''],
    ];
    for (const [body, field] of bad) {
      const res = await call('PATCH', '/assistant', owner(), body, { 'if-match': '*' });
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_request');
      expect(res.body.error.message).to.include(field);
    }
    expect((await call('PATCH', '/assistant', owner(), { contact_url: 'mailto:help@example.com' }, { 'if-match': '*' })).status).to.equal(200);
  });

  it("applies a key's overrides over the organization's, copies them to a rotated key, and deletes them with the key", async () => {
    const patched = await call('PATCH', `/keys/${keys.publishableId}/assistant`, owner(), { name: 'Docs bot', placement: 'sidebar' }, { 'if-match': '"0"' });
    expect(patched.status).to.equal(200);
    expect(patched.body.overrides).to.deep.equal({ name: 'Docs bot', placement: 'sidebar' });
    expect(patched.body.effective).to.deep.include({ name: 'Docs bot', placement: 'sidebar', contact_url: 'mailto:help@example.com' });
    expect((await config()).assistant).to.deep.include({ name: 'Docs bot', placement: 'sidebar' });
    const inherit = await call('PATCH', `/keys/${keys.publishableId}/assistant`, owner(), { name: null }, { 'if-match': '"1"' });
    expect(inherit.body.overrides).to.deep.equal({ placement: 'sidebar' });
    expect(inherit.body.effective.name).to.equal('Acme Help');
    const rotated = await call('POST', `/keys/${keys.publishableId}/rotate`, owner(), { expire_previous_in_seconds: 60 });
    expect(rotated.status).to.equal(201);
    const successor = await call('GET', `/keys/${rotated.body.key.id}/assistant`, owner());
    expect(successor.body.overrides).to.deep.equal({ placement: 'sidebar' });
    expect((await call('DELETE', `/keys/${rotated.body.key.id}`, owner())).status).to.equal(204);
    expect(await db().knex('assistant_settings').where({ scope: rotated.body.key.id })).to.have.length(0);
  });

  it("stores only counts from a beacon while logging is off, even when it carries text; with logging on, masked text", async () => {
    const session = await openSession(server.url, keys.publishable, ORIGIN);
    const item = (n: number) => ({
      message_id: `msg_beacon${n}x${Date.now()}`,
      conversation_id: 'cnv_beacon',
      asked_at: new Date().toISOString(),
      page_url: 'https://shop.example.com/faq?token=abc',
      mode: 'local',
      model: 'Qwen2.5-0.5B',
      outcome: n % 2 ? 'refused' : 'answered',
      question: `Where is my order? write to jane.doe@example.org (${n})`,
      answer: 'On its way.',
      citations: [{ url: 'https://shop.example.com/faq', title: 'FAQ' }],
      latency_ms: 120,
    });
    // text/plain, as navigator.sendBeacon sends it (no CORS preflight).
    const off = await call('POST', '/beacon', null, JSON.stringify({ key: keys.publishable, session, items: [item(1), item(2)] }), { 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN });
    expect(off.status).to.equal(202);
    await resolve(platform.container, 'QuestionLogService').flush();
    expect(await db().knex('question_log').where({ org_id: org.orgId }).whereNotNull('question')).to.have.length(0);
    const counts = await db().knex('question_daily').where({ org_id: org.orgId, mode: 'local' });
    expect(counts.map((c) => [c.page, c.outcome, c.questions]).sort()).to.deep.equal([['https://shop.example.com/faq', 'answered', 1], ['https://shop.example.com/faq', 'refused', 1]]);

    await call('PATCH', '/org/question-logging', owner(), { mode: 'full' }, { 'if-match': '*' });
    expect((await config()).assistant.logging).to.deep.equal({ mode: 'full', notice: null });
    const on = await call('POST', '/beacon', null, { key: keys.publishable, session, items: [item(3)] }, { origin: ORIGIN });
    expect(on.status).to.equal(202);
    await resolve(platform.container, 'QuestionLogService').flush();
    const rows = await db().knex('question_log').where({ org_id: org.orgId }).whereNotNull('question');
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ mode: 'local', outcome: 'refused', answer: 'On its way.', page_url: 'https://shop.example.com/faq', source: 'sdk', conversation_id: 'cnv_beacon' });
    expect(rows[0].question).to.not.include('jane.doe@example.org');
  });

  it('takes not_found from a beacon (the device\'s engine found nothing on the page): stored, counted, and a coverage gap', async () => {
    // An organisation of its own: the beacon limits of the key above are spent by the other tests.
    const own = await seedOrg(platform, 'beacon-not-found');
    const ownKeys = await createKeys(platform, own);
    const session = await openSession(server.url, ownKeys.publishable, ORIGIN);
    await call('PATCH', '/org/question-logging', own.members.owner.token, { mode: 'redacted' }, { 'if-match': '*' });
    const item = (n: number, extra: Record<string, unknown> = {}) => ({
      message_id: `msg_notfound${n}x${Date.now()}`, conversation_id: 'cnv_nf', asked_at: new Date().toISOString(), page_url: 'https://shop.example.com/returns',
      mode: 'extractive', model: 'extractive', outcome: 'not_found', question: 'Can I return a gift card?', answer: "I couldn't find that on this page.", latency_ms: 40, ...extra,
    });
    // A not-found answer never comes from the service through the beacon: /chat logs its own.
    const remote = await call('POST', '/beacon', null, { key: ownKeys.publishable, session, items: [item(0, { mode: 'remote' })] }, { origin: ORIGIN });
    expect(remote.status).to.equal(400);
    const items = await call('POST', '/beacon', null, { key: ownKeys.publishable, session, items: [item(1), item(2, { mode: 'local', model: 'Qwen2.5-0.5B' })] }, { origin: ORIGIN });
    expect(items.status, JSON.stringify(items.body)).to.equal(202);
    const counts = await call('POST', '/beacon', null, JSON.stringify({ key: ownKeys.publishable, counts: [{ page_url: 'https://shop.example.com/returns', mode: 'extractive', outcome: 'not_found', count: 3 }] }), {
      'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN,
    });
    expect(counts.status, JSON.stringify(counts.body)).to.equal(202);
    await resolve(platform.container, 'QuestionLogService').flush();
    const rows = await db().knex('question_log').where({ org_id: own.orgId }).whereNotNull('question').orderBy('mode');
    expect(rows.map((r) => [r.mode, r.outcome, r.source])).to.deep.equal([['extractive', 'not_found', 'sdk'], ['local', 'not_found', 'sdk']]);
    const daily = await db().knex('question_daily').where({ org_id: own.orgId }).orderBy('mode');
    expect(daily.map((c) => [c.mode, c.outcome, c.questions])).to.deep.equal([['extractive', 'not_found', 4], ['local', 'not_found', 1]]);
    const gaps = await call('GET', '/insights/coverage-gaps', own.members.viewer.token);
    expect(gaps.body.data).to.have.length(1);
    expect(gaps.body.data[0]).to.deep.include({ question: 'Can I return a gift card?', count: 2, not_found: 2, refused: 0, pages: [{ url: 'https://shop.example.com/returns', count: 2 }] });
  });

  it('refuses bad beacons with contract errors', async () => {
    const session = await openSession(server.url, keys.publishable, ORIGIN);
    const item = { message_id: 'msg_badbeacon1', asked_at: new Date().toISOString(), mode: 'local', outcome: 'answered', question: 'q' };
    const cases: Array<[unknown, number, string, Record<string, string>?]> = [
      [{ key: 'kit_pub_nope', session, counts: [] }, 401, 'invalid_api_key'],
      [{ key: keys.secret, session, counts: [] }, 403, 'forbidden'],
      [{ key: keys.publishable, session: 'kit_ses_forged.abc', items: [item] }, 401, 'session_required'],
      // Text needs a session the page already holds; counts alone do not.
      [{ key: keys.publishable, items: [item] }, 401, 'session_required'],
      [{ key: keys.publishable, counts: [{ mode: 'local', outcome: 'answered', count: 30 }, { mode: 'local', outcome: 'refused', count: 21 }] }, 400, 'invalid_request'],
      [{ key: keys.publishable, session, counts: [] }, 403, 'origin_not_allowed', { origin: 'https://evil.example' }],
      [{ key: keys.publishable, session, items: [{ message_id: 'req_abcdefgh', asked_at: new Date().toISOString(), mode: 'remote', outcome: 'answered', question: 'q' }] }, 400, 'invalid_request'],
      [{ key: keys.publishable, session, counts: Array.from({ length: 51 }, () => ({ mode: 'local', outcome: 'answered', count: 1 })) }, 400, 'invalid_request'],
      [{ key: keys.publishable, session, items: [{ message_id: 'msg_abcdefgh', asked_at: 'yesterday', mode: 'local', outcome: 'answered', question: 'q' }] }, 400, 'invalid_request'],
      [{ key: keys.publishable, session, items: [], padding: 'x'.repeat(70_000) }, 413, 'payload_too_large'],
    ];
    for (const [body, status, code, headers] of cases) {
      const res = await call('POST', '/beacon', null, body, { origin: ORIGIN, ...headers });
      expect(res.status, `${code}: ${JSON.stringify(res.body)}`).to.equal(status);
      expect(res.body.error.code).to.equal(code);
    }
    const xml = await call('POST', '/beacon', null, '<beacon/>', { 'content-type': 'application/xml', origin: ORIGIN });
    expect(xml.status).to.equal(415);
  });

  it('takes counts with the key and origin alone, limited per client address under a parallel burst', async () => {
    const beacon = (ip: string) =>
      call('POST', '/beacon', null, JSON.stringify({ key: keys.publishable, counts: [{ page_url: 'https://shop.example.com/faq', mode: 'remote', outcome: 'refused', count: 1 }] }), {
        'content-type': 'text/plain;charset=UTF-8',
        origin: ORIGIN,
        'x-forwarded-for': ip,
      });
    const before = await refusedCounts();
    const burst = await Promise.all(Array.from({ length: 12 }, () => beacon('198.51.100.7')));
    expect(burst.map((r) => r.status).sort()).to.deep.equal([...Array(5).fill(202), ...Array(7).fill(429)]);
    expect(burst.find((r) => r.status === 429)!.body.error.code).to.equal('rate_limited');
    // Another address has its own window; the counters hold a keyed hash of the address, never the address.
    expect((await beacon('198.51.100.8')).status).to.equal(202);
    const buckets = (await db().knex('rate_limits').where('bucket', 'like', 'beacon:ip:%').select('bucket')).map((r) => r.bucket as string);
    expect(buckets.length).to.be.greaterThan(1);
    expect(buckets.join(' ')).to.not.include('198.51.100');
    await resolve(platform.container, 'QuestionLogService').flush();
    expect((await refusedCounts()) - before).to.equal(6);
    // No text without a session, whatever the organisation logs.
    expect(await db().knex('question_log').where({ org_id: org.orgId, mode: 'remote', outcome: 'refused' }).whereNotNull('question')).to.have.length(0);
  });

  it("holds the key's beacon limit (10 × its plan's requests per minute) against many addresses at once", async () => {
    const pro = await seedOrg(platform, 'beacon-key-limit');
    await db().knex('organizations').where({ id: pro.orgId }).update({ tier: 'pro' });
    const proKeys = await createKeys(platform, pro);
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call('POST', '/beacon', null, { key: proKeys.publishable, counts: [{ mode: 'local', outcome: 'answered', count: 1 }] }, { origin: ORIGIN, 'x-forwarded-for': `203.0.113.${i + 1}` }),
      ),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).to.have.length(20);
    expect(statuses.filter((s) => s === 429)).to.have.length(10);
  });

  it('holds the per-session feedback limit under a parallel burst and masks comments', async () => {
    const session = await openSession(server.url, keys.publishable, ORIGIN);
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('POST', '/feedback', keys.publishable, { message_id: `msg_burst${i}x${Date.now()}`, rating: 'up', comment: `call +1 415 555 2671 please (${i})` }, { 'kit-session': session, origin: ORIGIN }),
      ),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(5);
    expect(statuses.filter((s) => s === 429)).to.have.length(15);
    expect(burst.find((r) => r.status === 429)!.headers.get('retry-after')).to.match(/^\d+$/);
    const stored = JSON.stringify(await db().knex('question_log').where({ org_id: org.orgId }).whereNotNull('rating'));
    expect(stored).to.not.include('555 2671');
    const long = await call('POST', '/feedback', keys.publishable, { message_id: 'msg_longcomment1', rating: 'down', comment: 'z'.repeat(501) }, { 'kit-session': await openSession(server.url, keys.publishable, ORIGIN), origin: ORIGIN });
    expect(long.status).to.equal(400);
    const noSession = await call('POST', '/feedback', keys.publishable, { message_id: 'msg_nosession1', rating: 'down' }, { origin: ORIGIN });
    expect(noSession.status).to.equal(401);
    expect(noSession.body.error.code).to.equal('session_required');
  });

  it('deleting a key deletes what was logged under it', async () => {
    const other = await createKeys(platform, org);
    await db().knex('question_log').insert({ id: 'qst_keydelete1', org_id: org.orgId, key_id: other.publishableId, message_id: 'msg_keydelete1', conversation_id: 'cnv_kd', created_at: new Date(), mode: 'local', outcome: 'answered', question: 'q', question_hash: 'kd', source: 'sdk' });
    await db().knex('question_daily').insert({ org_id: org.orgId, day: '2026-01-01', key_id: other.publishableId, page: '', mode: 'local', outcome: 'answered', questions: 3 });
    expect((await call('DELETE', `/keys/${other.publishableId}`, owner())).status).to.equal(204);
    expect(await db().knex('question_log').where({ key_id: other.publishableId })).to.have.length(0);
    expect(await db().knex('question_daily').where({ key_id: other.publishableId })).to.have.length(0);
    expect(await db().knex('question_groups').where({ org_id: org.orgId, question_hash: 'kd' })).to.have.length(0);
  });

  it('exports the organization as NDJSON without hashes', async () => {
    const res = await fetch(`${server.url}/v1/org/export`, { headers: { authorization: `Bearer ${owner()}` } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/x-ndjson/);
    const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l));
    const types = new Set(lines.map((l) => l.type));
    for (const t of ['organization', 'member', 'key', 'assistant_settings', 'question_logging', 'question_count', 'question', 'vote']) expect(types, t).to.include(t);
    const text = JSON.stringify(lines);
    expect(text).to.not.match(/password_hash|"hash"|\$argon2/);
    expect(text).to.not.include(keys.secret);
  });
});
