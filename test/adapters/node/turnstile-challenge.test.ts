import { expect } from 'chai';
import { createTurnstileChallenge, type TurnstileChallengeOptions } from '../../../adapters/node/turnstile-challenge.js';
import { createMemoryReplayStore } from '../../../adapters/node/memory-replay-store.js';
import type { BotChallengeOutcome } from '../../../core/ports/bot-challenge.port.js';
import { FakeTurnstileServer } from '../../fakes/turnstile-server.js';

const SECRET = '0x4AAAAAAAtest-secret';
const ORIGIN = 'https://shop.example.com';

function failure(outcome: BotChallengeOutcome): string | undefined {
  return outcome.ok ? undefined : outcome.failure;
}

describe('createTurnstileChallenge', () => {
  let fake: FakeTurnstileServer;
  let url: string;
  const make = (extra: Partial<TurnstileChallengeOptions> = {}) =>
    createTurnstileChallenge({ siteKey: '0x4AAAAAAAsite', secretKey: SECRET, verifyUrl: url, replayStore: createMemoryReplayStore(), ...extra });

  beforeEach(async () => {
    fake = new FakeTurnstileServer({ secret: SECRET });
    url = await fake.start();
  });
  afterEach(async () => {
    await fake.stop();
  });

  it('issues the site key for /config', async () => {
    expect(await make().issue({ origin: ORIGIN })).to.deep.equal({ provider: 'turnstile', site_key: '0x4AAAAAAAsite' });
  });

  it('posts the secret, the token and the remote ip to siteverify and accepts a valid token', async () => {
    const token = fake.issueToken('shop.example.com');
    const outcome = await make().verify(token, { origin: ORIGIN, remoteIp: '203.0.113.9' });
    expect(outcome).to.deep.equal({ ok: true, value: { provider: 'turnstile' } });
    expect(fake.calls).to.have.length(1);
    expect(fake.calls[0]?.contentType).to.equal('application/x-www-form-urlencoded');
    expect(fake.calls[0]?.form).to.deep.equal({ secret: SECRET, response: token, remoteip: '203.0.113.9' });
  });

  it('refuses a token the second time even when the verifier would accept it again', async () => {
    await fake.stop();
    fake = new FakeTurnstileServer({ secret: SECRET, enforceSingleUse: false });
    url = await fake.start();
    const port = make();
    const token = fake.issueToken('shop.example.com');
    expect((await port.verify(token, { origin: ORIGIN })).ok).to.equal(true);
    expect(failure(await port.verify(token, { origin: ORIGIN }))).to.equal('replayed');
  });

  it("maps Cloudflare's duplicate answer to replayed when the verifier enforces single use", async () => {
    const token = fake.issueToken('shop.example.com');
    expect((await make().verify(token, { origin: ORIGIN })).ok).to.equal(true);
    // A replica with its own store still refuses: Cloudflare answers timeout-or-duplicate.
    expect(failure(await make().verify(token, { origin: ORIGIN }))).to.equal('replayed');
  });

  it('refuses a token solved on another hostname, and one without an origin', async () => {
    const port = make();
    expect(failure(await port.verify(fake.issueToken('evil.example'), { origin: ORIGIN }))).to.equal('origin_mismatch');
    expect(failure(await port.verify(fake.issueToken('shop.example.com'), { origin: null }))).to.equal('origin_mismatch');
  });

  it('refuses an unknown token as invalid and a malformed one without calling siteverify', async () => {
    const port = make();
    expect(failure(await port.verify('0.unknown', { origin: ORIGIN }))).to.equal('invalid');
    expect(failure(await port.verify(42, { origin: ORIGIN }))).to.equal('malformed');
    expect(failure(await port.verify('x'.repeat(2049), { origin: ORIGIN }))).to.equal('malformed');
    expect(fake.calls).to.have.length(1);
  });

  it('answers upstream_unavailable when siteverify is slower than the timeout', async () => {
    fake.delayMs = 500;
    const started = Date.now();
    const outcome = await make({ timeoutMs: 100 }).verify(fake.issueToken('shop.example.com'), { origin: ORIGIN });
    expect(Date.now() - started).to.be.below(450);
    expect(failure(outcome)).to.equal('unavailable');
    expect(outcome.ok ? null : outcome.code).to.equal('upstream_unavailable');
    expect(outcome.ok ? '' : outcome.reason).to.match(/100 ms/);
  });

  it('answers upstream_unavailable when siteverify fails, is unreachable or rejects the secret', async () => {
    const token = fake.issueToken('shop.example.com');
    fake.failStatus = 503;
    expect(failure(await make().verify(token, { origin: ORIGIN }))).to.equal('unavailable');
    fake.failStatus = undefined;
    expect(failure(await make({ secretKey: 'wrong' }).verify(token, { origin: ORIGIN }))).to.equal('unavailable');
    expect(failure(await make({ verifyUrl: 'http://127.0.0.1:1/siteverify' }).verify(token, { origin: ORIGIN }))).to.equal('unavailable');
  });

  it('never puts the secret or the token in a refusal reason', async () => {
    const token = fake.issueToken('evil.example');
    const outcomes = [await make().verify(token, { origin: ORIGIN }), await make({ secretKey: 'wrong-secret' }).verify(fake.issueToken('x'), { origin: ORIGIN })];
    for (const o of outcomes) {
      expect(o.ok).to.equal(false);
      if (!o.ok) {
        expect(o.reason).not.to.include(token);
        expect(o.reason).not.to.include('wrong-secret');
        expect(o.reason).not.to.include(SECRET);
      }
    }
  });
});
