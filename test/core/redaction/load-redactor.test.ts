import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isKitError } from '../../../core/errors/index.js';
import { loadRedactor } from '../../../core/redaction/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const CORE = resolve(here, '../../../core');

/** Bare package names reachable from `entry` through static imports only (dynamic `import()` is a lazy chunk). */
function staticPackages(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)) {
      const spec = (m[1] ?? m[2])!;
      if (spec.startsWith('.')) visit(join(dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec);
    }
  };
  visit(entry);
  return packages;
}

describe('loadRedactor', () => {
  it('keeps libphonenumber-js and re2js out of the static import graph of the redaction entry', () => {
    const packages = [...staticPackages(join(CORE, 'redaction/index.ts'))];
    expect(packages.filter((p) => p.startsWith('libphonenumber-js') || p === 're2js')).to.deep.equal([]);
    // The scan itself must be able to see them: the lazy modules do import them statically.
    expect([...staticPackages(join(CORE, 'redaction/phone.ts'))]).to.include('libphonenumber-js/max');
    expect([...staticPackages(join(CORE, 'redaction/custom-matcher.ts'))]).to.include('re2js');
  });

  it('masks phone numbers when pii is on', async () => {
    const r = await loadRedactor({ secrets: false, pii: true, patterns: [], replacement: '[<KIND>]' });
    expect(r.redact('call +44 20 7946 0958').text).to.equal('call [PHONE]');
  });

  it('rejects with invalid_config when a custom pattern cannot run in linear time', async () => {
    const err = await loadRedactor({ secrets: true, pii: false, patterns: [/(a)\1/g], replacement: 'x' }).then(() => null, (e: unknown) => e);
    // isKitError, not instanceof: the lazily imported module may be a second instance of core/errors under tsx.
    expect(isKitError(err) && err.code).to.equal('invalid_config');
  });
});
