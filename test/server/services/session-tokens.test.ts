import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { createSessionTokens } from '../../../server/services/session-tokens.js';

describe('createSessionTokens', () => {
  const tokens = createSessionTokens(new Uint8Array(32).fill(7));
  const binding = { keyId: 'key_abc', origin: 'https://shop.example.com' };
  const now = new Date('2026-03-01T12:00:00Z');

  it('verifies a session for the key and origin it was issued for, until it expires', () => {
    const issued = tokens.issue(binding, 600, now);
    expect(issued.token).to.match(/^kit_ses_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(issued.expiresAt.toISOString()).to.equal('2026-03-01T12:10:00.000Z');
    const verified = tokens.verify(issued.token, binding, new Date(now.getTime() + 599_000));
    expect(verified.ok && verified.value.sessionId).to.equal(issued.sessionId);
    expect(tokens.verify(issued.token, binding, new Date(now.getTime() + 600_000)).ok).to.equal(false);
  });

  it('refuses a session used with another key, another origin, or no origin', () => {
    const { token } = tokens.issue(binding, 600, now);
    expect(tokens.verify(token, { ...binding, keyId: 'key_other' }, now).ok).to.equal(false);
    expect(tokens.verify(token, { ...binding, origin: 'https://evil.example.com' }, now).ok).to.equal(false);
    expect(tokens.verify(token, { ...binding, origin: null }, now).ok).to.equal(false);
    const curl = tokens.issue({ keyId: 'key_abc', origin: null }, 600, now);
    expect(tokens.verify(curl.token, { keyId: 'key_abc', origin: null }, now).ok).to.equal(true);
    expect(tokens.verify(curl.token, binding, now).ok).to.equal(false);
  });

  it('refuses a session signed with another secret', () => {
    const other = createSessionTokens(new Uint8Array(32).fill(8)).issue(binding, 600, now);
    expect(tokens.verify(other.token, binding, now).ok).to.equal(false);
  });

  it('refuses any change to a token (property)', () => {
    const { token } = tokens.issue(binding, 600, now);
    fc.assert(
      fc.property(fc.nat(token.length - 1), fc.string({ minLength: 1, maxLength: 1, unit: 'binary-ascii' }), (at, c) => {
        const changed = token.slice(0, at) + c + token.slice(at + 1);
        fc.pre(changed !== token);
        return tokens.verify(changed, binding, now).ok === false;
      }),
      { numRuns: 300 },
    );
  });

  it('refuses garbage without throwing', () => {
    for (const junk of ['', 'kit_ses_', 'kit_ses_.', 'kit_ses_e30.AAAA', 'Bearer x', 'kit_ses_' + 'A'.repeat(5000)]) {
      expect(tokens.verify(junk, binding, now).ok, junk.slice(0, 20)).to.equal(false);
    }
  });

  it('gives every session its own id', () => {
    const ids = new Set(Array.from({ length: 50 }, () => tokens.issue(binding, 600, now).sessionId));
    expect(ids.size).to.equal(50);
  });
});
