import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { ipAllowed, normalizeIpEntry } from '../../../server/keys/ip-allowlist.js';

describe('normalizeIpEntry', () => {
  const valid: Array<[string, string]> = [
    ['203.0.113.9', '203.0.113.9'],
    ['203.0.113.9/24', '203.0.113.0/24'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['2001:DB8:0:0::1', '2001:db8::1'],
    ['2001:db8::5/32', '2001:db8::/32'],
    ['::ffff:198.51.100.4', '198.51.100.4'],
    [' 10.0.0.1 ', '10.0.0.1'],
  ];
  for (const [input, expected] of valid) it(`normalises ${input}`, () => expect(normalizeIpEntry(input)).to.deep.equal({ ok: true, value: expected }));
  for (const input of ['127.1', '0x7f.0.0.1', '010.0.0.1/8x', '10.0.0.0/33', '2001:db8::/129', 'fe80::1%eth0', 'example.com', '1.2.3.4/', '/24', '', '1.2.3.4/-1']) {
    it(`refuses ${JSON.stringify(input)}`, () => expect(normalizeIpEntry(input).ok).to.equal(false));
  }
});

describe('ipAllowed', () => {
  it('allows any address when the list is empty', () => expect(ipAllowed([], '198.51.100.1')).to.equal(true));
  const table: Array<[string[], string, boolean]> = [
    [['203.0.113.0/24'], '203.0.113.200', true],
    [['203.0.113.0/24'], '203.0.114.1', false],
    [['203.0.113.0/24'], '::ffff:203.0.113.7', true],
    [['203.0.113.9'], '203.0.113.9', true],
    [['203.0.113.9'], '203.0.113.10', false],
    [['2001:db8::/32'], '2001:db8:1::9', true],
    [['2001:db8::/32'], '2001:db9::1', false],
    [['2001:db8::/32'], '203.0.113.9', false],
    [['203.0.113.0/24'], 'garbage', false],
  ];
  for (const [entries, ip, expected] of table) it(`${expected ? 'allows' : 'refuses'} ${ip} for ${entries}`, () => expect(ipAllowed(entries, ip)).to.equal(expected));

  it('agrees with bit arithmetic for random IPv4 ranges', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.ipV4(), fc.integer({ min: 0, max: 32 }), (network, client, bits) => {
        const entry = normalizeIpEntry(`${network}/${bits}`);
        if (!entry.ok) throw new Error(entry.reason);
        const toInt = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
        const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
        const expected = ((toInt(network) & mask) >>> 0) === ((toInt(client) & mask) >>> 0);
        expect(ipAllowed([entry.value], client)).to.equal(expected);
      }),
    );
  });
});
