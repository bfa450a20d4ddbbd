import { expect } from 'chai';
import { createTabSwitch, type TabSwitchDeps } from '../../../extension/background/tab-switch.js';

function harness(options: { configured?: boolean; injectFails?: (tabId: number) => boolean } = {}) {
  let stored: readonly number[] = [];
  const injected: number[] = [];
  const offs: number[] = [];
  const badges: [number, string][] = [];
  const deps: TabSwitchDeps = {
    load: async () => stored,
    save: async (ids) => { await new Promise((r) => setTimeout(r, 1)); stored = ids; },
    inject: async (tabId) => {
      if (options.injectFails?.(tabId)) throw new Error('Cannot access contents of the page');
      injected.push(tabId);
    },
    switchOff: async (tabId) => { offs.push(tabId); },
    badge: async (tabId, text) => { badges.push([tabId, text]); },
    configured: async () => options.configured ?? true,
  };
  return { tabs: createTabSwitch(deps), stored: () => stored, injected, offs, badges };
}

describe('createTabSwitch', () => {
  it('injects, remembers and badges a tab when switched on, and forgets it when switched off', async () => {
    const h = harness();
    expect(await h.tabs.switchOn(7)).to.deep.equal({ on: true });
    expect(h.injected).to.deep.equal([7]);
    expect(await h.tabs.status(7)).to.deep.equal({ on: true });
    expect(await h.tabs.switchOff(7)).to.deep.equal({ on: false });
    expect(h.offs).to.deep.equal([7]);
    expect(h.stored()).to.deep.equal([]);
    expect(h.badges).to.deep.equal([[7, 'on'], [7, '']]);
  });

  it('refuses to switch on and injects nothing when no endpoint and key are saved', async () => {
    const h = harness({ configured: false });
    const status = await h.tabs.switchOn(1);
    expect(status.on).to.equal(false);
    expect(status.error).to.match(/options/);
    expect(h.injected).to.deep.equal([]);
  });

  it('reports an error and stays off when the page may not be entered', async () => {
    const h = harness({ injectFails: () => true });
    const status = await h.tabs.switchOn(3);
    expect(status).to.include({ on: false });
    expect(h.stored()).to.deep.equal([]);
  });

  it('injects again after a reload of a tab that is on, and leaves other tabs alone', async () => {
    const h = harness();
    await h.tabs.switchOn(5);
    await h.tabs.loaded(5);
    await h.tabs.loaded(6);
    expect(h.injected).to.deep.equal([5, 5]);
  });

  it('switches a tab off when the new document may not be entered', async () => {
    let blocked = false;
    const h = harness({ injectFails: () => blocked });
    await h.tabs.switchOn(9);
    blocked = true;
    await h.tabs.loaded(9);
    expect(h.stored()).to.deep.equal([]);
  });

  it('keeps every tab when many are switched on at once (no lost read-modify-write)', async () => {
    const h = harness();
    await Promise.all([1, 2, 3, 4, 5].map((id) => h.tabs.switchOn(id)));
    await h.tabs.removed(3);
    expect([...h.stored()].sort()).to.deep.equal([1, 2, 4, 5]);
  });
});
