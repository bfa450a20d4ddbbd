import { expect } from 'chai';
import type { Platform } from '../../../server/platform.js';
import { FakeOpenAiServer } from '../../fakes/openai-compatible-server.js';
import { sharedPglite } from '../../support/databases.js';
import { createTestPlatform, listen, seedOrg, testClock, type SeededOrg } from '../../support/platform.js';
import { reservationInputTokens } from '../../../server/services/chat-service.js';
import { chatBody, createKeys, eventually, OFF_TOPIC_QUESTION, openSession, PRICING, PRICING_QUESTION, streamChat, TEST_ALTCHA_ENV, usageRows } from '../support/chat.js';

const SHOP = 'https://shop.example.com';

/** Limits small enough to hit in a test; each tier is used by one group of tests. */
const PLAN_LIMITS = JSON.stringify({
  free: { max_question_chars: 300, max_context_chars: 2_000, max_body_bytes: 16_384 },
  pro: { requests_per_minute: 3 },
  business: { session_requests_per_minute: 2, monthly_tokens: 400, max_output_tokens: 50 },
});

async function orgOnTier(platform: Platform, label: string, tier: 'free' | 'pro' | 'business'): Promise<SeededOrg> {
  const org = await seedOrg(platform, label);
  await platform.database.knex('organizations').where({ id: org.orgId }).update({ tier });
  return org;
}

describe('chatRoutes', () => {
  describe('with the built-in extractive engine', () => {
    const clock = testClock();
    let platform: Platform;
    let server: { url: string; close(): Promise<void> };
    let keys: Awaited<ReturnType<typeof createKeys>>;
    let session: string;
    const browser = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${keys.publishable}`, 'kit-session': session, origin: SHOP, ...extra });

    before(async function () {
      this.timeout(120_000);
      platform = await createTestPlatform({ database: await sharedPglite(), clock, env: { ...TEST_ALTCHA_ENV, KIT_PLAN_LIMITS: PLAN_LIMITS, KIT_TRUST_PROXY: '1' } });
      server = await listen(platform);
      keys = await createKeys(platform, await seedOrg(platform, 'chat'), { ipAllowlist: ['203.0.113.0/24'] });
      session = await openSession(server.url, keys.publishable);
    });
    after(async () => {
      await server.close();
      await platform.close();
    });

    it('streams a cited answer as server-sent events, exactly as the contract frames them', async () => {
      const res = await streamChat(server.url, browser(), chatBody());
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
      expect(res.headers.get('cache-control')).to.equal('no-cache');
      expect(res.headers.get('x-accel-buffering')).to.equal('no');
      expect(res.headers.get('access-control-allow-origin')).to.equal(SHOP);
      expect(res.headers.get('ratelimit')).to.match(/^limit=60, remaining=\d+, reset=\d+$/);
      const requestId = res.headers.get('request-id')!;
      const names = res.events.map((e) => e.event);
      expect(names[0]).to.equal('start');
      expect(names.at(-1)).to.equal('done');
      expect(names.slice(1, -1).every((n) => n === 'delta' || n === 'citation')).to.equal(true);
      expect(res.events.map((e) => Number(e.id))).to.deep.equal(res.events.map((_, i) => i + 1));
      expect(res.events[0]!.json).to.deep.equal({ request_id: requestId, model: 'extractive', mode: 'remote' });
      const text = res.events.filter((e) => e.event === 'delta').map((e) => e.json.text).join('');
      expect(text).to.include('20 dollars');
      expect(res.events.filter((e) => e.event === 'citation').map((e) => e.json)).to.deep.equal([{ index: 1, url: PRICING.url, title: PRICING.title }]);
      const done = res.events.at(-1)!.json as { finish_reason: string; usage: { input_tokens: number; output_tokens: number } };
      expect(done.finish_reason).to.equal('stop');
      expect(done.usage.output_tokens).to.be.greaterThan(0);
      const rows = await usageRows(platform, requestId);
      expect(rows).to.have.length(1);
      expect(rows[0]).to.deep.include({ key_id: keys.publishableId, mode: 'remote', model: 'extractive', refused: false, input_tokens: done.usage.input_tokens, output_tokens: done.usage.output_tokens });
    });

    it('answers one JSON object with stream: false', async () => {
      const res = await fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { ...browser(), 'content-type': 'application/json' }, body: JSON.stringify(chatBody(undefined, { stream: false })) });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      const body = await res.json();
      expect(body).to.include({ id: res.headers.get('request-id'), refused: false, model: 'extractive', finish_reason: 'stop' });
      expect(body.text).to.include('20 dollars');
      expect(body.citations).to.deep.equal([{ index: 1, url: PRICING.url, title: PRICING.title }]);
      expect((await usageRows(platform, body.id))[0]).to.deep.include({ refused: false, output_tokens: body.usage.output_tokens });
    });

    it('answers a question about the page itself with the page\'s opening sentences (the extractive engine as the server builds it)', async () => {
      const res = await fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { ...browser(), 'content-type': 'application/json' }, body: JSON.stringify(chatBody('What is this page about?', { stream: false })) });
      const body = await res.json();
      expect(body.refused).to.equal(false);
      expect(body.text).to.equal(PRICING.text); // its two sentences: the lead
      expect(body.citations).to.deep.equal([{ index: 1, url: PRICING.url, title: PRICING.title }]);
    });

    it('refuses a question the sources do not ground, without an answer, and meters the refusal', async () => {
      const res = await streamChat(server.url, browser(), chatBody(OFF_TOPIC_QUESTION));
      expect(res.events.map((e) => e.event)).to.deep.equal(['start', 'refusal', 'done']);
      expect(res.events[1]!.json.message).to.equal('I can only answer about this page');
      expect(res.events[2]!.json).to.deep.equal({ finish_reason: 'refused', usage: { input_tokens: 0, output_tokens: 0 } });
      const rows = await usageRows(platform, res.headers.get('request-id')!);
      expect(rows).to.have.length(1);
      expect(rows[0]).to.deep.include({ refused: true, input_tokens: 0, output_tokens: 0 });
      const empty = await streamChat(server.url, browser(), { ...chatBody(), sources: [] });
      expect(empty.events.map((e) => e.event)).to.deep.equal(['start', 'refusal', 'done']);
    });

    it('requires a session bound to the same key and origin for a publishable key', async () => {
      const cases: Array<[string, Record<string, string>]> = [
        ['no session', { authorization: `Bearer ${keys.publishable}`, origin: SHOP }],
        ['garbage', browser({ 'kit-session': 'kit_ses_nope.nope' })],
        ['another origin', browser({ origin: 'https://www.example.org' })],
      ];
      const other = await createKeys(platform, await seedOrg(platform, 'chat-other'));
      cases.push(['another key', { ...browser(), authorization: `Bearer ${other.publishable}` }]);
      for (const [label, headers] of cases) {
        const res = await streamChat(server.url, headers, chatBody());
        const expected = label === 'another origin' ? 'origin_not_allowed' : 'session_required';
        expect(res.status, label).to.equal(expected === 'session_required' ? 401 : 403);
      }
      const lan = await createKeys(platform, await seedOrg(platform, 'chat-lan'), { allowedOrigins: [SHOP, 'https://www.example.org'] });
      const shopSession = await openSession(server.url, lan.publishable, SHOP);
      const moved = await streamChat(server.url, { authorization: `Bearer ${lan.publishable}`, 'kit-session': shopSession, origin: 'https://www.example.org' }, chatBody());
      expect(moved.status).to.equal(401);
      clock.advance(601_000);
      try {
        const expired = await streamChat(server.url, browser(), chatBody());
        expect(expired.status).to.equal(401);
      } finally {
        clock.advance(-601_000);
      }
    });

    it('serves a secret key without a session, from inside its IP allowlist only', async () => {
      const ok = await streamChat(server.url, { authorization: `Bearer ${keys.secret}`, 'x-forwarded-for': '203.0.113.9' }, chatBody());
      expect(ok.status).to.equal(200);
      expect(ok.events.at(-1)?.event).to.equal('done');
      expect((await usageRows(platform, ok.headers.get('request-id')!))[0]).to.deep.include({ key_id: keys.secretId });
      const outside = await fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${keys.secret}`, 'x-forwarded-for': '198.51.100.1', 'content-type': 'application/json' }, body: JSON.stringify(chatBody()) });
      expect(outside.status).to.equal(403);
      expect((await outside.json()).error.code).to.equal('ip_not_allowed');
    });

    it("refuses sizes over the plan's limits with payload_too_large, before any work", async () => {
      const post = async (body: unknown) => {
        const res = await fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${keys.secret}`, 'x-forwarded-for': '203.0.113.9', 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return { status: res.status, body: await res.json(), id: res.headers.get('request-id')! };
      };
      const question = await post(chatBody('How much is Pro? '.repeat(20)));
      expect([question.status, question.body.error.code]).to.deep.equal([413, 'payload_too_large']);
      const sources = await post({ ...chatBody(), sources: [PRICING, { ...PRICING, text: 'x'.repeat(1_950) }] });
      expect([sources.status, sources.body.error.code]).to.deep.equal([413, 'payload_too_large']);
      const history = await post({ ...chatBody(), messages: [{ role: 'user', content: 'a'.repeat(1_500) }, { role: 'assistant', content: 'b'.repeat(600) }, { role: 'user', content: 'How much is Pro?' }] });
      expect(history.status).to.equal(413);
      const bytes = await post({ ...chatBody(), sources: Array.from({ length: 40 }, () => ({ ...PRICING, text: 'é'.repeat(45) })), padding: 'y'.repeat(17_000) });
      expect([bytes.status, bytes.body.error.code]).to.deep.equal([413, 'payload_too_large']);
      expect(await usageRows(platform, question.id)).to.have.length(0);
    });

    it('answers invalid_request for a body that breaks the contract', async () => {
      const bodies = [
        { ...chatBody(), messages: [] },
        { ...chatBody(), messages: [{ role: 'assistant', content: 'hi' }] },
        { ...chatBody(), messages: [{ role: 'user', content: '   ' }] },
        { ...chatBody(), sources: [{ ...PRICING, url: 'javascript:alert(1)' }] },
        { ...chatBody(), stream: 'yes' },
      ];
      for (const body of bodies) {
        const res = await fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { ...browser(), 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
        expect((await res.json()).error.code).to.equal('invalid_request');
      }
    });

    it('limits requests per key per minute, with Retry-After and RateLimit headers', async () => {
      const pro = await createKeys(platform, await orgOnTier(platform, 'chat-pro', 'pro'));
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 4; i++) {
        last = await fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${pro.secret}`, 'content-type': 'application/json' }, body: JSON.stringify(chatBody(undefined, { stream: false })) });
        statuses.push(last.status);
      }
      expect(statuses).to.deep.equal([200, 200, 200, 429]);
      const body = await last!.json();
      expect(body.error.code).to.equal('rate_limited');
      expect(Number(last!.headers.get('retry-after'))).to.be.within(1, 60);
      expect(last!.headers.get('ratelimit')).to.match(/^limit=3, remaining=0, reset=\d+$/);
      clock.advance(60_000);
      try {
        expect((await fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${pro.secret}`, 'content-type': 'application/json' }, body: JSON.stringify(chatBody(undefined, { stream: false })) })).status).to.equal(200);
      } finally {
        clock.advance(-60_000);
      }
    });

    it('limits requests per session per minute; a new session starts its own window', async () => {
      const biz = await createKeys(platform, await orgOnTier(platform, 'chat-biz', 'business'));
      const s1 = await openSession(server.url, biz.publishable);
      const headers = (s: string) => ({ authorization: `Bearer ${biz.publishable}`, 'kit-session': s, origin: SHOP });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await streamChat(server.url, headers(s1), chatBody(OFF_TOPIC_QUESTION))).status);
      expect(statuses).to.deep.equal([200, 200, 429]);
      const s2 = await openSession(server.url, biz.publishable);
      expect((await streamChat(server.url, headers(s2), chatBody(OFF_TOPIC_QUESTION))).status).to.equal(200);
    });

    it("refuses with quota_exceeded once the organization's monthly tokens are used, until next month", async () => {
      const biz = await createKeys(platform, await orgOnTier(platform, 'chat-quota', 'business'));
      const post = () => fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${biz.secret}`, 'content-type': 'application/json' }, body: JSON.stringify(chatBody(undefined, { stream: false })) });
      const first = await post();
      expect(first.status).to.equal(200);
      const used = (await first.json()).usage;
      // The next request's worst case (input estimate + the 50-token answer cap) no longer fits the 400 tokens.
      const body = chatBody();
      const chars = PRICING_QUESTION.length + PRICING.title.length + PRICING.text.length;
      expect(used.input_tokens + used.output_tokens + reservationInputTokens(chars) + 50).to.be.greaterThan(400);
      expect(body.sources).to.deep.equal([PRICING]);
      const refused = await post();
      expect(refused.status).to.equal(429);
      expect((await refused.json()).error.code).to.equal('quota_exceeded');
      const now = clock.now();
      const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
      expect(Number(refused.headers.get('retry-after'))).to.be.closeTo((nextMonth - now.getTime()) / 1000, 2);
      expect(refused.headers.get('ratelimit')).to.equal(`limit=400, remaining=${400 - used.input_tokens - used.output_tokens}, reset=${refused.headers.get('retry-after')}`);
    });
  });

  describe('with an OpenAI-compatible backend', () => {
    let upstream: FakeOpenAiServer;
    let platform: Platform;
    let server: { url: string; close(): Promise<void> };
    let keys: Awaited<ReturnType<typeof createKeys>>;
    const secret = () => ({ authorization: `Bearer ${keys.secret}` });

    before(async function () {
      this.timeout(120_000);
      upstream = new FakeOpenAiServer();
      const url = await upstream.start();
      platform = await createTestPlatform({
        database: await sharedPglite(),
        env: { KIT_INFERENCE_URL: url, KIT_INFERENCE_MODEL: 'test-model', KIT_SSE_KEEPALIVE_MS: '100', KIT_REDACT_SOURCES: 'true' },
      });
      server = await listen(platform);
      keys = await createKeys(platform, await seedOrg(platform, 'chat-openai'));
    });
    after(async () => {
      await server.close();
      await platform.close();
      await upstream.stop();
    });

    it('streams the backend answer with citations from its markers and meters the usage it reports', async () => {
      upstream.script = { steps: [{ content: 'Pro costs ' }, { content: '20 dollars [1' }, { content: '].' }, { finish: 'stop' }, { usage: { prompt_tokens: 321, completion_tokens: 9 } }, { done: true }] };
      const res = await streamChat(server.url, secret(), chatBody());
      const names = res.events.map((e) => e.event);
      expect([names[0], names.at(-1)]).to.deep.equal(['start', 'done']);
      expect(res.events[0]!.json.model).to.equal('test-model');
      expect(res.events.filter((e) => e.event === 'delta').map((e) => e.json.text).join('')).to.equal('Pro costs 20 dollars [1].');
      const citations = res.events.filter((e) => e.event === 'citation');
      expect(citations.map((e) => e.json)).to.deep.equal([{ index: 1, url: PRICING.url, title: PRICING.title }]);
      // the citation follows the marker that names it
      const before = res.events.slice(0, res.events.indexOf(citations[0]!)).map((e) => e.json.text ?? '').join('');
      expect(before).to.include('[1]');
      expect(res.events.at(-1)!.json).to.deep.equal({ finish_reason: 'stop', usage: { input_tokens: 321, output_tokens: 9 } });
      const rows = await usageRows(platform, res.headers.get('request-id')!);
      expect(rows[0]).to.deep.include({ model: 'test-model', input_tokens: 321, output_tokens: 9 });
    });

    it('masks secrets and personal data in the sources before the model sees them (KIT_REDACT_SOURCES)', async () => {
      upstream.script = { steps: [{ content: 'Ok.' }, { finish: 'stop' }, { done: true }] };
      const leaky = { ...PRICING, text: `${PRICING.text} Support: jane.doe@example.com, token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB.` };
      const res = await streamChat(server.url, secret(), { ...chatBody(), sources: [leaky] });
      expect(res.status).to.equal(200);
      const prompt = JSON.stringify(upstream.calls.at(-1)!.body);
      expect(prompt).to.not.include('jane.doe@example.com').and.not.include('ghp_0123456789');
      expect(prompt).to.include('[REDACTED:EMAIL]').and.include('[REDACTED:SECRET]');
    });

    it('ends the stream with an error event when the backend fails mid-stream, and meters what was streamed', async () => {
      upstream.script = { steps: [{ content: 'Pro costs 20 dollars' }, { delayMs: 50 }, { error: 'model crashed' }] };
      const res = await streamChat(server.url, secret(), chatBody());
      expect(res.events.map((e) => e.event)).to.deep.equal(['start', 'delta', 'error']);
      const requestId = res.headers.get('request-id')!;
      expect(res.events[2]!.json).to.deep.equal({ error: { code: 'upstream_unavailable', message: 'The inference backend reported an error mid-stream.', request_id: requestId } });
      const rows = await usageRows(platform, requestId);
      expect(rows).to.have.length(1);
      expect(rows[0]).to.deep.include({ refused: false, output_tokens: 5 });
      expect(rows[0]!.input_tokens).to.be.greaterThan(0);
    });

    it('answers a plain JSON 502 when the backend fails before the first token', async () => {
      upstream.script = { status: 500 };
      const res = await fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { ...secret(), 'content-type': 'application/json' }, body: JSON.stringify(chatBody()) });
      expect(res.status).to.equal(502);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect((await res.json()).error.code).to.equal('upstream_unavailable');
      expect((await usageRows(platform, res.headers.get('request-id')!))[0]).to.deep.include({ input_tokens: 0, output_tokens: 0 });
    });

    it('sends keep-alive comments while the backend is slow', async () => {
      upstream.script = { steps: [{ content: 'Pro ' }, { delayMs: 450 }, { content: 'costs 20 dollars.' }, { finish: 'stop' }, { done: true }] };
      const res = await fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { ...secret(), 'content-type': 'application/json' }, body: JSON.stringify(chatBody()) });
      const raw = await res.text();
      const between = raw.slice(raw.indexOf('"Pro "'), raw.indexOf('costs 20'));
      expect(between.match(/^: keep-alive$/gm)?.length ?? 0).to.be.at.least(2);
      expect(raw).to.match(/event: done/);
    });

    it('cancels the backend and still writes one usage row when the visitor disconnects mid-stream', async () => {
      upstream.script = { steps: [{ content: 'Pro costs ' }, ...Array.from({ length: 40 }, () => [{ delayMs: 50 }, { content: 'more ' }]).flat(), { finish: 'stop' }, { done: true }] };
      const calls = upstream.calls.length;
      const controller = new AbortController();
      const res = await fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { ...secret(), 'content-type': 'application/json' }, body: JSON.stringify(chatBody()), signal: controller.signal });
      const requestId = res.headers.get('request-id')!;
      const reader = res.body!.getReader();
      let seen = '';
      while (!seen.includes('"more ')) seen += new TextDecoder().decode((await reader.read()).value);
      controller.abort();
      const call = upstream.calls[calls]!;
      await Promise.race([call.closed, new Promise((_, reject) => setTimeout(() => reject(new Error('upstream not cancelled')), 3_000))]);
      expect(call.clientClosed).to.equal(true);
      await eventually(async () => (await usageRows(platform, requestId)).length === 1);
      const row = (await usageRows(platform, requestId))[0]!;
      expect(row.output_tokens).to.be.greaterThan(0);
      expect(row.refused).to.equal(false);
    });
  });

  describe('plan modes', () => {
    it("refuses /chat for a plan that answers on the visitor's device only", async function () {
      this.timeout(60_000);
      const platform = await createTestPlatform({ database: await sharedPglite(), env: { KIT_PLAN_LIMITS: JSON.stringify({ free: { mode: 'local' } }) } });
      const server = await listen(platform);
      try {
        const keys = await createKeys(platform, await seedOrg(platform, 'chat-local'));
        const res = await fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${keys.secret}`, 'content-type': 'application/json' }, body: JSON.stringify(chatBody()) });
        expect(res.status).to.equal(403);
        expect((await res.json()).error.code).to.equal('forbidden');
        const config = await (await fetch(`${server.url}/v1/config`, { headers: { authorization: `Bearer ${keys.publishable}` } })).json();
        expect(config.mode).to.equal('local');
      } finally {
        await server.close();
        await platform.close();
      }
    });
  });
});
