import { expect } from 'chai';
import { GROUNDING_DEFAULTS } from '../../core/grounding/index.js';
import { probeWhen, SERVICE_MIN_MATCHES } from '../../sdk/runtime.js';

// Issue 10.3: Chromium logs "No available adapters." whenever requestAdapter() finds none, so the SDK asks for an
// adapter only when the verdict decides the engine. The browser half is test/e2e/sdk.e2e.test.ts.
describe('probeWhen: when the SDK asks for a WebGPU adapter', () => {
  const plan = (mode: 'auto' | 'local' | 'remote') => ({ mode });

  it("probes at start only where local is the only choice: mode 'local', or a local-only plan", () => {
    expect(probeWhen({ mode: 'local' }, plan('auto'))).to.equal('now');
    expect(probeWhen({ mode: 'local' }, null)).to.equal('now');
    expect(probeWhen({ mode: 'auto' }, plan('local'))).to.equal('now');
  });

  it('never probes where the verdict cannot change the engine', () => {
    expect(probeWhen({ mode: 'remote' }, plan('auto'))).to.equal('never');
    expect(probeWhen({ mode: 'remote' }, plan('local'))).to.equal('never');
    expect(probeWhen({ mode: 'auto' }, plan('remote'))).to.equal('never');
    // No plan (service unreachable): the in-page extractive engine answers whatever the device.
    expect(probeWhen({ mode: 'auto' }, null)).to.equal('never');
  });

  it("defers the probe until the service has answered a first question in 'auto' with both modes allowed (a page nobody asks logs nothing)", () => {
    expect(probeWhen({ mode: 'auto' }, plan('auto'))).to.equal('after-first-answer');
  });
});

describe('SERVICE_MIN_MATCHES', () => {
  it("is the service's gate's default, so only a stricter groundingMinMatches loads the gate in the browser before a remote answer", () => {
    expect(SERVICE_MIN_MATCHES).to.equal(GROUNDING_DEFAULTS.minMatches);
  });
});
