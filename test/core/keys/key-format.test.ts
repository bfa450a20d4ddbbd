import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { crc32, formatKey, parseKey, toBase62, keyDisplay } from '../../../core/keys/key-format.js';

const bytes = (seed: number) => Uint8Array.from({ length: 32 }, (_, i) => (seed * 31 + i * 7) & 0xff);

describe('crc32', () => {
  it('matches the IEEE check value', () => {
    expect(crc32('123456789')).to.equal(0xcbf43926);
    expect(crc32('')).to.equal(0);
  });
});

describe('toBase62', () => {
  it('pads to the width and encodes the maximum CRC in 6 characters', () => {
    expect(toBase62(0, 6)).to.equal('000000');
    expect(toBase62(61, 2)).to.equal('0z');
    expect(toBase62(0xffffffff, 6)).to.have.length(6);
  });
});

describe('formatKey', () => {
  it('builds publishable and secret keys of the contract shape', () => {
    expect(formatKey('publishable', bytes(1))).to.match(/^kit_pub_[0-9A-Za-z]{38}$/);
    expect(formatKey('secret', bytes(2))).to.match(/^kit_sec_[0-9A-Za-z]{38}$/);
  });

  it('refuses too few random bytes', () => {
    expect(() => formatKey('secret', new Uint8Array(8))).to.throw(RangeError);
  });
});

describe('parseKey', () => {
  it('accepts every formatted key and reports its kind', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constantFrom('publishable', 'secret'), (b, kind) => {
      const parsed = parseKey(formatKey(kind as 'publishable' | 'secret', b));
      return parsed.ok && parsed.key.kind === kind;
    }));
  });

  it('detects any single-character change through the checksum', () => {
    const key = formatKey('publishable', bytes(3));
    fc.assert(fc.property(fc.integer({ min: 8, max: key.length - 1 }), fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'), (pos, ch) => {
      if (key[pos] === ch) return true;
      const tampered = key.slice(0, pos) + ch + key.slice(pos + 1);
      const parsed = parseKey(tampered);
      return !parsed.ok && parsed.problem === 'checksum';
    }));
  });

  for (const [label, value, problem] of [
    ['undefined', undefined, 'missing'],
    ['an empty string', '', 'missing'],
    ['another vendor prefix', 'sk_live_abc', 'prefix'],
    ['a truncated key', 'kit_pub_abc', 'shape'],
    ['a key with punctuation', 'kit_pub_' + 'a'.repeat(37) + '!', 'shape'],
  ] as const) {
    it(`refuses ${label} as ${problem}`, () => {
      expect(parseKey(value)).to.deep.equal({ ok: false, problem });
    });
  }
});

describe('keyDisplay', () => {
  it('shows a prefix and the last 4 characters only', () => {
    const key = formatKey('secret', bytes(4));
    const d = keyDisplay(key);
    expect(key.startsWith(d.prefix)).to.equal(true);
    expect(d.prefix.length).to.be.lessThan(16);
    expect(d.last4).to.equal(key.slice(-4));
  });
});
