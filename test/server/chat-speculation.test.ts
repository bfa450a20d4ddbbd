import { expect } from 'chai';
import type { Platform } from '../../server/platform.js';
import { resolve } from '../../server/tokens.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { createTestPlatform, listen, seedOrg, testClock } from '../support/platform.js';
import { chatBody, createKeys, OFF_TOPIC_QUESTION, PRICING_QUESTION } from './support/chat.js';

const PER_MINUTE = 4;
const PLAN_LIMITS = JSON.stringify({ free: { requests_per_minute: PER_MINUTE, org_requests_per_minute: 100_000, session_requests_per_minute: 100_000 } });

describe('/chat works ahead while its admission statement runs, only for organisations admitted last (issue 12 §1)', function () {
  this.timeout(120_000);

  describeOnEachDatabase('speculation before admission', (db) => {
    let platform: Platform;
    let server: { url: string; close(): Promise<void> };

    before(async () => {
      // A held clock: the key's one-minute window cannot roll over between the 4th and the 5th request.
      platform = await createTestPlatform({ database: db(), clock: testClock(), env: { KIT_PLAN_LIMITS: PLAN_LIMITS } });
      server = await listen(platform);
    });
    after(async () => {
      await server.close();
      await platform.close();
    });

    it('the same answers, refusals and usage rows; an organisation refused by its limits gets no gate before admission', async () => {
      const org = await seedOrg(platform, 'speculation');
      const { secret } = await createKeys(platform, org);
      const chat = resolve(platform.container, 'ChatService');
      const ask = async (question: string) => {
        const res = await fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify(chatBody(question, { stream: false })) });
        return { status: res.status, body: await res.json() };
      };
      const strip = (answer: Record<string, unknown>) => ({ ...answer, id: undefined });

      const before = chat.speculated;
      const first = await ask(PRICING_QUESTION); // no hint yet: admission first, then the corpus is prepared
      expect(first.status).to.equal(200);
      expect(chat.speculated - before).to.equal(0);

      const second = await ask(PRICING_QUESTION); // admitted last, corpus cached: the gate ran during admission
      expect(second.status).to.equal(200);
      expect(chat.speculated - before).to.equal(1);
      expect(strip(second.body)).to.deep.equal(strip(first.body));

      const offTopic = await ask(OFF_TOPIC_QUESTION);
      expect(offTopic.status).to.equal(200);
      expect(offTopic.body.refused).to.equal(true);
      expect(offTopic.body.finish_reason).to.equal('refused');
      expect(chat.speculated - before).to.equal(2);

      const fourth = await ask(PRICING_QUESTION);
      expect(strip(fourth.body)).to.deep.equal(strip(first.body));

      // Over the key's limit: the first refusal may have worked ahead (its organisation was admitted last) ...
      const refused = await ask(PRICING_QUESTION);
      expect(refused.status).to.equal(429);
      expect(refused.body.error.code).to.equal('rate_limited');
      const afterRefusal = chat.speculated;
      // ... every later one goes back to admission first: no gate, no engine before the statement says no.
      for (let i = 0; i < 5; i++) {
        const again = await ask(PRICING_QUESTION);
        expect(again.status).to.equal(429);
      }
      expect(chat.speculated).to.equal(afterRefusal);

      await chat.settledFor(org.orgId);
      const rows = await db().knex('usage_events').where({ org_id: org.orgId });
      expect(rows).to.have.length(PER_MINUTE); // exactly one per chat that reached the gate
      expect(rows.filter((r) => r.state !== 'settled')).to.have.length(0);
      expect(rows.filter((r) => r.refused === true || r.refused === 1)).to.have.length(1);
    });
  });
});
