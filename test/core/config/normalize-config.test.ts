import { expect } from 'chai';
import fc from '../../support/fast-check.js';
import { normalizeConfig, CONTEXT_BOUNDS, CONTEXT_DEFAULTS, DEFAULT_REFUSAL_MESSAGE, type KitConfig } from '../../../core/config/index.js';
import { KitError } from '../../../core/errors/index.js';
import { formatKey } from '../../../core/keys/key-format.js';

const PUB = formatKey('publishable', Uint8Array.from({ length: 32 }, (_, i) => i * 5));
const SEC = formatKey('secret', Uint8Array.from({ length: 32 }, (_, i) => i * 3));

function configError(input: unknown): KitError {
  try {
    normalizeConfig(input);
  } catch (err) {
    expect(err).to.be.instanceOf(KitError);
    expect((err as KitError).code).to.equal('invalid_config');
    return err as KitError;
  }
  throw new Error('expected invalid_config');
}

describe('normalizeConfig', () => {
  it('applies the defaults of the spec and CONTRACT §8 when only apiKey is given', () => {
    const { config, warnings } = normalizeConfig({ apiKey: PUB });
    expect(warnings).to.deep.equal([]);
    expect(config).to.include({ apiKey: PUB, mode: 'auto', model: 'auto', gpuBenchmark: true, groundingMinMatches: 1, grounding: true, autoOpen: false, refusalMessage: DEFAULT_REFUSAL_MESSAGE, endpoint: null, onReady: null });
    expect(config.context.scope).to.equal('page');
    expect(config.redact).to.deep.include({ secrets: false, pii: false, replacement: '[REDACTED:<KIND>]' });
    expect(config.redact.patterns).to.deep.equal([]);
  });

  it("expands context 'site' to the sitemap defaults", () => {
    const { config } = normalizeConfig({ apiKey: PUB, context: 'site' });
    expect(config.context).to.deep.include({ scope: 'site', sitemap: '/sitemap.xml', maxPages: 25, maxCharsPerPage: 20_000, maxCorpusChars: 400_000, fetchTimeoutMs: 8_000, concurrency: 4, sameOriginOnly: true, credentials: 'omit' });
  });

  it('reads an explicit url list without a sitemap unless one is given', () => {
    const a = normalizeConfig({ apiKey: PUB, context: { urls: ['/pricing', 'https://shop.example/faq'], maxPages: 100, credentials: 'same-origin' } }).config.context;
    expect(a).to.deep.include({ scope: 'urls', sitemap: null, maxPages: 100, credentials: 'same-origin' });
    expect(a.urls).to.deep.equal(['/pricing', 'https://shop.example/faq']);
    const b = normalizeConfig({ apiKey: PUB, context: { urls: ['/a'], sitemap: '/docs/sitemap.xml' } }).config.context;
    expect(b.sitemap).to.equal('/docs/sitemap.xml');
    const c = normalizeConfig({ apiKey: PUB, context: { maxPages: 5 } }).config.context;
    expect(c).to.deep.include({ scope: 'site', sitemap: CONTEXT_DEFAULTS.sitemap, maxPages: 5 });
  });

  it('expands every redact shorthand', () => {
    const r = (redact: unknown) => normalizeConfig({ apiKey: PUB, redact }).config.redact;
    expect(r(true)).to.include({ secrets: true, pii: true });
    expect(r('secrets')).to.include({ secrets: true, pii: false });
    expect(r('pii')).to.include({ secrets: false, pii: true });
    expect(r(['secrets', 'pii'])).to.include({ secrets: true, pii: true });
    expect(r(false)).to.include({ secrets: false, pii: false });
    const custom = r({ pii: true, patterns: ['ACME-\\d{6}', /inv-[0-9]{4}/i], replacement: '***' });
    expect(custom).to.include({ secrets: false, pii: true, replacement: '***' });
    expect(custom.patterns.map((p) => p.flags)).to.deep.equal(['g', 'gi']);
    expect('ref ACME-123456 and INV-0042'.replace(custom.patterns[0]!, 'x').replace(custom.patterns[1]!, 'y')).to.equal('ref x and y');
  });

  it('keeps redact.allow entries trimmed, and none when absent or empty', () => {
    const r = (redact: unknown) => normalizeConfig({ apiKey: PUB, redact }).config.redact;
    expect(r({ pii: true, allow: [' support@shop.example.com ', '@shop.example.com'] }).allow).to.deep.equal(['support@shop.example.com', '@shop.example.com']);
    expect(r({ pii: true, allow: [] }).allow).to.equal(undefined);
    expect(r({ pii: true }).allow).to.equal(undefined);
  });

  it('normalises the endpoint to an origin and path without trailing slash', () => {
    expect(normalizeConfig({ apiKey: PUB, endpoint: 'https://example.com/kit/v1/' }).config.endpoint).to.equal('https://example.com/kit/v1');
    expect(normalizeConfig({ apiKey: PUB, endpoint: 'http://localhost:8787/v1?x=1#y' }).config.endpoint).to.equal('http://localhost:8787/v1');
  });

  it('warns about unknown options instead of failing', () => {
    const { warnings } = normalizeConfig({ apiKey: PUB, colour: 'red', context: { urls: ['/a'], depth: 3 }, redact: { pii: true, emails: true } });
    expect(warnings).to.have.length(3);
    expect(warnings.join(' ')).to.include('colour').and.include('context.depth').and.include('redact.emails');
  });

  it('accepts callbacks and UI strings', () => {
    const fn = () => undefined;
    const { config } = normalizeConfig({ apiKey: PUB, onReady: fn, onError: fn, onMessage: fn, strings: { placeholder: 'Demandez…' } });
    expect(config.onReady).to.equal(fn);
    expect(config.strings).to.deep.equal({ placeholder: 'Demandez…' });
  });

  // Every rule of issue 2 §5: the option named in the message and in details, and what was expected.
  const BAD: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['apiKey missing', {}, 'apiKey', /required/],
    ['apiKey of another prefix', { apiKey: 'pk_live_123' }, 'apiKey', /kit_pub_/],
    ['apiKey a secret key', { apiKey: SEC }, 'apiKey', /secret key/],
    ['apiKey with a wrong checksum', { apiKey: PUB.slice(0, -1) + (PUB.endsWith('A') ? 'B' : 'A') }, 'apiKey', /checksum/],
    ['apiKey not a string', { apiKey: 42 }, 'apiKey', /required/],
    ['unknown mode', { mode: 'cloud' }, 'mode', /'auto', 'local', 'remote'/],
    ['unknown model', { model: 'huge' }, 'model', /'nano'/],
    ['context of another string', { context: 'everything' }, 'context', /'page', 'site'/],
    ['context a number', { context: 3 }, 'context', /'page', 'site'/],
    ['maxPages over 100', { context: { maxPages: 101 } }, 'context.maxPages', /1 to 100/],
    ['maxPages zero', { context: { maxPages: 0 } }, 'context.maxPages', /1 to 100/],
    ['maxPages fractional', { context: { maxPages: 2.5 } }, 'context.maxPages', /whole number/],
    ['maxPages a string', { context: { maxPages: '10' } }, 'context.maxPages', /whole number/],
    ['maxCharsPerPage negative', { context: { maxCharsPerPage: -1 } }, 'context.maxCharsPerPage', /whole number/],
    ['concurrency too high', { context: { concurrency: 1000 } }, 'context.concurrency', /1 to 16/],
    ['fetchTimeoutMs NaN', { context: { fetchTimeoutMs: Number.NaN } }, 'context.fetchTimeoutMs', /NaN/],
    ["credentials 'include'", { context: { credentials: 'include' } }, 'context.credentials', /'omit', 'same-origin'/],
    ['urls not an array', { context: { urls: '/a' } }, 'context.urls', /array/],
    ['a url of another scheme', { context: { urls: ['javascript:alert(1)'] } }, 'context.urls[0]', /http/],
    ['a url that is empty', { context: { urls: ['/ok', ''] } }, 'context.urls[1]', /path/],
    ['redact a number', { redact: 1 }, 'redact', /'secrets'/],
    ['redact an unknown kind', { redact: ['secrets', 'names'] }, 'redact[1]', /'secrets' or 'pii'/],
    ['redact.secrets not boolean', { redact: { secrets: 'yes' } }, 'redact.secrets', /true or false/],
    ['an invalid pattern', { redact: { patterns: ['([a-z'] } }, 'redact.patterns[0]', /not a valid regular expression/],
    ['a nested-quantifier pattern', { redact: { patterns: ['(a+)+$'] } }, 'redact.patterns[0]', /catastrophic/],
    ['an alternation-under-repetition pattern', { redact: { patterns: [/(x|xx)*y/] } }, 'redact.patterns[0]', /catastrophic/],
    ['a pattern matching the empty string', { redact: { patterns: ['a*'] } }, 'redact.patterns[0]', /empty string/],
    ['a pattern that is not a string', { redact: { patterns: [42] } }, 'redact.patterns[0]', /string or a RegExp/],
    ['an overlong pattern', { redact: { patterns: ['a'.repeat(2000)] } }, 'redact.patterns[0]', /longer than/],
    ['a non-string replacement', { redact: { replacement: 5 } }, 'redact.replacement', /string/],
    ['redact.allow not an array', { redact: { pii: true, allow: 'support@shop.example.com' } }, 'redact.allow', /array/],
    ['too many redact.allow entries', { redact: { pii: true, allow: Array.from({ length: 101 }, (_, i) => `a${i}@x.example`) } }, 'redact.allow', /at most 100/],
    ['an empty redact.allow entry', { redact: { pii: true, allow: ['ok@x.example', '  '] } }, 'redact.allow[1]', /value or "@domain"/],
    ['a bare @ in redact.allow', { redact: { pii: true, allow: ['@'] } }, 'redact.allow[0]', /value or "@domain"/],
    ['groundingMinMatches zero', { groundingMinMatches: 0 }, 'groundingMinMatches', /whole number/],
    ['groundingMinMatches fractional', { groundingMinMatches: 1.5 }, 'groundingMinMatches', /whole number/],
    ['grounding not boolean', { grounding: 'off' }, 'grounding', /true or false/],
    ['gpuBenchmark not boolean', { gpuBenchmark: 1 }, 'gpuBenchmark', /true or false/],
    ['autoOpen not boolean', { autoOpen: 'yes' }, 'autoOpen', /true or false/],
    ['refusalMessage empty', { refusalMessage: '  ' }, 'refusalMessage', /non-empty/],
    ['onReady not a function', { onReady: 'go' }, 'onReady', /function/],
    ['onError not a function', { onError: {} }, 'onError', /function/],
    ['onMessage not a function', { onMessage: 1 }, 'onMessage', /function/],
    ['endpoint not a URL', { endpoint: 'not a url' }, 'endpoint', /http\(s\) URL/],
    ['endpoint of another scheme', { endpoint: 'ftp://example.com/v1' }, 'endpoint', /http\(s\) URL/],
    ['endpoint relative', { endpoint: '/kit/v1' }, 'endpoint', /http\(s\) URL/],
    ['endpoint with credentials', { endpoint: 'https://user:pw@example.com/v1' }, 'endpoint', /credentials/],
    ['strings with a non-string', { strings: { title: 3 } }, 'strings.title', /string/],
  ];
  for (const [label, patch, option, expected] of BAD) {
    it(`refuses ${label} with invalid_config naming ${option}`, () => {
      const input = 'apiKey' in patch || label.startsWith('apiKey missing') ? patch : { apiKey: PUB, ...patch };
      const err = configError(input);
      expect(err.message).to.include(option);
      expect(err.message).to.match(expected);
      expect(err.details).to.deep.equal({ option });
    });
  }

  it('refuses a non-object config', () => {
    for (const v of [undefined, null, 'kit_pub_x', [PUB], 5]) configError(v);
  });

  it('never echoes a key or pattern value in its message', () => {
    const err = configError({ apiKey: SEC });
    expect(err.message).not.to.include(SEC);
    const err2 = configError({ apiKey: PUB, mode: 'sk_live_supersecret' });
    expect(err2.message).not.to.include('supersecret');
  });

  describe('property: on random input', () => {
    const anyValue = fc.anything({ withBigInt: false, withBoxedValues: true, withMap: true, withSet: true });
    const optionValue = fc.oneof(
      anyValue,
      fc.constantFrom('auto', 'local', 'remote', 'nano', 'quality', 'page', 'site', 'secrets', 'pii', 'omit', 'same-origin', true, false, 0, 1, 100, 101, -1, 2.5),
      fc.record({ urls: fc.array(fc.oneof(fc.webPath(), fc.webUrl(), fc.string()), { maxLength: 5 }), maxPages: fc.integer({ min: -5, max: 150 }), credentials: fc.constantFrom('omit', 'same-origin', 'include') }, { requiredKeys: [] }),
      fc.record({ secrets: fc.boolean(), pii: fc.boolean(), patterns: fc.array(fc.oneof(fc.string({ maxLength: 12 }), fc.stringMatching(/^[a-z\\d+*()|?]{1,10}$/)), { maxLength: 3 }), replacement: fc.oneof(fc.string(), fc.integer()) }, { requiredKeys: [] }),
    );
    const configInput = fc.dictionary(
      fc.constantFrom('apiKey', 'mode', 'model', 'context', 'redact', 'gpuBenchmark', 'groundingMinMatches', 'grounding', 'autoOpen', 'refusalMessage', 'onReady', 'endpoint', 'strings', 'other'),
      optionValue,
    ).map((o) => ({ apiKey: PUB, ...o }));

    it('throws only invalid_config, and otherwise returns a config satisfying the invariants', () => {
      fc.assert(fc.property(configInput, (input) => {
        let config: KitConfig;
        try {
          config = normalizeConfig(input).config;
        } catch (err) {
          return err instanceof KitError && err.code === 'invalid_config' && typeof err.message === 'string' && err.message.length > 0;
        }
        const c = config.context;
        const intIn = (n: number, max: number) => Number.isInteger(n) && n >= 1 && n <= max;
        return config.apiKey.startsWith('kit_pub_')
          && ['auto', 'local', 'remote'].includes(config.mode)
          && ['auto', 'nano', 'small', 'balanced', 'quality'].includes(config.model)
          && intIn(c.maxPages, CONTEXT_BOUNDS.maxPages) && intIn(c.maxCharsPerPage, CONTEXT_BOUNDS.maxCharsPerPage)
          && intIn(c.maxCorpusChars, CONTEXT_BOUNDS.maxCorpusChars) && intIn(c.fetchTimeoutMs, CONTEXT_BOUNDS.fetchTimeoutMs)
          && intIn(c.concurrency, CONTEXT_BOUNDS.concurrency) && c.sameOriginOnly === true
          && (c.credentials === 'omit' || c.credentials === 'same-origin')
          && config.redact.patterns.every((p) => p.global && !new RegExp(p.source, p.flags.replace('g', '')).test(''))
          && typeof config.redact.replacement === 'string'
          && intIn(config.groundingMinMatches, 50)
          && (config.endpoint === null || /^https?:\/\/[^/]+(\/.*[^/])?$/.test(config.endpoint))
          && Object.isFrozen(config);
      }), { numRuns: 500 });
    });

    it('is deterministic: the same input gives the same output', () => {
      fc.assert(fc.property(configInput, (input) => {
        const run = () => { try { return JSON.stringify(normalizeConfig(input)); } catch (e) { return (e as Error).message; } };
        return run() === run();
      }), { numRuns: 200 });
    });
  });
});
