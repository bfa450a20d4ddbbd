import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { pidAlive } from '../support/owned-temp-dir.js';
import { startChildServer } from './support/child-server.js';

// A log collector that died (or `npm start | head`) leaves the server's stdout a pipe nobody reads. A server that
// must exit logs its last lines first: SonicBoom's synchronous flush retried their EPIPE forever, so the process
// never exited (found here: a server still spinning 12 minutes after its SIGTERM). server/main.ts now drains the
// log asynchronously first (pino stops writing on EPIPE), then exits. The refused second server on a locked data
// directory is the exit path that logs with nothing written before, so its outcome does not depend on timing.
describe('server/main.ts with nobody reading its stdout', function () {
  this.timeout(120_000);

  it('still exits (75, data directory in use) instead of retrying its last log line forever', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kit-epipe-'));
    const holder = await startChildServer({ KIT_DATA_DIR: dataDir, KIT_DEMO: 'false' });
    // `true` reads nothing and exits at once. The second server's PID, then its exit code, come back on descriptor 3.
    const sh = spawn('sh', ['-c', '{ node --import tsx server/main.ts & echo $! >&3; wait $!; echo $? >&3; } | true'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', KIT_DATA_DIR: dataDir, KIT_DEMO: 'false', KIT_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    });
    let reported = '';
    sh.stdio[3]!.on('data', (c: Buffer) => (reported += c.toString()));
    /** Line `n` of what came back, once complete (n + 1 newlines), or null after `ms`. */
    const line = async (n: number, ms: number): Promise<number | null> => {
      const until = Date.now() + ms;
      while (reported.split('\n').length <= n + 1) {
        if (Date.now() > until) return null;
        await new Promise((r) => setTimeout(r, 50));
      }
      const value = Number(reported.split('\n')[n]);
      if (!Number.isInteger(value) || value < 0) throw new Error(`not a number: ${JSON.stringify(reported)}`);
      return value;
    };
    let pid: number | null = null;
    try {
      pid = await line(0, 10_000);
      if (pid === null || pid <= 1) throw new Error(`no PID of the second server: ${JSON.stringify(reported)}`); // never signal a group
      expect(await line(1, 45_000), "the second server's exit code (null: still running 45 s later)").to.equal(75);
    } finally {
      if (pid && pid > 1 && pidAlive(pid)) process.kill(pid, 'SIGKILL');
      await holder.stop('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
