import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { monthOf } from '../../adapters/node/pg-chat-limiter.js';
import type { Platform } from '../../server/platform.js';
import { reservationInputTokens } from '../../server/services/chat-service.js';
import { resolve } from '../../server/tokens.js';
import { FakeOpenAiServer, type OpenAiStep } from '../fakes/openai-compatible-server.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { createTestPlatform, listen, seedOrg } from '../support/platform.js';
import { chatBody, createKeys, PRICING, PRICING_QUESTION } from './support/chat.js';

const QUOTA = 200_000; // the free plan's monthly tokens
const MAX_OUTPUT = 512; // the free plan's answer cap
/** Rate limits out of the way: this is about the month's tokens. */
const PLAN_LIMITS = JSON.stringify({ free: { requests_per_minute: 100_000, org_requests_per_minute: 100_000, session_requests_per_minute: 100_000 } });

/** The source: one page of 59,000 characters (the pricing passage, then article text) that grounds the question. */
const ARTICLES = ['ars-1', '001', 'keep-tabular-data']
  .map((page) => readFileSync(new URL(`../adapters/browser/fixtures/pages/${page}/expected.html`, import.meta.url), 'utf8').replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' '))
  .join(' ');
const BIG_SOURCE = { ...PRICING, text: `${PRICING.text} ${ARTICLES} ${ARTICLES} ${ARTICLES}`.slice(0, 59_000) };

/** An upstream that ignores max_tokens: 6,000 characters (≈ 1,500 tokens) after a pause, and never reports usage. */
const RUNAWAY: OpenAiStep[] = [{ delayMs: 300 }, ...Array.from({ length: 150 }, () => ({ content: 'The Pro plan costs 20 dollars a month. ' })), { finish: 'stop' }, { done: true }];

/** /chat answers before its usage row is settled (docs/api.md): read the books once this process has settled them. */
const settled = (platform: Platform, orgId: string): Promise<void> => resolve(platform.container, 'ChatService').settledFor(orgId);

async function meter(platform: Platform, orgId: string): Promise<{ used: number; reserved: number }> {
  await settled(platform, orgId);
  const row = await platform.database.knex('org_meters').where({ org_id: orgId, month: monthOf(new Date()) }).first();
  return { used: Number(row?.used ?? 0), reserved: Number(row?.reserved ?? 0) };
}

async function settledTokens(platform: Platform, orgId: string): Promise<{ rows: number; tokens: number; reserved: number }> {
  await settled(platform, orgId);
  const rows = await platform.database.knex('usage_events').where({ org_id: orgId });
  return {
    rows: rows.length,
    tokens: rows.reduce((sum, r) => sum + Number(r.input_tokens) + Number(r.output_tokens), 0),
    reserved: rows.filter((r) => r.state === 'reserved').length,
  };
}

describe('monthly token quota under concurrency (issue 11.1)', function () {
  this.timeout(240_000);

  describeOnEachDatabase('240 concurrent chats, an upstream that ignores max_tokens', (db) => {
    let upstream: FakeOpenAiServer;
    let platform: Platform;
    let server: { url: string; close(): Promise<void> };

    before(async () => {
      upstream = new FakeOpenAiServer();
      upstream.script = { steps: RUNAWAY };
      const url = await upstream.start();
      platform = await createTestPlatform({ database: db(), env: { KIT_INFERENCE_URL: url, KIT_INFERENCE_MODEL: 'runaway', KIT_PLAN_LIMITS: PLAN_LIMITS } });
      server = await listen(platform);
    });
    after(async () => {
      await server.close();
      await platform.close();
      await upstream.stop();
    });

    it('admits only what the month can hold, caps every answer, and meters exactly what it admitted', async () => {
      const org = await seedOrg(platform, 'burst');
      const keys = await Promise.all([1, 2].map(() => createKeys(platform, org)));
      const secrets = keys.flatMap((k) => [k.secret, k.secret]); // 4 secret-key slots, as in the issue (2 keys used twice)
      const body = JSON.stringify({ ...chatBody(PRICING_QUESTION, { stream: false }), sources: [BIG_SOURCE] });
      const reservation = reservationInputTokens(PRICING_QUESTION.length + BIG_SOURCE.title.length + BIG_SOURCE.text.length) + MAX_OUTPUT;
      const calls = upstream.calls.length;

      const statuses: number[] = [];
      const answers: Array<{ finish_reason: string; refused: boolean; usage: { input_tokens: number; output_tokens: number } }> = [];
      // Waves of 240 until the month refuses everything: the first wave races for the whole quota at once.
      for (let wave = 0; wave < 6; wave++) {
        // The previous wave's reservations are released once settled (after their answers): a wave sent before
        // that may be refused conservatively, which would end the loop with part of the month unused.
        await settled(platform, org.orgId);
        const responses = await Promise.all(
          Array.from({ length: 240 }, (_, i) =>
            fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${secrets[i % 4]}`, 'content-type': 'application/json' }, body }),
          ),
        );
        let admitted = 0;
        for (const res of responses) {
          statuses.push(res.status);
          const json = await res.json();
          if (res.status === 200) {
            admitted++;
            answers.push(json);
          } else expect(json.error.code, JSON.stringify(json)).to.equal('quota_exceeded');
        }
        if (admitted === 0) break;
      }

      const m = await meter(platform, org.orgId);
      const rows = await settledTokens(platform, org.orgId);
      // Exact: one row per admitted chat, the month's total is the sum of the rows, nothing left reserved.
      expect(rows.rows).to.equal(answers.length);
      expect(rows.reserved).to.equal(0);
      expect(m).to.deep.equal({ used: rows.tokens, reserved: 0 });
      // The bound: never more than one request's reservation over the quota (here: not over it at all).
      expect(m.used).to.be.at.most(QUOTA + reservation);
      expect(m.used).to.be.at.most(QUOTA);
      // The quota was really used, not refused early: less than one reservation is left.
      expect(QUOTA - m.used).to.be.lessThan(reservation);
      expect(answers.length).to.be.greaterThan(5);
      // Every answer was held to the plan's cap although the upstream ignored it, and max_tokens went upstream.
      for (const a of answers) {
        expect(a.refused).to.equal(false);
        expect(a.finish_reason).to.equal('length');
        expect(a.usage.output_tokens).to.be.at.most(MAX_OUTPUT);
      }
      const sent = upstream.calls.slice(calls);
      expect(sent).to.have.length(answers.length);
      expect(sent.every((c) => c.body.max_tokens === MAX_OUTPUT)).to.equal(true);
    });
  });

  describeOnEachDatabase('30 parallel chats near the limit, built-in engine', (db) => {
    let platform: Platform;
    let server: { url: string; close(): Promise<void> };

    before(async () => {
      platform = await createTestPlatform({ database: db(), env: { KIT_PLAN_LIMITS: PLAN_LIMITS } });
      server = await listen(platform);
    });
    after(async () => {
      await server.close();
      await platform.close();
    });

    it('lets exactly the requests whose worst case fits through', async () => {
      const org = await seedOrg(platform, 'near');
      const keys = await createKeys(platform, org);
      const reservation = reservationInputTokens(PRICING_QUESTION.length + PRICING.title.length + PRICING.text.length) + MAX_OUTPUT;
      // Room for one reservation and 10 tokens: once the first chat is in flight nothing fits, and once it settled
      // (≈ 50 tokens) nothing fits either — so exactly one may pass, however the 30 interleave.
      await platform.database.knex('org_meters').insert({ org_id: org.orgId, month: monthOf(new Date()), used: QUOTA - reservation - 10, reserved: 0, window_start: new Date(0), window_count: 0 });
      const responses = await Promise.all(
        Array.from({ length: 30 }, () =>
          fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${keys.secret}`, 'content-type': 'application/json' }, body: JSON.stringify(chatBody(PRICING_QUESTION, { stream: false })) }),
        ),
      );
      const statuses = await Promise.all(responses.map(async (r) => (await r.arrayBuffer(), r.status)));
      expect(statuses.filter((s) => s === 200)).to.have.length(1);
      expect(statuses.filter((s) => s === 429)).to.have.length(29);
      const m = await meter(platform, org.orgId);
      expect(m.reserved).to.equal(0);
      expect(m.used).to.be.at.most(QUOTA);
    });
  });
});
