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
    expect(config.database).to.deep.equal({ kind: 'pglite', dataDir: '/srv/kit/.kit-data' });
    expect(config.jwtSecret).to.equal(null);
    expect(config.keyCacheTtlMs).to.equal(5000);
    expect(config.botChallenge.provider).to.equal('altcha');
    expect(config.stripe).to.equal(null);
    expect(config.inference).to.equal(null);
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
  ];
  for (const [env, message] of cases) {
    it(`explains ${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')}`, () => {
      const problems = problemsOf(env);
      expect(problems.some((p) => message.test(p)), problems.join('\n')).to.equal(true);
    });
  }

  it('lists every problem at once and never echoes a secret value', () => {
    const problems = problemsOf({ PORT: 'x', KIT_JWT_SECRET: 'hunter2-short', STRIPE_WEBHOOK_SECRET: 'not-a-whsec-value' });
    expect(problems).to.have.length(3);
    expect(problems.join('\n')).to.not.include('hunter2-short').and.not.include('not-a-whsec-value');
  });
});
