import { expect } from 'chai';
import { KitError, isKitError } from '../../../core/errors/index.js';
import type { AltchaChallenge } from '../../../core/ports/bot-challenge.port.js';
import { createAltchaSolver, type ChallengeSolver } from '../../../adapters/remote/altcha-solver.js';
import { createFetchTransport } from '../../../adapters/remote/fetch-transport.js';
import { createPlatformClient, type PlatformClient, type PlatformClientOptions } from '../../../adapters/remote/platform-client.js';
import type { SseEvent } from '../../../adapters/remote/sse-reader.js';
import { FAKE_PUBLISHABLE_KEY, startFakePlatformApi, type FakePlatformApi, type FakePlatformApiOptions } from '../../fakes/platform-api-server.js';

const BODY = { messages: [{ role: 'user' as const, content: 'How much is Pro?' }], sources: [{ url: 'https://example.com/pricing', title: 'Pricing', text: 'Pro costs 20 €.' }], model: 'auto' };

async function collect(events: AsyncIterable<SseEvent>): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('createPlatformClient', () => {
  let api: FakePlatformApi;
  let client: PlatformClient;
  let solved: AltchaChallenge[];

  async function setup(apiOptions: FakePlatformApiOptions = {}, clientOptions: Partial<PlatformClientOptions> = {}): Promise<void> {
    api = await startFakePlatformApi(apiOptions);
    solved = [];
    const solver = createAltchaSolver();
    const solveChallenge: ChallengeSolver = (challenge, signal) => {
      solved.push(challenge);
      return solver(challenge, signal);
    };
    client = createPlatformClient({ baseUrl: api.url, apiKey: FAKE_PUBLISHABLE_KEY, transport: createFetchTransport(), solveChallenge, retryDelayMs: 5, ...clientOptions });
  }

  afterEach(async () => {
    client?.destroy();
    await api?.close();
  });

  it('returns the typed config and sends the publishable key as a bearer token', async () => {
    await setup();
    const config = await client.getConfig();
    expect(config.tier).to.equal('free');
    expect(config.limits.session_ttl_seconds).to.equal(600);
    expect(config.bot_challenge.provider).to.equal('altcha');
    expect(api.requests[0]?.headers.authorization).to.equal(`Bearer ${FAKE_PUBLISHABLE_KEY}`);
  });

  it('acquires a session with a valid altcha solution once and reuses it for later chats', async () => {
    await setup();
    await client.getConfig();
    await collect(client.chat(BODY));
    await collect(client.chat(BODY));
    expect(api.count('POST /session')).to.equal(1);
    expect(api.count('GET /config')).to.equal(1); // the challenge of getConfig() served the first session
    expect(solved).to.have.length(1);
    const payload = JSON.parse(Buffer.from(api.solutions[0] as string, 'base64').toString('utf8')) as Record<string, unknown>;
    expect(payload).to.include({ challenge: solved[0]?.challenge, salt: solved[0]?.salt, signature: solved[0]?.signature });
    expect(payload.number).to.be.a('number');
    const chats = api.requests.filter((r) => r.path === '/chat');
    expect(chats.map((r) => r.headers['kit-session'])).to.deep.equal([api.issued[0], api.issued[0]]);
    expect(chats[0]?.body).to.deep.equal({ ...BODY, stream: true });
  });

  it('shares one acquisition between concurrent chats', async () => {
    await setup();
    await Promise.all([collect(client.chat(BODY)), collect(client.chat(BODY)), client.getSession()]);
    expect(api.count('POST /session')).to.equal(1);
  });

  it('sends no solution work when the provider is none', async () => {
    await setup({ provider: 'none' });
    await collect(client.chat(BODY));
    expect(solved).to.have.length(0);
    expect(api.requests.find((r) => r.path === '/session')?.body).to.deep.equal({ provider: 'none', solution: null });
  });

  it('fails clearly when the provider is turnstile and no token hook is given', async () => {
    await setup({ provider: 'turnstile' });
    const err = await rejection(client.getSession());
    expect(err).to.be.instanceOf(KitError).with.property('code', 'challenge_failed');
    expect((err as Error).message).to.match(/getTurnstileToken/);
    expect(api.count('POST /session')).to.equal(0);
  });

  it('sends the turnstile hook token as the solution', async () => {
    api = await startFakePlatformApi({ provider: 'turnstile' });
    const siteKeys: string[] = [];
    client = createPlatformClient({
      baseUrl: api.url,
      apiKey: FAKE_PUBLISHABLE_KEY,
      transport: createFetchTransport(),
      solveChallenge: () => Promise.reject(new Error('not altcha')),
      getTurnstileToken: async (siteKey) => {
        siteKeys.push(siteKey);
        return 'turnstile-token';
      },
    });
    await client.getSession();
    expect(siteKeys).to.deep.equal(['0x4AAAAAAAfake']);
    expect(api.requests.find((r) => r.path === '/session')?.body).to.deep.equal({ provider: 'turnstile', solution: 'turnstile-token' });
  });

  it('renews the session shortly before it expires', async () => {
    let offset = 0;
    await setup({}, { now: () => Date.now() + offset });
    const first = await client.getSession();
    expect(first.renewAt).to.be.below(first.expiresAt);
    expect(first.expiresAt - first.renewAt).to.equal(30_000);
    offset = 600_000 - 29_000; // inside the renewal window, not yet expired
    await collect(client.chat(BODY));
    expect(api.issued).to.have.length(2);
    expect(api.requests.find((r) => r.path === '/chat')?.headers['kit-session']).to.equal(api.issued[1]);
  });

  it('renews once after a session_required answer and then answers', async () => {
    await setup();
    await collect(client.chat(BODY));
    api.forgetSessions();
    const events = await collect(client.chat(BODY));
    expect(events.at(-1)?.event).to.equal('done');
    expect(api.issued).to.have.length(2);
    const chats = api.requests.filter((r) => r.path === '/chat').map((r) => r.headers['kit-session']);
    expect(chats).to.deep.equal([api.issued[0], api.issued[0], api.issued[1]]);
  });

  it('fails with session_required when the renewed session is refused too', async () => {
    await setup();
    api.script('POST /chat', { status: 401, code: 'session_required' }, { status: 401, code: 'session_required' });
    const err = await rejection(collect(client.chat(BODY)));
    expect(err).to.be.instanceOf(KitError).with.property('code', 'session_required');
    expect(api.count('POST /chat')).to.equal(2);
    expect(api.count('POST /session')).to.equal(2);
  });

  it('surfaces rate_limited with the retry time and the request id', async () => {
    await setup();
    api.script('POST /chat', { status: 429, code: 'rate_limited', message: 'Slow down.', headers: { 'retry-after': '30', ratelimit: 'limit=10, remaining=0, reset=30' } });
    const err = (await rejection(collect(client.chat(BODY)))) as KitError;
    expect(err).to.be.instanceOf(KitError);
    expect(err.code).to.equal('rate_limited');
    expect(err.message).to.equal('Slow down.');
    expect(err.details?.retry_after_seconds).to.equal(30);
    expect(err.details?.request_id).to.match(/^req_/);
    expect(api.count('POST /chat')).to.equal(1);
  });

  it('retries GET /config after a 502 and a dropped connection, then succeeds', async () => {
    await setup();
    api.script('GET /config', { status: 502, code: 'upstream_unavailable' }, { drop: true });
    const config = await client.getConfig();
    expect(config.tier).to.equal('free');
    expect(api.count('GET /config')).to.equal(3);
  });

  it('gives up on GET /config after maxAttempts with the last error', async () => {
    await setup({}, { maxAttempts: 2 });
    api.script('GET /config', { status: 503, code: 'billing_unavailable' }, { status: 503, rawBody: '<html>busy</html>' }, { status: 503 });
    const err = await rejection(client.getConfig());
    expect(err).to.be.instanceOf(KitError).with.property('code', 'network_error'); // a gateway page, not a Kit error body
    expect(api.count('GET /config')).to.equal(2);
  });

  it('does not retry GET /config on a client error', async () => {
    await setup();
    api.script('GET /config', { status: 403, code: 'origin_not_allowed', message: 'Origin not allowed.' });
    const err = await rejection(client.getConfig());
    expect(err).to.be.instanceOf(KitError).with.property('code', 'origin_not_allowed');
    expect(api.count('GET /config')).to.equal(1);
  });

  it('retries POST /session on a 503 and solves a fresh challenge after challenge_failed', async () => {
    await setup();
    api.script('POST /session', { status: 503, code: 'upstream_unavailable' }, { status: 403, code: 'challenge_failed' });
    const session = await client.getSession();
    expect(session.token).to.equal(api.issued[0]);
    expect(api.count('POST /session')).to.equal(3);
    expect(solved).to.have.length(2);
  });

  it('does not retry POST /chat after a 502 or a connection lost mid-stream', async () => {
    await setup();
    await client.getSession();
    api.script('POST /chat', { status: 502, code: 'upstream_unavailable' });
    expect(await rejection(collect(client.chat(BODY)))).to.be.instanceOf(KitError).with.property('code', 'upstream_unavailable');
    api.script('POST /chat', { stream: [{ event: 'start', data: { request_id: 'r', model: 'm', mode: 'remote' } }, { raw: 'id: 2\nevent: delta\ndata: {"te' }, { waitMs: 30 }, { destroy: true }] });
    const seen: string[] = [];
    const err = await rejection((async () => {
      for await (const e of client.chat(BODY)) seen.push(e.event);
    })());
    expect(seen).to.deep.equal(['start']);
    expect(err).to.be.instanceOf(KitError).with.property('code', 'network_error');
    expect(api.count('POST /chat')).to.equal(2);
  });

  it('maps an unreachable service to network_error', async () => {
    await setup();
    const url = api.url;
    await api.close();
    client = createPlatformClient({ baseUrl: url, apiKey: FAKE_PUBLISHABLE_KEY, transport: createFetchTransport(), solveChallenge: createAltchaSolver(), retryDelayMs: 1 });
    const err = await rejection(client.getConfig());
    expect(err).to.be.instanceOf(KitError).with.property('code', 'network_error');
    api = await startFakePlatformApi(); // for afterEach
  });

  it('closes the server connection when the caller aborts mid-stream', async () => {
    await setup();
    api.script('POST /chat', { stream: [{ event: 'start', data: { request_id: 'r', model: 'm', mode: 'remote' } }, { event: 'delta', data: { text: 'Hel' } }, { hang: true }] });
    const controller = new AbortController();
    const closed = api.waitForChatClose();
    const seen: string[] = [];
    const err = await rejection((async () => {
      for await (const e of client.chat(BODY, { signal: controller.signal })) {
        seen.push(e.event);
        if (e.event === 'delta') controller.abort(new DOMException('stopped', 'AbortError'));
      }
    })());
    expect(seen).to.deep.equal(['start', 'delta']);
    expect(err).to.have.property('name', 'AbortError');
    await closed;
    expect(api.chatsClosedEarly).to.equal(1);
  });

  it('closes the server connection when the consumer stops reading', async () => {
    await setup();
    api.script('POST /chat', { stream: [{ event: 'start', data: { request_id: 'r', model: 'm', mode: 'remote' } }, { hang: true }] });
    const closed = api.waitForChatClose();
    for await (const e of client.chat(BODY)) if (e.event === 'start') break;
    await closed;
  });

  it('aborts everything in flight on destroy and refuses later calls', async () => {
    await setup();
    api.script('POST /chat', { stream: [{ event: 'start', data: { request_id: 'r', model: 'm', mode: 'remote' } }, { hang: true }] });
    const closed = api.waitForChatClose();
    const pending = rejection((async () => {
      for await (const e of client.chat(BODY)) if (e.event === 'start') client.destroy();
    })());
    expect(await pending).to.have.property('name', 'AbortError');
    await closed;
    expect(await rejection(client.getConfig())).to.have.property('name', 'AbortError');
    expect(await rejection(collect(client.chat(BODY)))).to.have.property('name', 'AbortError');
  });

  it('fails a stalled stream with network_error after the idle timeout', async () => {
    await setup({}, { streamIdleTimeoutMs: 150 });
    await client.getSession();
    api.script('POST /chat', { stream: [{ event: 'start', data: { request_id: 'r', model: 'm', mode: 'remote' } }, { hang: true }] });
    const closed = api.waitForChatClose();
    const err = await rejection(collect(client.chat(BODY)));
    expect(isKitError(err) && err.code).to.equal('network_error');
    await closed;
  });

  it('keeps a stream alive through keep-alive comments', async () => {
    await setup({}, { streamIdleTimeoutMs: 500 });
    await client.getSession();
    // 4 × 200 ms of silence broken by comments: 800 ms in all, longer than the idle timeout.
    const keepAlive = Array.from({ length: 4 }, () => [{ waitMs: 200 }, { comment: ' keep-alive' }] as const).flat();
    api.script('POST /chat', { stream: [{ event: 'start', data: { request_id: 'r', model: 'm', mode: 'remote' } }, ...keepAlive, { event: 'done', data: { finish_reason: 'stop', usage: { input_tokens: 1, output_tokens: 1 } } }] });
    const events = await collect(client.chat(BODY));
    expect(events.map((e) => e.event)).to.deep.equal(['start', 'done']);
  });
});
