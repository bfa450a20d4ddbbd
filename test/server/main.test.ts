import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { createAltchaSolver } from '../../adapters/remote/altcha-solver.js';
import { readSse } from '../../adapters/remote/sse-reader.js';
import { FakeOpenAiServer } from '../fakes/openai-compatible-server.js';
import { testPostgres } from '../support/databases.js';
import { postgresAvailable } from '../support/postgres.js';
import { reservationInputTokens } from '../../server/services/chat-service.js';
import { chatBody, eventually, OFF_TOPIC_QUESTION } from './support/chat.js';
import { signupWithKeys, startChildServer, type ChildServer } from './support/child-server.js';

const run = promisify(execFile);
const requirePostgres = postgresAvailable() || process.env.KIT_REQUIRE_POSTGRES === '1';

/** A new, empty database on the test PostgreSQL: what a first `npm start` with DATABASE_URL meets. */
async function freshDatabase(admin: Knex, name: string): Promise<string> {
  await admin.raw(`drop database if exists ${name}`);
  await admin.raw(`create database ${name}`);
  const url = new URL((await testPostgres()).url);
  url.pathname = `/${name}`;
  return url.href;
}

/** Reads a /chat stream event by event, so a test can act in the middle of it. */
async function openStream(url: string, key: string, body: unknown): Promise<{ requestId: string; events: AsyncIterator<{ event: string; data: string }> }> {
  const res = await fetch(`${url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`chat ${res.status} ${await res.text()}`);
  return { requestId: res.headers.get('request-id')!, events: readSse(res.body!)[Symbol.asyncIterator]() };
}

async function rest(events: AsyncIterator<{ event: string; data: string }>): Promise<string[]> {
  const names: string[] = [];
  for (let next = await events.next(); !next.done; next = await events.next()) names.push(next.value.event);
  return names;
}

(requirePostgres ? describe : describe.skip)('server/main.ts (child processes on PostgreSQL 15)', function () {
  this.timeout(120_000);
  let admin: Knex;
  const children: ChildServer[] = [];
  const start = async (env: Record<string, string>) => {
    const child = await startChildServer(env);
    children.push(child);
    return child;
  };

  before(async () => {
    admin = knexFactory({ client: 'pg', connection: (await testPostgres()).url, pool: { min: 0, max: 2 } });
  });
  afterEach(async () => {
    await Promise.all(children.splice(0).map((c) => c.stop('SIGKILL')));
  });
  after(async () => {
    await admin.destroy();
  });

  it('seeds a demo organization on a fresh database and prints a copy-paste example that streams a cited answer; not again on restart', async () => {
    const databaseUrl = await freshDatabase(admin, 'kit_fresh_start');
    const first = await start({ DATABASE_URL: databaseUrl });
    const banner = first.stderr();
    expect(banner).to.match(/Demo organization created/).and.match(/owner {6}demo@example\.com \/ \S+/);
    const key = /demo key {3}(kit_pub_\w+)/.exec(banner)![1]!;
    // Run the printed commands exactly as a user pastes them into a shell.
    const from = banner.indexOf('  API=');
    const script = banner.slice(from, banner.indexOf('\n\n', from)).trim();
    const { stdout } = await run('bash', ['-c', script], { cwd: process.cwd(), timeout: 60_000 });
    const events = [...stdout.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(events[0]).to.equal('start');
    expect(events).to.include('citation');
    expect(events.at(-1)).to.equal('done');
    const answer = [...stdout.matchAll(/^event: delta\nid: \d+\ndata: (.*)$/gm)].map((m) => (JSON.parse(m[1]!) as { text: string }).text).join('');
    expect(answer).to.include('$49 per year');
    expect(await first.stop()).to.equal(0);

    const second = await start({ DATABASE_URL: databaseUrl });
    expect(second.stderr()).to.not.match(/Demo organization created/);
    expect(second.stderr()).to.include(key);
    const db = knexFactory({ client: 'pg', connection: databaseUrl });
    try {
      expect(await db('organizations').count<{ n: number }[]>('* as n')).to.deep.equal([{ n: 1 }]);
    } finally {
      await db.destroy();
    }
  });

  describe('SIGTERM during streams', () => {
    let upstream: FakeOpenAiServer;
    let upstreamUrl: string;
    before(async () => {
      upstream = new FakeOpenAiServer();
      upstreamUrl = await upstream.start();
    });
    after(async () => {
      await upstream.stop();
    });
    const slowAnswer = (chunks: number, delayMs: number) => ({
      steps: [{ content: 'Pro costs ' }, ...Array.from({ length: chunks }, () => [{ delayMs }, { content: '20 ' }]).flat(), { finish: 'stop' as const }, { usage: { prompt_tokens: 100, completion_tokens: chunks } }, { done: true as const }],
    });
    const usageOf = async (ids: string[]) => admin('usage_events').whereIn('request_id', ids).orderBy('request_id');

    it('lets in-flight streams finish, writes every usage row, then exits 0', async () => {
      const server = await start({ DATABASE_URL: (await testPostgres()).url, KIT_DEMO: 'false', KIT_INFERENCE_URL: upstreamUrl, KIT_INFERENCE_MODEL: 'slow-model' });
      const secret = await (await signupWithKeys(server.url, 'drain')).key('secret');
      upstream.script = slowAnswer(8, 100);
      const streams = await Promise.all([1, 2, 3].map(() => openStream(server.url, secret, chatBody())));
      for (const s of streams) expect((await s.events.next()).value?.event).to.equal('start');
      const exit = server.stop('SIGTERM');
      const endings = await Promise.all(streams.map((s) => rest(s.events)));
      for (const names of endings) expect(names.at(-1)).to.equal('done');
      expect(await exit).to.equal(0);
      const rows = await usageOf(streams.map((s) => s.requestId));
      expect(rows).to.have.length(3);
      for (const row of rows) expect(row).to.include({ model: 'slow-model', input_tokens: 100, output_tokens: 8 });
    });

    it('cuts streams still running after the grace period with an error event, and still meters each', async () => {
      const server = await start({ DATABASE_URL: (await testPostgres()).url, KIT_DEMO: 'false', KIT_INFERENCE_URL: upstreamUrl, KIT_INFERENCE_MODEL: 'slow-model', KIT_SHUTDOWN_GRACE_MS: '300' });
      const secret = await (await signupWithKeys(server.url, 'cut')).key('secret');
      upstream.script = slowAnswer(100, 100);
      const streams = await Promise.all([1, 2].map(() => openStream(server.url, secret, chatBody())));
      for (const s of streams) {
        expect((await s.events.next()).value?.event).to.equal('start');
        expect((await s.events.next()).value?.event).to.equal('delta');
      }
      const exit = server.stop('SIGTERM');
      const endings = await Promise.all(streams.map((s) => rest(s.events)));
      for (const names of endings) expect(names.at(-1)).to.equal('error');
      expect(await exit).to.equal(0);
      const rows = await usageOf(streams.map((s) => s.requestId));
      expect(rows).to.have.length(2);
      for (const row of rows) expect(row.output_tokens).to.be.greaterThan(0);
    });
  });

  it('holds rate limits, quotas and one-time challenge solutions across two server processes on one database', async () => {
    const env = {
      DATABASE_URL: (await testPostgres()).url,
      KIT_DEMO: 'false',
      KIT_ALTCHA_MAX_NUMBER: '1000',
      // Room in the month for the bursts below: every admitted chat reserves its worst case (input + 50 tokens).
      KIT_PLAN_LIMITS: JSON.stringify({ free: { requests_per_minute: 10, session_requests_per_minute: 4, monthly_tokens: 10_000, max_output_tokens: 50 } }),
    };
    const [a, b] = await Promise.all([start(env), start(env)]);
    const account = await signupWithKeys(a.url, 'replicas');
    const [secret, publishable, quotaKey] = [await account.key('secret'), await account.key('publishable'), await account.key('secret')];
    const post = (server: ChildServer, key: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/v1/chat`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    // A burst that straddles a minute boundary would split across two windows.
    if (60_000 - (Date.now() % 60_000) < 8_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 100));

    // Per key: 24 concurrent chats (refusals: no tokens) split over both processes; exactly 10 pass.
    const burst = await Promise.all(Array.from({ length: 24 }, (_, i) => post(i % 2 ? b : a, secret, chatBody(OFF_TOPIC_QUESTION, { stream: false }))));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(10);
    expect(statuses.filter((s) => s === 429)).to.have.length(14);
    const refused = burst.find((r) => r.status === 429)!;
    expect((await refused.json()).error.code).to.equal('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
    expect(refused.headers.get('ratelimit')).to.match(/^limit=10, remaining=0, reset=\d+$/);

    // One challenge solution, presented to both processes at once: accepted once.
    const config = await (await fetch(`${a.url}/v1/config`, { headers: { authorization: `Bearer ${publishable}` } })).json();
    const solution = await createAltchaSolver({ worker: false })(config.bot_challenge.challenge);
    const sessions = await Promise.all([a, b].map((s) =>
      fetch(`${s.url}/v1/session`, { method: 'POST', headers: { authorization: `Bearer ${publishable}`, 'content-type': 'application/json' }, body: JSON.stringify({ provider: 'altcha', solution }) }),
    ));
    expect(sessions.map((r) => r.status).sort()).to.deep.equal([201, 403]);
    const session = ((await sessions.find((r) => r.status === 201)!.json()) as { session: string }).session;

    // Per session: the session from one process works on the other, and its window is shared.
    const perSession: Response[] = [];
    for (let i = 0; i < 6; i++) perSession.push(await post(i % 2 ? b : a, publishable, chatBody(OFF_TOPIC_QUESTION, { stream: false }), { 'kit-session': session }));
    expect(perSession.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 429, 429]);
    // The widget shows this message to the visitor (with "Please try again in N s."): words a visitor reads.
    expect((await perSession[5]!.json()).error.message).to.equal('Too many questions from this browser in a minute (at most 4).');

    // Monthly quota: tokens used through one process exhaust it on the other. The month is first brought to room
    // for one reservation plus 10 tokens; the chat answered through `a` uses more than those 10.
    const body = chatBody(undefined, { stream: false }) as { messages: Array<{ content: string }>; sources: Array<{ title: string; text: string }> };
    const reservation = reservationInputTokens(body.messages[0]!.content.length + body.sources[0]!.title.length + body.sources[0]!.text.length) + 50;
    // The chats above are settled after their answers (docs/api.md): their reservations are released first.
    const reserved = async () => Number((await admin('org_meters').where({ org_id: account.orgId }).sum<{ r: string | null }[]>('reserved as r'))[0]?.r ?? 0);
    await eventually(async () => (await reserved()) === 0);
    await admin('org_meters').where({ org_id: account.orgId }).update({ used: 10_000 - reservation - 10 });
    const answered = await post(a, quotaKey, body);
    expect(answered.status).to.equal(200);
    const { usage } = (await answered.json()) as { usage: { input_tokens: number; output_tokens: number } };
    expect(usage.input_tokens + usage.output_tokens).to.be.greaterThan(10);
    const over = await post(b, quotaKey, body);
    expect(over.status).to.equal(429);
    expect((await over.json()).error.code).to.equal('quota_exceeded');
    expect(Number(over.headers.get('retry-after'))).to.be.greaterThan(0);
  });
});
