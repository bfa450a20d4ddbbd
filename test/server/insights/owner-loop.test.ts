import { expect } from 'chai';
import type { Platform } from '../../../server/platform.js';
import { resolve } from '../../../server/tokens.js';
import { describeOnEachDatabase } from '../../support/databases.js';
import { createTestPlatform, listen, seedOrg, testClock, type SeededOrg, type TestClock } from '../../support/platform.js';
import { createResponseValidator } from '../../support/openapi-validator.js';
import { chatBody, createKeys, OFF_TOPIC_QUESTION, openSession, PRICING_QUESTION, streamChat, TEST_ALTCHA_ENV } from '../support/chat.js';

const ORIGIN = 'https://shop.example.com';
// Planted: a secret key shape, an email, a phone number and a card number (Luhn-valid test number).
const PLANTED = 'My key is sk_live_4eC39HqLyjWDarjtT1zdp7dc and mail me at jane.doe@example.org or +1 415 555 2671, card 4242 4242 4242 4242';
const PLANTED_PARTS = ['sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'jane.doe@example.org', '415 555 2671', '4242 4242 4242 4242'];

describeOnEachDatabase('question log, feedback and insights', (db) => {
  let platform: Platform;
  let server: { url: string; close(): Promise<void> };
  let org: SeededOrg;
  let keys: Awaited<ReturnType<typeof createKeys>>;
  let clock: TestClock;
  let validate: ReturnType<typeof createResponseValidator>;

  before(async function () {
    this.timeout(120_000);
    clock = testClock();
    platform = await createTestPlatform({ database: db(), clock, env: { ...TEST_ALTCHA_ENV, KIT_QUESTION_LOG_FLUSH_MS: '20' } });
    server = await listen(platform);
    org = await seedOrg(platform, 'loop');
    keys = await createKeys(platform, org);
    validate = createResponseValidator(await (await fetch(`${server.url}/v1/openapi.json`)).json());
  });
  after(async () => {
    await server.close();
    await platform.close();
  });

  const api = async (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    const json = text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    return { status: res.status, body: json, headers: res.headers };
  };
  const owner = () => org.members.owner.token;
  const flush = () => resolve(platform.container, 'QuestionLogService').flush();
  async function setLogging(mode: 'off' | 'redacted' | 'full', extra: Record<string, unknown> = {}) {
    const current = await api('GET', '/org/question-logging', owner());
    const res = await api('PATCH', '/org/question-logging', owner(), { mode, ...extra }, { 'if-match': current.headers.get('etag')! });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }
  async function ask(question: string, extra: Record<string, unknown> = {}) {
    const session = await openSession(server.url, keys.publishable, ORIGIN);
    const stream = await streamChat(server.url, { authorization: `Bearer ${keys.publishable}`, 'kit-session': session, origin: ORIGIN }, chatBody(question, extra));
    expect(stream.status).to.equal(200);
    await flush();
    return { requestId: String(stream.events[0]!.json.request_id), session };
  }

  it('logs nothing but counts while logging is off (the default)', async () => {
    const { requestId } = await ask(PRICING_QUESTION, { page_url: 'https://shop.example.com/pricing?utm=x', conversation_id: 'cnv_off_1' });
    expect(await db().knex('question_log').where({ org_id: org.orgId, message_id: requestId }).whereNotNull('question')).to.have.length(0);
    const daily = await api('GET', '/insights/daily', org.members.viewer.token);
    expect(daily.status).to.equal(200);
    expect(daily.body.questions).to.deep.include({ day: clock.now().toISOString().slice(0, 10), mode: 'remote', outcome: 'answered', questions: 1 });
    const counts = await db().knex('question_daily').where({ org_id: org.orgId });
    expect(counts.map((c) => c.page)).to.deep.equal(['https://shop.example.com/pricing']);
  });

  it('logs a redacted question with its outcome, page, citations and the visitor feedback when logging is on', async () => {
    await setLogging('redacted');
    const plain = await ask(PRICING_QUESTION, { page_url: 'https://shop.example.com/pricing', conversation_id: 'cnv_on_0' });
    const answered = await api('GET', `/conversations/cnv_on_0`, owner());
    expect(answered.body.data[0]).to.include({ message_id: plain.requestId, outcome: 'answered' });
    expect(answered.body.data[0].citations).to.deep.equal([{ url: 'https://shop.example.com/pricing', title: 'Pricing' }]);
    clock.advance(1000);
    const { requestId, session } = await ask(`How much does the Pro plan cost per month? ${PLANTED}`, { page_url: 'https://shop.example.com/pricing?email=jane.doe@example.org#top', conversation_id: 'cnv_on_1' });
    const fb = await api('POST', '/feedback', keys.publishable, { message_id: requestId, rating: 'down', comment: `Wrong! call me on +1 415 555 2671 or jane.doe@example.org` }, { 'kit-session': session, origin: ORIGIN });
    expect(fb.status, JSON.stringify(fb.body)).to.equal(200);
    expect(fb.body.comment_stored).to.equal(true);
    const list = await api('GET', '/questions', org.members.viewer.token);
    expect(list.status).to.equal(200);
    expect(validate('get', '/questions', 200, list.body)).to.equal(null);
    const row = list.body.data.find((q: { message_id: string }) => q.message_id === requestId);
    expect(row, JSON.stringify(list.body)).to.exist;
    // Whatever the gate decided about this noisy question, the log has that outcome and filters by it.
    expect(row).to.include({ mode: 'remote', conversation_id: 'cnv_on_1', page_url: 'https://shop.example.com/pricing', answer: null, source: 'server' });
    const same = await api('GET', `/questions?outcome=${row.outcome}`, org.members.viewer.token);
    expect(same.body.data.map((q: { id: string }) => q.id)).to.include(row.id);
    const other = await api('GET', `/questions?outcome=${row.outcome === 'answered' ? 'refused' : 'answered'}`, org.members.viewer.token);
    expect(other.body.data.map((q: { id: string }) => q.id)).to.not.include(row.id);
    expect(row.feedback.rating).to.equal('down');
    const everything = JSON.stringify(await db().knex('question_log').where({ org_id: org.orgId }));
    for (const part of PLANTED_PARTS) expect(everything, part).to.not.include(part);
    expect(row.question).to.include('[REDACTED:');
  });

  it('refusals show up as coverage gaps with their pages, and top questions group normalised text', async () => {
    await ask(OFF_TOPIC_QUESTION, { page_url: 'https://shop.example.com/faq' });
    clock.advance(1000);
    await ask(`${OFF_TOPIC_QUESTION.toUpperCase()}!!`, { page_url: 'https://shop.example.com/faq' });
    const gaps = await api('GET', '/insights/coverage-gaps', org.members.viewer.token);
    expect(gaps.status).to.equal(200);
    expect(validate('get', '/insights/coverage-gaps', 200, gaps.body)).to.equal(null);
    const gap = gaps.body.data.find((g: { refused: number }) => g.refused === 2);
    expect(gap, JSON.stringify(gaps.body)).to.exist;
    expect(gap.pages).to.deep.equal([{ url: 'https://shop.example.com/faq', count: 2 }]);
    const top = await api('GET', '/insights/top-questions', org.members.viewer.token);
    expect(top.body.data[0].count).to.equal(2);
    const ranged = await api('GET', `/insights/top-questions?from=${new Date(clock.now().getTime() - 3600_000).toISOString()}`, org.members.viewer.token);
    expect(ranged.body.data[0]).to.deep.equal(top.body.data[0]);
  });

  it('deletes one conversation and keeps the others', async () => {
    const res = await api('DELETE', '/conversations/cnv_on_1', org.members.developer.token);
    expect(res.status).to.equal(204);
    expect(await db().knex('question_log').where({ org_id: org.orgId, conversation_id: 'cnv_on_1' })).to.have.length(0);
    expect((await api('GET', '/conversations/cnv_on_1', owner())).status).to.equal(404);
    const left = await api('GET', '/questions', owner());
    expect(left.body.data.length).to.equal(3);
  });

  it('purges rows past the retention on schedule, once across restarts', async () => {
    const job = resolve(platform.container, 'RetentionJob');
    clock.advance(31 * 86_400_000);
    const first = await job.runDue();
    expect(first.ran).to.equal(true);
    expect(first.questions).to.be.greaterThan(0);
    expect(await db().knex('question_log').where({ org_id: org.orgId })).to.have.length(0);
    expect(await db().knex('question_groups').where({ org_id: org.orgId })).to.have.length(0);
    // Not due again within the interval, on this replica or a restarted one.
    expect((await job.runDue()).ran).to.equal(false);
    const restarted = await createTestPlatform({ database: db(), clock, env: TEST_ALTCHA_ENV });
    try {
      expect((await resolve(restarted.container, 'RetentionJob').runDue()).ran).to.equal(false);
      clock.advance(61 * 60_000);
      const both = await Promise.all([resolve(restarted.container, 'RetentionJob').runDue(), job.runDue()]);
      expect(both.filter((r) => r.ran)).to.have.length(1);
    } finally {
      await restarted.close();
    }
  });
});
