import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { pidAlive } from './owned-temp-dir.js';
import { CLUSTER_PREFIX, postgresAvailable, sweepStaleClusters } from './postgres.js';

const CHILD = fileURLToPath(new URL('./postgres-child.ts', import.meta.url));

interface Started {
  readonly dir: string;
  readonly url: string;
  readonly postmaster: number;
}


async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

const children: ChildProcess[] = [];

/** A separate test process holding its own cluster (the real `startPostgres`, as a suite uses it). */
async function startChild(): Promise<{ child: ChildProcess; started: Started }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d));
  const started = await new Promise<Started>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve(JSON.parse(line!) as Started);
    });
    child.once('exit', (code) => reject(new Error(`child exited with ${code}: ${err}`)));
  });
  return { child, started };
}

const exited = (child: ChildProcess) =>
  new Promise<NodeJS.Signals | number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode ?? child.exitCode);
    else child.once('exit', (code, signal) => resolve(signal ?? code));
  });

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

describe('startPostgres (test clusters)', function () {
  this.timeout(120_000);
  before(function () {
    if (!postgresAvailable()) {
      if (process.env.KIT_REQUIRE_POSTGRES === '1') throw new Error('PostgreSQL 15 is required');
      this.skip();
    }
  });
  afterEach(async () => {
    for (const c of children.splice(0)) {
      if (c.exitCode === null && c.signalCode === null) {
        c.kill('SIGTERM');
        await exited(c);
      }
    }
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops the cluster and removes its directory when the test process gets ${signal}`, async () => {
      const { child, started } = await startChild();
      expect(existsSync(started.dir)).to.equal(true);
      expect(await accepts(started.url)).to.equal(true);
      child.kill(signal);
      // The process still ends by the signal (mocha's parent and shells read that).
      expect(await exited(child)).to.equal(signal);
      expect(await until(() => !pidAlive(started.postmaster), 10_000), 'postmaster stopped').to.equal(true);
      expect(existsSync(started.dir), 'directory removed').to.equal(false);
    });
  }

  it('cleans clusters of killed runs on the next start, never one a live run in another process still uses', async () => {
    const killed = await startChild();
    const live = await startChild();
    killed.child.kill('SIGKILL'); // no handler runs: the cluster and its files stay behind
    await exited(killed.child);
    expect(pidAlive(killed.started.postmaster), 'a SIGKILLed run leaves PostgreSQL running').to.equal(true);
    expect(existsSync(killed.started.dir)).to.equal(true);

    const removed = sweepStaleClusters();

    expect(removed).to.include(killed.started.dir);
    expect(removed).to.not.include(live.started.dir);
    expect(await until(() => !pidAlive(killed.started.postmaster), 10_000), 'stale postmaster stopped').to.equal(true);
    expect(existsSync(killed.started.dir)).to.equal(false);
    expect(existsSync(live.started.dir)).to.equal(true);
    expect(await accepts(live.started.url), 'the live run keeps its database').to.equal(true);
  });

  it('leaves a directory without an owner record alone while it is recent (a run of an older suite), and cleans it once old', () => {
    const dir = mkdtempSync(join(tmpdir(), CLUSTER_PREFIX));
    try {
      expect(sweepStaleClusters()).to.not.include(dir);
      expect(existsSync(dir)).to.equal(true);
      const old = new Date(Date.now() - 7 * 60 * 60 * 1000);
      utimesSync(dir, old, old);
      expect(sweepStaleClusters()).to.include(dir);
      expect(existsSync(dir)).to.equal(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
