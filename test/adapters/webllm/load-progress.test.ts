import { expect } from 'chai';
import { createProgressMapper, DOWNLOAD_SHARE } from '../../../adapters/webllm/load-progress.js';

describe('createProgressMapper', () => {
  it('turns WebLLM download then GPU-load reports into one bar that ends at 1', () => {
    const map = createProgressMapper();
    const values = [
      map({ progress: 0, text: 'Start to fetch params' }),
      map({ progress: 0.5, text: 'Fetching param cache[1/2]: 100MB fetched. 50% completed' }),
      map({ progress: 1, text: 'Fetching param cache[2/2]: 200MB fetched. 100% completed' }),
      map({ progress: 0.5, text: 'Loading model from cache[1/2]: 100MB loaded. 50% completed' }),
      map({ progress: 1, text: 'Loading model from cache[2/2]: 200MB loaded. 100% completed' }),
      map({ progress: 1, text: 'Finish loading on WebGPU - google' }),
    ].map((p) => p.loaded);
    expect(values).to.deep.equal([0, DOWNLOAD_SHARE / 2, DOWNLOAD_SHARE, DOWNLOAD_SHARE + (1 - DOWNLOAD_SHARE) / 2, 1, 1]);
  });

  it('never moves backwards when WebLLM restarts its progress for a new phase', () => {
    const map = createProgressMapper();
    map({ progress: 0.9, text: 'Fetching param cache[9/10]' });
    expect(map({ progress: 0.1, text: 'Fetching param cache[1/10]' }).loaded).to.be.closeTo(0.9 * DOWNLOAD_SHARE, 1e-9);
    expect(map({ progress: Number.NaN, text: 'something else' }).total).to.equal(1);
  });
});
