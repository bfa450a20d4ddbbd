import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../server/config.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, '/srv/kit');
  } catch (err) {
    if (err instanceof ConfigError) return [...err.problems];
    throw err;
  }
  return [];
}

describe('loadConfig', () => {
  it('defaults to the embedded database in ./.kit-data on port 8787', () => {
    const config = loadConfig({}, '/srv/kit');
    expect(config.port).to.equal(8787);
    expect(config.database).to.deep.equal({ kind: 'pglite', dataDir: '/srv/kit/.kit-data', settings: { shared_buffers: '16MB' }, lockWaitMs: 0 });
    expect(config.http).to.deep.equal({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxConnectionsPerIp: 256, maxPendingHeaders: 512 });
    expect(config.configRequestsPerMinute).to.equal(120);
    expect(config.jwtSecret).to.equal(null);
    expect(config.keyCacheTtlMs).to.equal(5000);
    expect(config.botChallenge.provider).to.equal('altcha');
    expect(config.stripe).to.equal(null);
    expect(config.inference).to.equal(null);
  });

  it('listens on loopback unless HOST says otherwise (the first start prints a password)', () => {
    expect(loadConfig({}).host).to.equal('127.0.0.1');
    expect(loadConfig({ HOST: '' }).host).to.equal('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).to.equal('0.0.0.0');
  });

  it('switches to PostgreSQL when DATABASE_URL is set', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://kit@db:5432/kit', KIT_DB_POOL_MAX: '4' }).database).to.deep.equal({ kind: 'postgres', url: 'postgres://kit@db:5432/kit', poolMax: 4 });
  });

  it('reads trusted proxy hops and CORS origins', () => {
    expect(loadConfig({ KIT_TRUST_PROXY: 'true' }).trustProxyHops).to.equal(1);
    expect(loadConfig({ KIT_TRUST_PROXY: '2' }).trustProxyHops).to.equal(2);
    expect(loadConfig({ KIT_CORS_ORIGINS: 'https://a.example.com, https://b.example.com' }).corsOrigins).to.deep.equal(['https://a.example.com', 'https://b.example.com']);
  });

  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'eighty' }, /^PORT: must be a whole number/],
    [{ KIT_PGLITE_SHARED_BUFFERS: 'lots' }, /^KIT_PGLITE_SHARED_BUFFERS: must be a size like 16MB/],
    [{ KIT_DATA_DIR_LOCK_WAIT_MS: '-1' }, /^KIT_DATA_DIR_LOCK_WAIT_MS: must be at least 0/],
    [{ KIT_HEADERS_TIMEOUT_MS: '10' }, /^KIT_HEADERS_TIMEOUT_MS: must be at least 1000/],
    [{ PORT: '70000' }, /^PORT: must be at most 65535/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL: must be a postgres:\/\/ URL/],
    [{ KIT_JWT_SECRET: 'short' }, /^KIT_JWT_SECRET: must be at least 32 characters/],
    [{ KIT_TRUST_PROXY: 'yes' }, /^KIT_TRUST_PROXY: /],
    [{ KIT_CORS_ORIGINS: 'https://a.com/path' }, /^KIT_CORS_ORIGINS: "https:\/\/a.com\/path" is not an origin/],
    [{ KIT_BOT_CHALLENGE: 'captcha' }, /^KIT_BOT_CHALLENGE: must be altcha, turnstile or none/],
    [{ KIT_BOT_CHALLENGE: 'turnstile' }, /KIT_TURNSTILE_SECRET and KIT_TURNSTILE_SITE_KEY: both are required/],
    [{ KIT_INFERENCE_URL: 'http://llm:8000/v1' }, /^KIT_INFERENCE_MODEL: required/],
    [{ KIT_INFERENCE_MODEL: 'x' }, /^KIT_INFERENCE_URL: required/],
    [{ STRIPE_SECRET_KEY: 'sk_test_abc' }, /billing needs all of/],
    [{ STRIPE_SECRET_KEY: 'pk_live_abc' }, /^STRIPE_SECRET_KEY: must start with sk_/],
    [{ KIT_KEY_CACHE_TTL_MS: '600000' }, /^KIT_KEY_CACHE_TTL_MS: must be at most 60000/],
    [{ KIT_LOG_LEVEL: 'loud' }, /^KIT_LOG_LEVEL: must be one of/],
    [{ KIT_BOT_CHALLENGE: 'none', NODE_ENV: 'production' }, /^KIT_BOT_CHALLENGE: "none" is for development only/],
    [{ KIT_REDACT_SOURCES: 'emails' }, /^KIT_REDACT_SOURCES: must be false, true, secrets, pii/],
    [{ KIT_PLAN_LIMITS: '{free:' }, /^KIT_PLAN_LIMITS: must be JSON/],
    [{ KIT_PLAN_LIMITS: '{"gold":{}}' }, /^KIT_PLAN_LIMITS: /],
    [{ KIT_PLAN_LIMITS: '{"free":{"requests_per_minute":0}}' }, /^KIT_PLAN_LIMITS: free\.requests_per_minute: must be at least 1/],
    [{ KIT_SSE_KEEPALIVE_MS: '20000' }, /^KIT_SSE_KEEPALIVE_MS: must be at most 15000/],
    [{ KIT_TURNSTILE_VERIFY_URL: 'ftp://x' }, /^KIT_TURNSTILE_VERIFY_URL: must be a http\(s\):\/\/ URL/],
  ];
  for (const [env, message] of cases) {
    it(`explains ${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')}`, () => {
      const problems = problemsOf(env);
      expect(problems.some((p) => message.test(p)), problems.join('\n')).to.equal(true);
    });
  }

  it('reads the part-2 settings with their defaults', () => {
    const config = loadConfig({}, '/srv/kit');
    expect(config.plans.free).to.include({ requestsPerMinute: 60, sessionRequestsPerMinute: 10, monthlyTokens: 200_000, sessionTtlSeconds: 600, maxQuestionChars: 1000, maxContextChars: 60_000 });
    expect(config.plans.pro).to.include({ requestsPerMinute: 600, sessionRequestsPerMinute: 20, monthlyTokens: 5_000_000 });
    expect(config.plans.business).to.include({ requestsPerMinute: 3_000, sessionRequestsPerMinute: 30, monthlyTokens: 50_000_000 });
    expect(config.redactSources).to.equal(null);
    expect(config.sseKeepAliveMs).to.equal(10_000);
    expect(config.shutdownGraceMs).to.equal(25_000);
    expect(config.botChallenge).to.include({ altchaMaxNumber: 100_000, altchaTtlSeconds: 300, turnstileVerifyUrl: null });
    expect(config.demo).to.deep.equal({ seed: true, sdkDir: '/srv/kit/dist/sdk', siteDir: '/srv/kit/demo' });
  });

  it('overrides any plan field from KIT_PLAN_LIMITS and derives the body limit from the sizes', () => {
    const plans = loadConfig({ KIT_PLAN_LIMITS: '{"pro":{"requests_per_minute":5,"max_context_chars":1000,"mode":"remote"}}' }).plans;
    expect(plans.pro).to.include({ requestsPerMinute: 5, sessionRequestsPerMinute: 20, maxContextChars: 1000, mode: 'remote', maxBodyBytes: 4 * (2 * 1000 + 1000) + 65_536 });
    expect(plans.free.requestsPerMinute).to.equal(60);
  });

  it('reads KIT_REDACT_SOURCES as the SDK reads redact', () => {
    expect(loadConfig({ KIT_REDACT_SOURCES: 'true' }).redactSources).to.deep.equal({ secrets: true, pii: true });
    expect(loadConfig({ KIT_REDACT_SOURCES: 'secrets' }).redactSources).to.deep.equal({ secrets: true, pii: false });
    expect(loadConfig({ KIT_REDACT_SOURCES: 'pii, secrets' }).redactSources).to.deep.equal({ secrets: true, pii: true });
    expect(loadConfig({ KIT_REDACT_SOURCES: 'false' }).redactSources).to.equal(null);
  });

  it('lets development use the none challenge outside production', () => {
    expect(loadConfig({ KIT_BOT_CHALLENGE: 'none', NODE_ENV: 'development' }).botChallenge.provider).to.equal('none');
  });

  it('lists every problem at once and never echoes a secret value', () => {
    const problems = problemsOf({ PORT: 'x', KIT_JWT_SECRET: 'hunter2-short', STRIPE_WEBHOOK_SECRET: 'not-a-whsec-value' });
    expect(problems).to.have.length(3);
    expect(problems.join('\n')).to.not.include('hunter2-short').and.not.include('not-a-whsec-value');
  });
});
