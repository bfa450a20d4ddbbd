import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { pidAlive } from '../support/owned-temp-dir.js';

/** The descendants of `pid` with their command lines (Linux /proc). */
function descendants(pid: number): Array<{ pid: number; command: string }> {
  const out: Array<{ pid: number; command: string }> = [];
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== pid) continue;
      out.push({ pid: Number(entry), command: readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ') });
      out.push(...descendants(Number(entry)));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

describe('npm start', function () {
  this.timeout(300_000); // builds dist/server (and dist/sdk) first when they are missing or stale

  it('runs the built server (node dist/server/main.js, no tsx) on the embedded database, with every stdout log line JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kit-npm-start-'));
    const npm = spawn('npm', ['start', '--silent'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', KIT_DATA_DIR: dir, KIT_DEMO: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let err = '';
    let children: Array<{ pid: number; command: string }> = [];
    npm.stdout.on('data', (c: Buffer) => (out += c.toString()));
    npm.stderr.on('data', (c: Buffer) => (err += c.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        npm.stdout.on('data', () => {
          const m = /listening on (http:\/\/[^/"]+)\/v1/.exec(out);
          if (m) resolve(m[1]!.replace('localhost', '127.0.0.1'));
        });
        npm.once('exit', (code) => reject(new Error(`npm start exited ${code}\n${out}\n${err}`)));
      });
      expect((await fetch(`${url}/healthz`)).status).to.equal(200);
      expect((await fetch(`${url}/readyz`)).status).to.equal(200);
      children = descendants(npm.pid!);
      const commands = children.map((c) => c.command);
      expect(commands.some((c) => /node .*dist\/server\/main\.js/.test(c)), commands.join('\n')).to.equal(true);
      expect(commands.join('\n')).to.not.include('tsx');
      for (const line of out.split('\n').filter(Boolean)) expect(() => JSON.parse(line), line).to.not.throw();
    } finally {
      process.kill(-npm.pid!, 'SIGTERM');
      await new Promise((r) => npm.once('exit', r));
      // npm may exit before the server it started has closed its data directory: removing it then races the
      // server's last writes (ENOTEMPTY, seen under load). Wait for every process it started to be gone first.
      for (const deadline = Date.now() + 60_000; children.some((c) => pidAlive(c.pid)) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    }
  });
});
