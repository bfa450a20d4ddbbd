import { expect } from 'chai';
import { createNoneChallenge } from '../../../adapters/node/none-challenge.js';
import { isKitError } from '../../../core/errors/index.js';

describe('createNoneChallenge', () => {
  it('refuses to start when NODE_ENV is production', () => {
    let caught: unknown;
    try {
      createNoneChallenge({ nodeEnv: 'production' });
    } catch (err) {
      caught = err;
    }
    expect(isKitError(caught)).to.equal(true);
    expect(String((caught as Error).message)).to.match(/development only/);
  });

  it('accepts any solution and issues provider none when not in production', async () => {
    const port = createNoneChallenge({ nodeEnv: 'development' });
    expect(await port.issue({ origin: null })).to.deep.equal({ provider: 'none' });
    const outcome = await port.verify(undefined, { origin: 'http://localhost:3000' });
    expect(outcome.ok).to.equal(true);
  });
});
