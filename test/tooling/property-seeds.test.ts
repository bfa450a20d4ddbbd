import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const testDir = join(root, 'test');

function* testFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* testFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

// A small program that prints what an unseeded-looking property run draws, under the shared seed helper.
const sampleScript = `
import fc from './test/support/fast-check.ts';
console.log(JSON.stringify(fc.sample(fc.string({ maxLength: 12 }), 5)));
`;
const sample = (env: Record<string, string | undefined>) => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', sampleScript], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
  expect(r.status, r.stderr).to.equal(0);
  return r.stdout;
};

describe('property-test seeds (test/support/fast-check.ts)', function () {
  this.timeout(30_000);

  it('every test file takes fast-check from the seeded helper, never directly', () => {
    const direct = [...testFiles(testDir)]
      .filter((f) => !f.endsWith(join('support', 'fast-check.ts')))
      .filter((f) => /from\s+['"]fast-check['"]|require\(\s*['"]fast-check['"]\s*\)/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f));
    expect(direct, 'import fc from test/support/fast-check.js instead').to.deep.equal([]);
  });

  it('draws the same inputs on every run, prints the seed, and FC_SEED varies it', () => {
    const a = sample({ FC_SEED: undefined });
    const b = sample({ FC_SEED: undefined });
    expect(a).to.equal(b);
    expect(a).to.match(/^fast-check seed -?\d+ \(the default; set FC_SEED to vary it\)\n/);
    const c = sample({ FC_SEED: '12345' });
    expect(c).to.match(/^fast-check seed 12345 \(from FC_SEED\)\n/);
    expect(c.split('\n')[1]).to.not.equal(a.split('\n')[1]);
    expect(sample({ FC_SEED: '12345' })).to.equal(c);
  });
});
