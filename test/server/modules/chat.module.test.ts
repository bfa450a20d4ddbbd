import { expect } from 'chai';
import { createMemoryReplayStore } from '../../../adapters/node/memory-replay-store.js';
import { loadConfig } from '../../../server/config.js';
import { createBotChallenge } from '../../../server/modules/chat.module.js';

describe('createBotChallenge', () => {
  const secrets = { altchaHmacKey: 'k'.repeat(64), sessionSecret: new Uint8Array(32) };
  const clock = () => new Date();

  it('builds the provider KIT_BOT_CHALLENGE names', async () => {
    const replay = createMemoryReplayStore();
    expect(createBotChallenge(loadConfig({}), secrets, replay, clock).provider).to.equal('altcha');
    const turnstile = loadConfig({ KIT_BOT_CHALLENGE: 'turnstile', KIT_TURNSTILE_SECRET: 's', KIT_TURNSTILE_SITE_KEY: 'site' });
    expect(await createBotChallenge(turnstile, secrets, replay, clock).issue({ origin: null })).to.deep.equal({ provider: 'turnstile', site_key: 'site' });
    const altcha = await createBotChallenge(loadConfig({ KIT_ALTCHA_MAX_NUMBER: '5000' }), secrets, replay, clock).issue({ origin: null });
    expect(altcha.provider === 'altcha' && altcha.challenge.maxnumber).to.equal(5000);
  });

  it('decides "none" on the configured NODE_ENV, not on what a bundler inlined into the adapter', () => {
    const saved = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production'; // what webpack's production build bakes into process.env.NODE_ENV
    try {
      const dev = loadConfig({ KIT_BOT_CHALLENGE: 'none' });
      expect(createBotChallenge(dev, secrets, createMemoryReplayStore(), clock).provider).to.equal('none');
      expect(() => createBotChallenge({ ...dev, nodeEnv: 'production' }, secrets, createMemoryReplayStore(), clock)).to.throw(/development only/);
    } finally {
      if (saved === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = saved;
    }
  });
});
