import { expect } from 'chai';
import { ContainerModule } from 'inversify';
import type { KnexDatabase } from '../../adapters/node/knex-database.js';
import { createPgChatLimiter, monthOf, type ChatLimiter, type ChatSettlement } from '../../adapters/node/pg-chat-limiter.js';
import type { Platform } from '../../server/platform.js';
import { RESERVATION_TTL_MS, reservationInputTokens } from '../../server/services/chat-service.js';
import { resolve, TOKENS } from '../../server/tokens.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { createTestPlatform, listen, seedOrg, type SeededOrg } from '../support/platform.js';
import { chatBody, createKeys, PRICING, PRICING_QUESTION } from './support/chat.js';

const QUOTA = 200_000; // the free plan's monthly tokens
const MAX_OUTPUT = 512; // the free plan's answer cap
const PLAN_LIMITS = JSON.stringify({ free: { requests_per_minute: 100_000, org_requests_per_minute: 100_000, session_requests_per_minute: 100_000 } });

/** The real limiter, with settlements held back until `release()` (a settlement still in flight, or a process that dies first). */
function heldSettlements(inner: ChatLimiter): ChatLimiter & { release(): void; hold(): void; readonly waiting: number } {
  let gate: Promise<void> | null = null;
  let open: () => void = () => undefined;
  let waiting = 0;
  return {
    admit: (r) => inner.admit(r),
    sweep: (now) => inner.sweep(now),
    async settle(s: ChatSettlement) {
      if (gate) {
        waiting++;
        await gate;
        waiting--;
      }
      return inner.settle(s);
    },
    hold() {
      gate = new Promise<void>((r) => (open = r));
    },
    release() {
      gate = null;
      open();
    },
    get waiting() {
      return waiting;
    },
  };
}

async function meter(knex: KnexDatabase['knex'], orgId: string): Promise<{ used: number; reserved: number }> {
  const row = await knex('org_meters').where({ org_id: orgId, month: monthOf(new Date()) }).first();
  return { used: Number(row?.used ?? 0), reserved: Number(row?.reserved ?? 0) };
}

const ask = (url: string, secret: string) =>
  fetch(`${url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: JSON.stringify(chatBody(PRICING_QUESTION, { stream: false })) });

describe('/chat answers before its usage row is settled (issue 12 §1)', function () {
  this.timeout(120_000);

  describeOnEachDatabase('settlement after the response', (db) => {
    let platform: Platform;
    let server: { url: string; close(): Promise<void> };
    let limiter: ReturnType<typeof heldSettlements>;
    let org: SeededOrg;
    let secret: string;

    before(async () => {
      const modules = [
        new ContainerModule(({ rebind }) => {
          rebind<ChatLimiter>(TOKENS.ChatLimiter).toResolvedValue((database: KnexDatabase) => (limiter = heldSettlements(createPgChatLimiter(database.knex))), [TOKENS.Database]);
        }),
      ];
      platform = await createTestPlatform({ database: db(), env: { KIT_PLAN_LIMITS: PLAN_LIMITS }, modules });
      server = await listen(platform);
      org = await seedOrg(platform, 'settle');
      secret = (await createKeys(platform, org)).secret;
    });
    after(async () => {
      limiter?.release();
      await server.close();
      await platform.close();
    });

    it('answers while the settlement waits; GET /usage on this replica waits for it and then counts the chat settled', async () => {
      limiter.hold();
      const res = await ask(server.url, secret);
      expect(res.status).to.equal(200);
      const answer = await res.json();
      expect(answer.refused).to.equal(false);
      const requestId = res.headers.get('request-id')!;
      // Answered, not settled yet: the row is `reserved` and the month still holds the reservation.
      const row = await db().knex('usage_events').where({ org_id: org.orgId, request_id: requestId }).first();
      expect(row.state).to.equal('reserved');
      expect((await meter(db().knex, org.orgId)).reserved).to.be.greaterThan(0);
      expect(limiter.waiting).to.equal(1);

      let read = false;
      const usage = fetch(`${server.url}/v1/usage`, { headers: { authorization: `Bearer ${org.members.viewer.token}` } }).then(async (r) => {
        read = true;
        return { status: r.status, body: await r.json() };
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(read, 'GET /usage answered before the settlement').to.equal(false);
      limiter.release();
      const report = await usage;
      expect(report.status).to.equal(200);
      expect(report.body.total.requests).to.equal(1);
      expect(report.body.total.input_tokens + report.body.total.output_tokens).to.equal(answer.usage.input_tokens + answer.usage.output_tokens);
      const settled = await db().knex('usage_events').where({ org_id: org.orgId, request_id: requestId }).first();
      expect(settled.state).to.equal('settled');
      expect(await meter(db().knex, org.orgId)).to.deep.equal({ used: answer.usage.input_tokens + answer.usage.output_tokens, reserved: 0 });
    });

    it('a process that dies between the answer and the settlement: the sweep releases the row, a late settlement changes nothing', async () => {
      const dead = await seedOrg(platform, 'dies');
      const key = (await createKeys(platform, dead)).secret;
      limiter.hold(); // the settlement never reaches the database while the "process" is down
      const res = await ask(server.url, key);
      expect(res.status).to.equal(200);
      await res.json();
      const requestId = res.headers.get('request-id')!;
      const reserved = await meter(db().knex, dead.orgId);
      expect(reserved.reserved).to.be.greaterThan(0);

      // Another replica's sweep, once the reservation has expired.
      const released = await createPgChatLimiter(db().knex).sweep(new Date(Date.now() + RESERVATION_TTL_MS + 60_000));
      expect(released).to.be.at.least(1);
      const row = await db().knex('usage_events').where({ org_id: dead.orgId, request_id: requestId }).first();
      expect(row.state).to.equal('expired');
      expect(await meter(db().knex, dead.orgId)).to.deep.equal({ used: 0, reserved: 0 });

      // Had it been a stall and not a death, the settlement arriving afterwards finds the row released: no change.
      limiter.release();
      await resolve(platform.container, 'ChatService').settledFor(dead.orgId);
      expect((await db().knex('usage_events').where({ org_id: dead.orgId, request_id: requestId }).first()).state).to.equal('expired');
      expect(await meter(db().knex, dead.orgId)).to.deep.equal({ used: 0, reserved: 0 });
      expect(await db().knex('usage_events').where({ org_id: dead.orgId })).to.have.length(1);
    });

    it('40 parallel chats at the quota edge, waves sent without waiting for settlements: never over the month, one row per chat', async () => {
      const edge = await seedOrg(platform, 'edge');
      const keys = await createKeys(platform, edge);
      const reservation = reservationInputTokens(PRICING_QUESTION.length + PRICING.title.length + PRICING.text.length) + MAX_OUTPUT;
      // Room for 3 reservations at once; a settled chat costs far less than its reservation, so settlements make room.
      await db().knex('org_meters').insert({ org_id: edge.orgId, month: monthOf(new Date()), used: QUOTA - 3 * reservation - 10, reserved: 0, window_start: new Date(0), window_count: 0 });
      const samples: Array<{ used: number; reserved: number }> = [];
      let sampling = true;
      const sampler = (async () => {
        while (sampling) samples.push(await meter(db().knex, edge.orgId));
      })();

      const statuses: number[] = [];
      let answeredTokens = 0;
      for (let wave = 0; wave < 4; wave++) {
        const responses = await Promise.all(Array.from({ length: 40 }, () => ask(server.url, keys.secret)));
        for (const r of responses) {
          const json = await r.json();
          statuses.push(r.status);
          if (r.status === 200) answeredTokens += json.usage.input_tokens + json.usage.output_tokens;
          else expect(json.error.code, JSON.stringify(json)).to.equal('quota_exceeded');
        }
      }
      sampling = false;
      await sampler;
      await resolve(platform.container, 'ChatService').settledFor(edge.orgId);

      const admitted = statuses.filter((s) => s === 200).length;
      expect(admitted).to.be.greaterThan(0);
      expect(statuses.filter((s) => s === 429).length).to.be.greaterThan(0); // the edge was reached
      // At every moment sampled, what is used and what is held fit the month: reservations are held until settled.
      expect(samples.length).to.be.greaterThan(0);
      for (const m of samples) expect(m.used + m.reserved).to.be.at.most(QUOTA);
      // Exactly one row per admitted chat, all settled, and the month's total is theirs.
      const rows = await db().knex('usage_events').where({ org_id: edge.orgId });
      expect(rows).to.have.length(admitted);
      expect(rows.filter((r) => r.state !== 'settled')).to.have.length(0);
      const rowTokens = rows.reduce((sum, r) => sum + Number(r.input_tokens) + Number(r.output_tokens), 0);
      expect(rowTokens).to.equal(answeredTokens);
      const m = await meter(db().knex, edge.orgId);
      expect(m).to.deep.equal({ used: QUOTA - 3 * reservation - 10 + rowTokens, reserved: 0 });
      expect(m.used).to.be.at.most(QUOTA);
    });
  });
});
