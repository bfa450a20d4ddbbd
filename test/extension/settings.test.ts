import { expect } from 'chai';
import { normalizeConfig } from '../../core/config/index.js';
import { formatKey } from '../../core/keys/key-format.js';
import {
  checkConnection, coveredByPatterns, DEFAULT_SETTINGS, hostPermissionPattern, isUnderEndpoint, kitInitOptions, parseAllowLists, parseAllowText,
  parseConnection, parseSettings, siteOf, storedConnection,
} from '../../extension/settings.js';
import { loadRedactor } from '../../core/redaction/index.js';

const PUB = formatKey('publishable', new Uint8Array(32).fill(3));
const SEC = formatKey('secret', new Uint8Array(32).fill(3));

describe('parseSettings', () => {
  it('keeps valid choices and defaults the rest when storage holds junk or an older shape', () => {
    expect(parseSettings(undefined)).to.deep.equal(DEFAULT_SETTINGS);
    expect(parseSettings({ mode: 'local', model: 'huge', context: 'site', redact: 'secrets', extra: 1 })).to.deep.equal({ mode: 'local', model: 'auto', context: 'site', redact: 'secrets' });
  });
});

describe('parseConnection', () => {
  const cases: [string, Record<string, unknown>, string | null][] = [
    ['a loopback endpoint and a publishable key', { endpoint: 'http://localhost:8787/v1/', apiKey: ` ${PUB} ` }, null],
    ['an https endpoint behind a path', { endpoint: 'https://kit.example.com/api/v1', apiKey: PUB }, null],
    ['a missing endpoint', { apiKey: PUB }, 'invalid_endpoint'],
    ['an endpoint with a query', { endpoint: 'https://kit.example.com/v1?x=1', apiKey: PUB }, 'invalid_endpoint'],
    ['a javascript: endpoint', { endpoint: 'javascript:alert(1)', apiKey: PUB }, 'invalid_endpoint'],
    ['a secret key', { endpoint: 'http://localhost:8787/v1', apiKey: SEC }, 'invalid_api_key'],
    ['a key with a broken checksum', { endpoint: 'http://localhost:8787/v1', apiKey: `${PUB.slice(0, -1)}${PUB.endsWith('a') ? 'b' : 'a'}` }, 'invalid_api_key'],
    ['a relative model base URL', { endpoint: 'http://localhost:8787/v1', apiKey: PUB, modelBaseUrl: '/models' }, 'invalid_model_base_url'],
  ];
  for (const [name, input, problem] of cases) {
    it(`${problem ? `refuses with ${problem}` : 'accepts'} when given ${name}`, () => {
      const result = parseConnection(input);
      if (problem === null) expect(result.ok).to.equal(true);
      else expect(result).to.include({ ok: false, code: problem });
    });
  }

  it('normalises the endpoint without a trailing slash and trims the key', () => {
    const result = parseConnection({ endpoint: 'http://localhost:8787/v1/', apiKey: ` ${PUB}\n`, modelBaseUrl: 'https://models.example.com/webllm/' });
    expect(result).to.deep.equal({ ok: true, value: { endpoint: 'http://localhost:8787/v1', apiKey: PUB, modelBaseUrl: 'https://models.example.com/webllm/' } });
  });

  it('reports every invalid field at once, not only the first (checkConnection)', () => {
    const checked = checkConnection({ endpoint: 'not a url', apiKey: 'kit_pub_nope', modelBaseUrl: '/models' });
    expect(checked.ok).to.equal(false);
    if (!checked.ok) expect(Object.keys(checked.problems).sort()).to.deep.equal(['invalid_api_key', 'invalid_endpoint', 'invalid_model_base_url']);
    const keyOnly = checkConnection({ endpoint: 'http://localhost:8787/v1', apiKey: SEC });
    expect(keyOnly.ok === false && Object.keys(keyOnly.problems)).to.deep.equal(['invalid_api_key']);
  });

  it('reads back null when stored options are no longer valid', () => {
    expect(storedConnection({ endpoint: 'http://localhost:8787/v1', apiKey: SEC })).to.equal(null);
    expect(storedConnection('junk')).to.equal(null);
  });
});

describe('kitInitOptions', () => {
  it('gives options Kit.init accepts, with each redaction choice mapped to the SDK option', () => {
    const connection = { endpoint: 'http://localhost:8787/v1', apiKey: PUB, modelBaseUrl: '' };
    const expected = { off: { secrets: false, pii: false }, secrets: { secrets: true, pii: false }, all: { secrets: true, pii: true } } as const;
    for (const redact of ['off', 'secrets', 'all'] as const) {
      const { config, warnings } = normalizeConfig(kitInitOptions({ mode: 'remote', model: 'small', context: 'site', redact }, connection));
      expect(warnings).to.deep.equal([]);
      expect(config).to.deep.include({ apiKey: PUB, endpoint: 'http://localhost:8787/v1', mode: 'remote', model: 'small' });
      expect(config.context.scope).to.equal('site');
      expect({ secrets: config.redact.secrets, pii: config.redact.pii }).to.deep.equal(expected[redact]);
    }
  });
});

describe('per-site allow lists', () => {
  it('reads one value or @domain per line, trimmed, without blanks or duplicates, and refuses a bare @', () => {
    expect(parseAllowText(' support@shop.example.com \n\n@shop.example.com\r\nsupport@shop.example.com\n+1 415 555 0132')).to.deep.equal({ ok: true, value: ['support@shop.example.com', '@shop.example.com', '+1 415 555 0132'] });
    expect(parseAllowText('')).to.deep.equal({ ok: true, value: [] });
    expect(parseAllowText('@')).to.include({ ok: false, code: 'invalid_allow_list' });
    expect(parseAllowText(Array.from({ length: 101 }, (_, i) => `a${i}@x.example`).join('\n'))).to.include({ ok: false });
  });

  it('keys lists by host name and keeps only well-formed stored lists', () => {
    expect(siteOf('https://shop.example.com:8443/help?x=1')).to.equal('shop.example.com');
    expect(siteOf('chrome://extensions')).to.equal(null);
    expect(parseAllowLists({ 'shop.example.com': ['support@shop.example.com', 5], 'b.example': 'junk', 'c.example': [] })).to.deep.equal({ 'shop.example.com': ['support@shop.example.com'] });
    expect(parseAllowLists(null)).to.deep.equal({});
  });

  it("passes the site's list to Kit.init, and the redactor then keeps those values visible", async () => {
    const connection = { endpoint: 'http://localhost:8787/v1', apiKey: PUB, modelBaseUrl: '' };
    const { config } = normalizeConfig(kitInitOptions({ ...DEFAULT_SETTINGS }, connection, ['support@shop.example.com']));
    expect(config.redact).to.deep.include({ secrets: true, pii: true, allow: ['support@shop.example.com'] });
    const r = (await loadRedactor(config.redact)).redact('Write to support@shop.example.com, not jane@shop.example.com.');
    expect(r.text).to.equal('Write to support@shop.example.com, not [REDACTED:EMAIL].');
    expect(normalizeConfig(kitInitOptions({ ...DEFAULT_SETTINGS, redact: 'off' }, connection, ['x@y.example'])).config.redact.pii).to.equal(false);
  });
});

describe('isUnderEndpoint', () => {
  const endpoint = 'https://kit.example.com/api/v1';
  const cases: [string, boolean][] = [
    ['https://kit.example.com/api/v1/config', true],
    ['https://kit.example.com/api/v1/chat?stream=1', true],
    ['https://kit.example.com/api/v1', true],
    ['https://kit.example.com/api/v10/config', false],
    ['https://kit.example.com/api/keys', false],
    ['https://kit.example.com.evil.test/api/v1/config', false],
    ['http://kit.example.com/api/v1/config', false],
    ['https://user:pass@kit.example.com/api/v1/config', false],
    ['not a url', false],
  ];
  for (const [url, allowed] of cases) {
    it(`${allowed ? 'allows' : 'refuses'} ${url}`, () => expect(isUnderEndpoint(endpoint, url)).to.equal(allowed));
  }
});

describe('hostPermissionPattern / coveredByPatterns', () => {
  it('names the host for every port, and sees loopback endpoints as covered by the manifest', () => {
    expect(hostPermissionPattern('http://localhost:8787/v1')).to.equal('http://localhost/*');
    expect(coveredByPatterns(['http://localhost/*', 'http://127.0.0.1/*'], 'http://127.0.0.1:9000/v1')).to.equal(true);
    expect(coveredByPatterns(['http://localhost/*'], 'https://kit.example.com/v1')).to.equal(false);
  });
});
