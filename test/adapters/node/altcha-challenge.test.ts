import { expect } from 'chai';
import { solveChallenge } from 'altcha-lib/v1';
import { createAltchaChallenge } from '../../../adapters/node/altcha-challenge.js';
import { createMemoryReplayStore } from '../../../adapters/node/memory-replay-store.js';
import { createAltchaSolver } from '../../../adapters/remote/altcha-solver.js';
import type { AltchaChallenge, BotChallengeOutcome, BotChallengePort } from '../../../core/ports/bot-challenge.port.js';

const ORIGIN = 'https://shop.example.com';
const HMAC_KEY = 'test-hmac-key-0123456789';

/** Solves like the public ALTCHA widget does and returns its base64 JSON payload. */
async function solve(challenge: AltchaChallenge, overrides: Record<string, unknown> = {}): Promise<string> {
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
  if (!solution) throw new Error('no solution found');
  const payload = { algorithm: challenge.algorithm, challenge: challenge.challenge, number: solution.number, salt: challenge.salt, signature: challenge.signature, ...overrides };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

async function issued(port: BotChallengePort, origin: string | null = ORIGIN): Promise<AltchaChallenge> {
  const config = await port.issue({ origin });
  if (config.provider !== 'altcha') throw new Error('expected altcha');
  return config.challenge;
}

function failure(outcome: BotChallengeOutcome): string | undefined {
  return outcome.ok ? undefined : outcome.failure;
}

describe('createAltchaChallenge', () => {
  const make = (extra: Partial<Parameters<typeof createAltchaChallenge>[0]> = {}) =>
    createAltchaChallenge({ hmacKey: HMAC_KEY, maxNumber: 2000, replayStore: createMemoryReplayStore(), ...extra });

  it('issues the standard ALTCHA challenge object with an expiry and the origin in the salt', async () => {
    const t = 1_800_000_000_000;
    const challenge = await issued(make({ now: () => t, ttlSeconds: 120 }));
    expect(Object.keys(challenge).sort()).to.deep.equal(['algorithm', 'challenge', 'maxnumber', 'salt', 'signature']);
    expect(challenge.algorithm).to.equal('SHA-256');
    expect(challenge.maxnumber).to.equal(2000);
    const params = new URLSearchParams(challenge.salt.split('?')[1]);
    expect(params.get('expires')).to.equal(String(t / 1000 + 120));
    expect(params.get('origin')).to.equal(ORIGIN);
    expect(challenge.challenge).to.match(/^[0-9a-f]{64}$/);
  });

  it('accepts a real solution once and refuses it the second time', async () => {
    const port = make();
    const solution = await solve(await issued(port));
    const first = await port.verify(solution, { origin: ORIGIN });
    expect(first).to.deep.equal({ ok: true, value: { provider: 'altcha' } });
    const second = await port.verify(solution, { origin: ORIGIN });
    expect(second.ok).to.equal(false);
    expect(failure(second)).to.equal('replayed');
    expect(second.ok ? null : second.code).to.equal('challenge_failed');
  });

  it("accepts the SDK solver's solution when the browser SDK solves the issued challenge", async () => {
    const port = createAltchaChallenge({ hmacKey: HMAC_KEY, replayStore: createMemoryReplayStore() }); // default maxNumber
    const solution = await createAltchaSolver({ worker: false })(await issued(port));
    expect((await port.verify(solution, { origin: ORIGIN })).ok).to.equal(true);
  });

  it('refuses a solution replayed on another replica when both share the replay store', async () => {
    const replayStore = createMemoryReplayStore();
    const a = make({ replayStore });
    const b = make({ replayStore });
    const solution = await solve(await issued(a));
    expect((await b.verify(solution, { origin: ORIGIN })).ok).to.equal(true);
    expect(failure(await a.verify(solution, { origin: ORIGIN }))).to.equal('replayed');
  });

  it('refuses a solution when its challenge has expired', async () => {
    const t0 = Date.now();
    const replayStore = createMemoryReplayStore();
    const issuer = make({ replayStore, ttlSeconds: 60, now: () => t0 });
    const later = make({ replayStore, ttlSeconds: 60, now: () => t0 + 61_000 });
    const solution = await solve(await issued(issuer));
    expect(failure(await later.verify(solution, { origin: ORIGIN }))).to.equal('expired');
    // Still valid just before the expiry: the refusal above is about time, not the solution.
    const before = make({ replayStore, ttlSeconds: 60, now: () => t0 + 59_000 });
    expect((await before.verify(solution, { origin: ORIGIN })).ok).to.equal(true);
  });

  it('refuses a wrong number, a tampered salt or signature, and a challenge signed with another key', async () => {
    const port = make();
    const challenge = await issued(port);
    const goodSolution = await solve(challenge);
    const good = JSON.parse(Buffer.from(goodSolution, 'base64').toString()) as Record<string, unknown> & { number: number; salt: string };
    const variant = (changes: Record<string, unknown>) => Buffer.from(JSON.stringify({ ...good, ...changes })).toString('base64');
    const cases: Array<[string, string]> = [
      ['wrong number', variant({ number: good.number + 1 })],
      ['tampered salt', variant({ salt: good.salt.replace(/expires=\d+/, 'expires=9999999999') })],
      ['tampered signature', variant({ signature: '0'.repeat(64) })],
      ['other key', await solve(await issued(make({ hmacKey: 'another-key' })))],
      ['other algorithm', variant({ algorithm: 'SHA-1' })],
    ];
    for (const [name, solution] of cases) {
      const outcome = await port.verify(solution, { origin: ORIGIN });
      expect(failure(outcome), name).to.equal('invalid');
    }
    // The untouched solution still passes: the refusals were caused by the changes.
    expect((await port.verify(goodSolution, { origin: ORIGIN })).ok).to.equal(true);
  });

  it('refuses a solution when it was issued for another origin', async () => {
    const port = make();
    const solution = await solve(await issued(port, 'https://evil.example'));
    expect(failure(await port.verify(solution, { origin: ORIGIN }))).to.equal('origin_mismatch');
    expect(failure(await port.verify(solution, { origin: null }))).to.equal('origin_mismatch');
  });

  it('accepts a challenge issued without an origin from any origin (same-origin GETs carry no Origin), once', async () => {
    const port = make();
    const solution = await solve(await issued(port, null));
    expect((await port.verify(solution, { origin: ORIGIN })).ok).to.equal(true);
    expect(failure(await port.verify(solution, { origin: null }))).to.equal('replayed');
  });

  it('binds the challenge to the key it was issued for: another key is refused without burning the solution', async () => {
    const port = make();
    const config = await port.issue({ origin: ORIGIN, keyId: 'key_mallory' });
    if (config.provider !== 'altcha') throw new Error('expected altcha');
    expect(new URLSearchParams(config.challenge.salt.split('?')[1]).get('key')).to.equal('key_mallory');
    const solution = await solve(config.challenge);
    expect(failure(await port.verify(solution, { origin: ORIGIN, keyId: 'key_alice' }))).to.equal('key_mismatch');
    // a challenge issued with no key cannot be used with one either
    const keyless = await solve(await issued(port));
    expect(failure(await port.verify(keyless, { origin: ORIGIN, keyId: 'key_alice' }))).to.equal('key_mismatch');
    expect((await port.verify(solution, { origin: ORIGIN, keyId: 'key_mallory' })).ok).to.equal(true);
  });

  it('refuses malformed solutions without throwing', async () => {
    const port = make();
    const inputs: unknown[] = [undefined, null, 42, {}, '', 'not base64!', Buffer.from('not json').toString('base64'), Buffer.from('"str"').toString('base64'), 'A'.repeat(5000)];
    for (const input of inputs) expect(failure(await port.verify(input, { origin: ORIGIN }))).to.equal('malformed');
  });
});
