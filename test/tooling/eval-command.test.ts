import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', root + 'scripts/eval.ts', ...args], { cwd: root, encoding: 'utf8' });

describe('npm run eval (scripts/eval.ts)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'kit-eval-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('prints usage and exits 2 without arguments', () => {
    const r = run([]);
    expect(r.status).to.equal(2);
    expect(r.stderr).to.match(/usage: npm run eval -- <grounding\|qa\|redaction\|extraction> <file\.jsonl>/);
  });

  it('refuses an unknown suite by name', () => {
    const r = run(['vibes', 'x.jsonl']);
    expect(r.status).to.equal(2);
    expect(r.stderr).to.include('unknown suite "vibes"');
  });

  it('says which file cannot be read', () => {
    const r = run(['grounding', join(dir, 'missing.jsonl')]);
    expect(r.status).to.equal(2);
    expect(r.stderr).to.include('cannot read').and.include('ENOENT');
  });

  it('names the line of malformed JSON', () => {
    const f = join(dir, 'bad.jsonl');
    writeFileSync(f, '{"page":"a","question":"b","expect":"answer"}\n{not json}\n');
    const r = run(['grounding', f]);
    expect(r.status).to.equal(2);
    expect(r.stderr).to.include('bad.jsonl:2: malformed JSON');
  });

  it('names the line of a case of the wrong shape', () => {
    const f = join(dir, 'shape.jsonl');
    writeFileSync(f, '\n{"question":"b","expect":"answer"}\n');
    const r = run(['grounding', f]);
    expect(r.status).to.equal(2);
    expect(r.stderr).to.include('shape.jsonl:2: invalid grounding case');
  });

  it('refuses an empty file', () => {
    const f = join(dir, 'empty.jsonl');
    writeFileSync(f, '\n\n');
    const r = run(['qa', f]);
    expect(r.status).to.equal(2);
    expect(r.stderr).to.include('no cases');
  });
});
