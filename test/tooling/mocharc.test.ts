import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const mocha = (file: string) =>
  spawnSync(process.execPath, [root + 'node_modules/mocha/bin/mocha.js', file], { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });

describe('.mocharc.json', function () {
  this.timeout(60_000);

  it('forbids a committed .only: the run fails instead of skipping the rest of the suite', () => {
    const config = JSON.parse(readFileSync(root + '.mocharc.json', 'utf8')) as Record<string, unknown>;
    expect(config['forbid-only']).to.equal(true);
    const r = mocha('test/fixtures/mocha/only.fixture.ts');
    expect(r.status).to.not.equal(0);
    expect(r.stdout + r.stderr).to.match(/`\.only` forbidden/);
  });
});
