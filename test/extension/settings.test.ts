import { expect } from 'chai';
import { normalizeConfig } from '../../core/config/index.js';
import { formatKey } from '../../core/keys/key-format.js';
import {
  coveredByPatterns, DEFAULT_SETTINGS, hostPermissionPattern, isUnderEndpoint, kitInitOptions, parseConnection, parseSettings, storedConnection,
} from '../../extension/settings.js';

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
