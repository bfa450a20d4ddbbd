import { expect } from 'chai';
import type { Platform } from '../../../server/platform.js';
import { resolve } from '../../../server/tokens.js';
import { describeOnEachDatabase } from '../../support/databases.js';
import { createTestPlatform, listen, seedOrg, testClock, type SeededOrg, type TestClock } from '../../support/platform.js';
import { createResponseValidator } from '../../support/openapi-validator.js';
import { chatBody, createKeys, OFF_TOPIC_QUESTION, openSession, PRICING_QUESTION, streamChat, TEST_ALTCHA_ENV, usageRows } from '../support/chat.js';

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
    return { requestId: String(stream.events[0]!.json.request_id), session, events: stream.events };
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

  // The page's text answers neither (the gate lets both through: they share words with it); the built-in engine says
  // "I couldn't find that on this page." to the first and quotes the closest sentence to the second.
  const NOT_FOUND_QUESTION = 'Who founded the company behind the Pro plan?';
  const CLOSEST_QUESTION = 'Does the Pro plan include phone support?';

  it('answers that found nothing on the page are logged not_found, billed as answers, and show up as coverage gaps', async () => {
    // `full`: the answer the visitor read is kept for not_found too (the closest sentence helps the owner).
    await setLogging('full');
    const before = clock.now();
    const found = await ask(PRICING_QUESTION, { page_url: 'https://shop.example.com/pricing', conversation_id: 'cnv_nf_0' });
    clock.advance(1000);
    const missing = await ask(NOT_FOUND_QUESTION, { page_url: 'https://shop.example.com/about', conversation_id: 'cnv_nf_1' });
    clock.advance(1000);
    const again = await ask(NOT_FOUND_QUESTION.toLowerCase(), { page_url: 'https://shop.example.com/about', conversation_id: 'cnv_nf_2' });
    clock.advance(1000);
    const closest = await ask(CLOSEST_QUESTION, { page_url: 'https://shop.example.com/pricing', conversation_id: 'cnv_nf_3' });

    // The wire is unchanged: `done` carries finish_reason and usage only (CONTRACT §4), whatever the engine found.
    for (const chat of [found, missing, closest]) {
      const done = chat.events.at(-1)!;
      expect(done.event).to.equal('done');
      expect(Object.keys(done.json).sort()).to.deep.equal(['finish_reason', 'usage']);
      expect(done.json.finish_reason).to.equal('stop');
    }
    expect(missing.events.filter((e) => e.event === 'delta').map((e) => e.json.text).join('')).to.equal("I couldn't find that on this page.");
    // Billed as any answer: the engine ran (a usage row, not refused, with the engine's tokens).
    for (const chat of [missing, closest]) {
      const [row] = await usageRows(platform, chat.requestId);
      const usage = chat.events.at(-1)!.json.usage as { input_tokens: number; output_tokens: number };
      expect(row).to.deep.include({ refused: false, input_tokens: usage.input_tokens, output_tokens: usage.output_tokens });
      expect(usage.output_tokens).to.be.greaterThan(0);
    }

    const outcomes = async (conversation: string) => (await api('GET', `/conversations/${conversation}`, owner())).body.data.map((q: { outcome: string }) => q.outcome);
    expect(await outcomes('cnv_nf_0')).to.deep.equal(['answered']);
    expect(await outcomes('cnv_nf_1')).to.deep.equal(['not_found']);
    expect(await outcomes('cnv_nf_3'), 'the closest sentence quoted is not an answer').to.deep.equal(['not_found']);
    const answers = async (conversation: string) => (await api('GET', `/conversations/${conversation}`, owner())).body.data.map((q: { answer: string | null }) => q.answer);
    expect(await answers('cnv_nf_1')).to.deep.equal(["I couldn't find that on this page."]);
    expect((await answers('cnv_nf_3'))[0]).to.match(/^I couldn't find a direct answer on this page\. The closest it comes: “The Pro plan costs 20 dollars/);
    const listed = await api('GET', '/questions?outcome=not_found', org.members.viewer.token);
    expect(validate('get', '/questions', 200, listed.body)).to.equal(null);
    expect(listed.body.data.map((q: { message_id: string }) => q.message_id).sort()).to.deep.equal([missing.requestId, again.requestId, closest.requestId].sort());

    // Coverage gaps: all-time (question_groups) and over days or a key (the per-day summaries) — two code paths.
    const today = clock.now().toISOString().slice(0, 10);
    for (const query of ['', `?from=${before.toISOString()}`, `?from=${today}&to=${today}T23:59:59Z`, `?key_id=${keys.publishableId}`]) {
      const gaps = await api('GET', `/insights/coverage-gaps${query}`, org.members.viewer.token);
      expect(gaps.status, query).to.equal(200);
      expect(validate('get', '/insights/coverage-gaps', 200, gaps.body), query).to.equal(null);
      // The earlier tests' refusals are gaps too; these are the groups that found nothing.
      const unanswered = gaps.body.data.filter((g: { not_found: number }) => g.not_found > 0);
      expect(unanswered.map((g: { question: string; count: number; not_found: number; refused: number; answered: number; pages: unknown }) => [g.question, g.count, g.not_found, g.refused, g.answered, g.pages]), query).to.deep.equal([
        [NOT_FOUND_QUESTION.toLowerCase(), 2, 2, 0, 0, [{ url: 'https://shop.example.com/about', count: 2 }]],
        [CLOSEST_QUESTION, 1, 1, 0, 0, [{ url: 'https://shop.example.com/pricing', count: 1 }]],
      ]);
      const top = await api('GET', `/insights/top-questions${query}`, org.members.viewer.token);
      const mine = top.body.data.filter((g: { question: string }) => [NOT_FOUND_QUESTION.toLowerCase(), CLOSEST_QUESTION].includes(g.question));
      expect(mine.map((g: { count: number; answered: number; not_found: number }) => [g.count, g.answered, g.not_found]), query).to.deep.equal([[2, 0, 2], [1, 0, 1]]);
    }
    const daily = await api('GET', `/insights/daily?from=${today}`, org.members.viewer.token);
    expect(validate('get', '/insights/daily', 200, daily.body)).to.equal(null);
    expect(daily.body.questions).to.deep.include({ day: today, mode: 'remote', outcome: 'not_found', questions: 3 });
    const csv = await api('GET', '/questions/export?outcome=not_found', owner());
    const lines = String(csv.body).trim().split('\r\n');
    const column = lines[0]!.split(',').indexOf('outcome');
    expect(lines.slice(1).map((l) => l.split(',')[column])).to.deep.equal(['not_found', 'not_found', 'not_found']);
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
