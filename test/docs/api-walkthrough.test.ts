/**
 * docs/api.md's walkthrough, run as a reader pastes it (issue #10 §4): every ```sh block of the page, in order, in one
 * bash session, against a fresh `server/main.ts` listening on a free port with the embedded database in a temporary
 * directory. The only edits: the documented server address (`http://localhost:8787`, with or without the scheme) points
 * at that server, and curl fails on an HTTP error status
 * (--fail-with-body), so a step that a reader would see answer 4xx fails here instead of passing by.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startKitServer, type KitServer } from '../e2e/support/kit-server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const DOC = 'docs/api.md';
const DOCUMENTED_BASE = 'http://localhost:8787';

/** The ```sh fenced blocks of a Markdown text, in order. */
export function shellBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const fence = /^```sh[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;
  for (let m = fence.exec(markdown); m !== null; m = fence.exec(markdown)) blocks.push(m[1]!);
  return blocks;
}

function runBash(script: string, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The text of an SSE stream's delta events, joined. */
function answers(stdout: string): string[] {
  return stdout.split('event: start').slice(1).map((stream) =>
    [...stream.matchAll(/^event: delta\nid: \d+\ndata: (.*)$/gm)].map((m) => (JSON.parse(m[1]!) as { text: string }).text).join(''));
}

describe(`${DOC} walkthrough`, function () {
  this.timeout(240_000);
  let kit: KitServer;

  before(async () => {
    kit = await startKitServer();
  });
  after(async () => {
    await kit?.stop();
  });

  it('finds the blocks and the one base URL it rewrites', () => {
    const blocks = shellBlocks(readFileSync(root + DOC, 'utf8'));
    expect(blocks.length).to.be.at.least(5);
    expect(blocks.join('\n')).to.include(`API=${DOCUMENTED_BASE}/v1`);
    expect(shellBlocks('x\n```sh\necho a\n```\n```json\n{}\n```\n```sh\necho b\n```\n')).to.deep.equal(['echo a\n', 'echo b\n']);
  });

  it('runs top to bottom as pasted against a fresh server: keys captured, both first answers streamed, usage counted', async () => {
    const blocks = shellBlocks(readFileSync(root + DOC, 'utf8'));
    const script = [
      'set -euo pipefail',
      'curl() { command curl --fail-with-body --show-error "$@"; }',
      ...blocks.map((b, i) => `echo "### block ${i + 1}" >&2\n${b.replace(/(?:http:\/\/)?localhost:8787/g, kit.url)}`),
    ].join('\n');
    const r = await runBash(script, 200_000);
    const where = `exit ${r.code}\n--- stderr (last 3000) ---\n${r.stderr.slice(-3000)}\n--- stdout (last 3000) ---\n${r.stdout.slice(-3000)}`;
    expect(r.code, where).to.equal(0);

    // Both /chat calls (secret key; publishable key with session) answered from the source, with its citation.
    const said = answers(r.stdout);
    expect(said, where).to.have.length(2);
    for (const text of said) expect(text).to.include('$49');
    expect(r.stdout.match(/^event: citation$/gm), where).to.have.length(2);
    expect(r.stdout.match(/"finish_reason":"stop"/g), where).to.have.length(2);
    // The delete printed its status, the invited colleague joined, and usage counts the two answers.
    expect(r.stdout).to.match(/^204$/m);
    expect(r.stdout).to.include('"email":"bob@example.com"').and.include('"role":"developer"');
    expect(r.stdout).to.match(/"total":\{"requests":2,/);
  });
});
