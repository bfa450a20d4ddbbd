import { expect } from 'chai';
import { embeddedWorkerOf } from '../../../adapters/node/knex-database.js';
import { migrateToLatest } from '../../../adapters/node/migrations/index.js';
import { createPgChatLimiter, monthOf, type ChatAdmissionLimits, type ChatLimiter } from '../../../adapters/node/pg-chat-limiter.js';
import { newId } from '../../../server/ids.js';
import { describeOnEachDatabase } from '../../support/databases.js';

const OPEN: ChatAdmissionLimits = { keyPerMinute: 1_000_000, sessionPerMinute: 1_000_000, orgPerMinute: 1_000_000, monthlyTokens: 1e12 };

describe('createPgChatLimiter', () => {
  describeOnEachDatabase('admission and settlement', (db) => {
    let keyId = '';
    const newOrg = async (): Promise<string> => {
      const orgId = newId('org');
      await db().knex('organizations').insert({ id: orgId, name: 'limiter', tier: 'free', created_at: new Date() });
      keyId = await newKey(orgId);
      return orgId;
    };
    const newKey = async (orgId: string): Promise<string> => {
      const id = newId('key');
      await db().knex('api_keys').insert({ id, org_id: orgId, kind: 'secret', name: 'k', prefix: 'kit_sec_', last4: 'abcd', hash: id, created_at: new Date() });
      return id;
    };
    const admit = (limiter: ChatLimiter, orgId: string, extra: Partial<Parameters<ChatLimiter['admit']>[0]> = {}) => {
      const now = extra.now ?? new Date();
      return limiter.admit({
        orgId, keyId, sessionId: null, now, limits: OPEN, reserveTokens: 100, requestId: newId('req'), model: 'm',
        expiresAt: new Date(now.getTime() + 60_000), ...extra,
      });
    };
    const meter = async (orgId: string, now = new Date()) => {
      const row = await db().knex('org_meters').where({ org_id: orgId, month: monthOf(now) }).first();
      return { used: Number(row?.used ?? 0), reserved: Number(row?.reserved ?? 0) };
    };

    before(async () => {
      await migrateToLatest(db().knex);
    });

    it('counts the key, the session and the organization in one-minute windows that reset in the next', async () => {
      const limiter = createPgChatLimiter(db().knex);
      const orgId = await newOrg();
      const at = (iso: string) => new Date(iso);
      const first = await admit(limiter, orgId, { keyId, sessionId: 's1', now: at('2026-03-01T12:00:10Z') });
      const second = await admit(limiter, orgId, { keyId, sessionId: 's2', now: at('2026-03-01T12:00:59Z') });
      const other = await admit(limiter, orgId, { keyId: await newKey(orgId), sessionId: 's1', now: at('2026-03-01T12:00:30Z') });
      expect([first.keyCount, second.keyCount, other.keyCount]).to.deep.equal([1, 2, 1]);
      expect([first.sessionCount, second.sessionCount, other.sessionCount]).to.deep.equal([1, 1, 2]);
      expect([first.orgCount, second.orgCount, other.orgCount]).to.deep.equal([1, 2, 3]);
      expect(first.windowResetAt.toISOString()).to.equal('2026-03-01T12:01:00.000Z');
      const next = await admit(limiter, orgId, { keyId, now: at('2026-03-01T12:01:00Z') });
      expect([next.keyCount, next.orgCount, next.sessionCount]).to.deep.equal([1, 1, null]);
    });

    it('refuses, without reserving, a request over the organization window even from a fresh key', async () => {
      const limiter = createPgChatLimiter(db().knex);
      const orgId = await newOrg();
      const limits = { ...OPEN, orgPerMinute: 3 };
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await admit(limiter, orgId, { keyId: await newKey(orgId), limits }));
      expect(results.map((r) => r.admitted)).to.deep.equal([true, true, true, false, false]);
      expect(await meter(orgId)).to.deep.equal({ used: 0, reserved: 300 });
      expect(await db().knex('usage_events').where({ org_id: orgId }).count<{ n: number }[]>('* as n')).to.deep.equal([{ n: 3 }]);
    });

    it('never reserves past the month when many requests race from several replicas, and writes one row per admission', async () => {
      const orgId = await newOrg();
      const replicas = [createPgChatLimiter(db().knex), createPgChatLimiter(db().knex), createPgChatLimiter(db().knex)];
      const limits = { ...OPEN, monthlyTokens: 1_050 };
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => admit(replicas[i % 3]!, orgId, { limits })));
      expect(results.filter((r) => r.admitted)).to.have.length(10);
      expect(await meter(orgId)).to.deep.equal({ used: 0, reserved: 1_000 });
      const rows = await db().knex('usage_events').where({ org_id: orgId });
      expect(rows).to.have.length(10);
      expect(rows.every((r) => r.state === 'reserved' && r.reserved_tokens === 100)).to.equal(true);
    });

    it('decides admissions that arrive together (one statement) exactly as one after the other, in arrival order', async () => {
      const limiter = createPgChatLimiter(db().knex);
      const orgId = await newOrg();
      const keys = [keyId, await newKey(orgId)];
      const now = new Date();
      const limits = { keyPerMinute: 5, sessionPerMinute: 3, orgPerMinute: 11, monthlyTokens: 2_000 };
      // The first creates the month row alone; the 13 behind it arrive while it is in the database and go together.
      const plan = [
        { key: 0, session: null, reserve: 300 },
        ...[400, 700, 300, 200, 100, 50, 20, 20, 20, 20, 20, 20, 20].map((reserve, i) => ({ key: i % 2, session: i % 3 === 2 ? null : `s${i % 3}`, reserve })),
      ];
      const results = await Promise.all(plan.map((p) => admit(limiter, orgId, { keyId: keys[p.key]!, sessionId: p.session, reserveTokens: p.reserve, limits, now })));
      // The same requests admitted one by one, in order.
      const counts = new Map<string, number>();
      const bump = (k: string) => counts.set(k, (counts.get(k) ?? 0) + 1).get(k)!;
      let reserved = 0;
      const expected = plan.map((p, i) => {
        const keyCount = bump(`k${p.key}`);
        const sessionCount = p.session === null ? null : bump(p.session);
        const orgCount = i + 1;
        const admitted = keyCount <= limits.keyPerMinute && (sessionCount ?? 0) <= limits.sessionPerMinute && orgCount <= limits.orgPerMinute && reserved + p.reserve <= limits.monthlyTokens;
        if (admitted) reserved += p.reserve;
        return { admitted, keyCount, sessionCount, orgCount, tokensUsed: 0, tokensReserved: reserved };
      });
      expect(results.map(({ windowResetAt: _, ...r }) => r)).to.deep.equal(expected);
      expect(expected.filter((e) => e.admitted).length).to.be.within(3, plan.length - 3); // the limits really bit
      expect(await meter(orgId, now)).to.deep.equal({ used: 0, reserved });
      const rows = await db().knex('usage_events').where({ org_id: orgId });
      expect(rows.map((r) => Number(r.reserved_tokens)).sort((a, b) => a - b)).to.deep.equal(plan.filter((_, i) => expected[i]!.admitted).map((p) => p.reserve).sort((a, b) => a - b));
      // The windows hold every request, admitted or not: the next one of key 0 counts on from there.
      const next = await admit(limiter, orgId, { keyId: keys[0]!, limits, now });
      expect([next.keyCount, next.orgCount]).to.deep.equal([counts.get('k0')! + 1, plan.length + 1]);
    });

    it('keeps the books exact when settlements and admissions of an organisation arrive together (they share statements)', async () => {
      const limiter = createPgChatLimiter(db().knex);
      const orgId = await newOrg();
      const now = new Date();
      const limits = { ...OPEN, monthlyTokens: 6_000 };
      let open: string[] = [];
      let admitted = 0;
      let spentTotal = 0;
      for (let wave = 0; wave < 8; wave++) {
        const settling = open;
        open = [];
        const spent = settling.map((_, i) => 20 + ((wave * 7 + i * 13) % 180));
        const settle = (i: number) => limiter.settle({ orgId, requestId: settling[i]!, admittedAt: now, model: 'm', inputTokens: spent[i]!, outputTokens: 0, refused: false }).then(() => null);
        const admitOne = async () => {
          const requestId = newId('req');
          const r = await admit(limiter, orgId, { requestId, now, limits, reserveTokens: 400 });
          if (r.admitted) open.push(requestId);
          return r;
        };
        // One admission goes to the database, the first settlement follows it (its statement starts after this
        // tick), 7 admissions wait behind the first; the other settlements wait behind the first settlement — and, on PostgreSQL, go
        // with the 7 admissions when the first admission returns before it.
        const first = [admitOne(), ...(settling.length > 0 ? [settle(0)] : []), ...Array.from({ length: 7 }, admitOne)];
        await new Promise((resolve) => setImmediate(resolve));
        const results = await Promise.all([...first, ...settling.slice(1).map((_, i) => settle(i + 1))]);
        spentTotal += spent.reduce((a, b) => a + b, 0);
        for (const r of results) {
          if (r === null) continue;
          if (r.admitted) {
            admitted++;
            expect(r.tokensUsed + r.tokensReserved, 'never over the month').to.be.at.most(limits.monthlyTokens);
          }
        }
        const m = await meter(orgId, now);
        expect(m).to.deep.equal({ used: spentTotal, reserved: open.length * 400 });
      }
      expect(admitted).to.be.greaterThan(8 * 3); // the released reservations were admitted again
      await Promise.all(open.map((requestId) => limiter.settle({ orgId, requestId, admittedAt: now, model: 'm', inputTokens: 1, outputTokens: 0, refused: false })));
      const rows = await db().knex('usage_events').where({ org_id: orgId });
      expect(rows).to.have.length(admitted);
      expect(rows.every((r) => r.state === 'settled')).to.equal(true);
      expect(await meter(orgId, now)).to.deep.equal({ used: spentTotal + open.length, reserved: 0 });
    });

    it('settles a chat to its real figures once, moving its reservation into used', async () => {
      const limiter = createPgChatLimiter(db().knex);
      const orgId = await newOrg();
      const now = new Date();
      const requestIds = [newId('req'), newId('req'), newId('req')];
      for (const requestId of requestIds) expect((await admit(limiter, orgId, { requestId, now })).admitted).to.equal(true);
      const settle = (requestId: string, input: number, output: number) => limiter.settle({ orgId, requestId, admittedAt: now, model: 'm2', inputTokens: input, outputTokens: output, refused: false });
      await Promise.all([settle(requestIds[0]!, 30, 20), settle(requestIds[1]!, 10, 5)]);
      expect(await meter(orgId, now)).to.deep.equal({ used: 65, reserved: 100 });
      await settle(requestIds[0]!, 999, 999); // a second settlement of the same chat changes nothing
      expect(await meter(orgId, now)).to.deep.equal({ used: 65, reserved: 100 });
      const row = await db().knex('usage_events').where({ request_id: requestIds[0] }).first();
      expect(row).to.deep.include({ state: 'settled', input_tokens: 30, output_tokens: 20, model: 'm2' });
    });

    it('settles in one batch chats admitted at different times and across a month boundary, each once, in its own month', async () => {
      // No sweep: admitted in the future, a chat admitted at the next month would expire the first ones (now + 60 s).
      const limiter = createPgChatLimiter(db().knex, { sweepEveryMs: Number.POSITIVE_INFINITY });
      const orgId = await newOrg();
      const now = new Date();
      const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      const times = [new Date(nextMonth.getTime() - 60_000), new Date(nextMonth.getTime() - 1), new Date(nextMonth.getTime() + 1_000)];
      const requestIds = times.map(() => newId('req'));
      for (let i = 0; i < times.length; i++) expect((await admit(limiter, orgId, { requestId: requestIds[i]!, now: times[i]! })).admitted).to.equal(true);
      // Settled in the same tick: one statement for the three rows, in two monthly partitions on PostgreSQL.
      const settleAll = () => Promise.all(times.map((admittedAt, i) => limiter.settle({ orgId, requestId: requestIds[i]!, admittedAt, model: 'm', inputTokens: 10 * (i + 1), outputTokens: 1, refused: false })));
      await settleAll();
      await settleAll(); // replayed: changes nothing
      expect(await meter(orgId, times[0])).to.deep.equal({ used: 11 + 21, reserved: 0 });
      expect(await meter(orgId, times[2])).to.deep.equal({ used: 31, reserved: 0 });
      const rows = await db().knex('usage_events').where({ org_id: orgId }).orderBy('created_at');
      expect(rows.map((r) => [r.request_id, r.state, r.input_tokens])).to.deep.equal(requestIds.map((id, i) => [id, 'settled', 10 * (i + 1)]));
    });

    /** The limiter's round trips, by the names of their statements (settlement statements of their own: 'settle'), until `stop()`. */
    const recordRoundTrips = (): { trips: string[]; stop(): void } => {
      const trips: string[] = [];
      const worker = embeddedWorkerOf(db().knex);
      if (worker) {
        const { queryPrepared, queryAutocommit } = worker;
        worker.queryPrepared = function (name, ...rest) {
          trips.push(/settle_one|settle_v/.test(name) ? 'settle' : name);
          return queryPrepared.call(this, name, ...rest);
        };
        worker.queryAutocommit = function (sql, ...rest) {
          trips.push(/update usage_events/.test(sql) ? 'settle' : 'other');
          return queryAutocommit.call(this, sql, ...rest);
        };
        return { trips, stop: () => Object.assign(worker, { queryPrepared, queryAutocommit }) };
      }
      type Connection = { query(...args: unknown[]): unknown };
      const client = db().knex.client as { acquireConnection(): Promise<Connection> };
      const acquire = client.acquireConnection;
      const wrapped = new WeakSet<Connection>();
      let on = true;
      client.acquireConnection = async function () {
        const connection = await acquire.call(this);
        if (!wrapped.has(connection)) {
          wrapped.add(connection);
          const query = connection.query;
          connection.query = function (...args: unknown[]) {
            const name = (args[0] as { name?: string } | undefined)?.name;
            if (on && name) trips.push(/settle_one|settle_v/.test(name) ? 'settle' : name);
            return query.apply(this, args);
          };
        }
        return connection;
      };
      return { trips, stop: () => ((on = false), (client.acquireConnection = acquire)) };
    };

    it('never gives a settlement a round trip of its own while an admission of its organisation is in the database: the next admission statement takes it along', async () => {
      const limiter = createPgChatLimiter(db().knex, { settleDelayMs: 1 });
      const orgId = await newOrg();
      const now = new Date();
      const done = newId('req');
      expect((await admit(limiter, orgId, { requestId: done, now })).admitted).to.equal(true); // writes the month row
      const recorder = recordRoundTrips();
      try {
        // The first admission is held in the database (PostgreSQL: behind the month row's lock; PGlite: behind an
        // open transaction) well past the settlement's delay.
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let locked!: () => void;
        const isLocked = new Promise<void>((resolve) => (locked = resolve));
        const trx = db().knex.transaction(async (t) => {
          await t('org_meters').where({ org_id: orgId }).forUpdate();
          locked();
          await held;
        });
        await isLocked;
        const first = admit(limiter, orgId, { now });
        await new Promise((resolve) => setTimeout(resolve, 20));
        const settled = limiter.settle({ orgId, requestId: done, admittedAt: now, model: 'm', inputTokens: 7, outputTokens: 3, refused: false });
        await new Promise((resolve) => setTimeout(resolve, 50)); // 50 × the settlement's delay
        const second = admit(limiter, orgId, { now }); // waits for the first, then goes with the settlement
        release();
        await trx;
        const results = await Promise.all([first, second, settled]);
        expect(results.slice(0, 2).map((r) => r!.admitted)).to.deep.equal([true, true]);
        expect(recorder.trips.filter((t) => t === 'settle'), 'a settlement round trip of its own').to.deep.equal([]);
        // Inside the second admission's statement — one statement, on PGlite one message to the worker, for both.
        expect(recorder.trips, 'the settlement went inside the second admission statement').to.include('kit_chat_admit_settle_batch_v3');
      } finally {
        recorder.stop();
      }
      expect(await meter(orgId, now)).to.deep.equal({ used: 10, reserved: 200 });
      expect((await db().knex('usage_events').where({ request_id: done }).first()).state).to.equal('settled');
    });

    it('releases reservations whose process died once they expire, and only those', async () => {
      const limiter = createPgChatLimiter(db().knex, { sweepEveryMs: Number.POSITIVE_INFINITY }); // only the explicit sweep below
      const orgId = await newOrg();
      const now = new Date();
      await admit(limiter, orgId, { now, expiresAt: new Date(now.getTime() - 1) });
      await admit(limiter, orgId, { now, expiresAt: new Date(now.getTime() + 3_600_000) });
      expect(await meter(orgId, now)).to.deep.equal({ used: 0, reserved: 200 });
      expect(await limiter.sweep(now)).to.be.at.least(1);
      expect(await meter(orgId, now)).to.deep.equal({ used: 0, reserved: 100 });
      expect((await db().knex('usage_events').where({ org_id: orgId }).orderBy('state')).map((r) => r.state)).to.deep.equal(['expired', 'reserved']);
    });
  });
});
