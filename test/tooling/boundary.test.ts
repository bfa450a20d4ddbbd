import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/boundary/', import.meta.url));
const depcruise = (cwd: string, args: string[]) =>
  spawnSync(process.execPath, [root + 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs', '--config', root + '.dependency-cruiser.cjs', '--output-type', 'err', ...args], { cwd, encoding: 'utf8' });

describe('the boundary check (npm run lint)', function () {
  this.timeout(60_000);

  it('fails on a fixture whose core imports an adapter, a host, a framework and a node built-in', () => {
    const r = depcruise(fixture, ['core', 'adapters', 'sdk']);
    expect(r.status, r.stdout + r.stderr).to.not.equal(0);
    const out = r.stdout + r.stderr;
    expect(out).to.include('core-not-to-adapters-or-hosts: core/bad.ts → adapters/thing.ts');
    expect(out).to.include('core-not-to-adapters-or-hosts: core/bad.ts → sdk/host.ts');
    expect(out).to.include('core-not-to-frameworks: core/bad.ts');
    expect(out).to.include('core-not-to-node-builtins: core/bad.ts → fs');
    expect(out).to.include('adapters-not-to-hosts: adapters/thing.ts → sdk/host.ts');
  });

  it('passes on a fixture file that breaks no rule', () => {
    const r = depcruise(fixture, ['core/good.ts']);
    expect(r.status, r.stdout + r.stderr).to.equal(0);
  });
});
