import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throw-away PostgreSQL 15 cluster for tests. */
export interface TestPostgres {
  readonly url: string;
  stop(): Promise<void>;
  /** Stops the server but keeps its data (an outage): connections drop, new ones are refused. */
  pause(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts a paused server again on the same port and data. */
  resume(): Promise<void>;
  /** Stops the cluster (fast shutdown: open connections are cut), keeps it down `downMs`, starts it again on the same port. */
  restart(downMs: number): Promise<void>;
}

const BIN = process.env.KIT_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** True when the PostgreSQL 15 binaries the test setup needs are installed. */
export function postgresAvailable(): boolean {
  return existsSync(join(BIN, 'initdb')) && existsSync(join(BIN, 'pg_ctl'));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts PostgreSQL 15 in a temporary directory on a free loopback port, with fsync off (tests only).
 * initdb refuses to run as root, so as root the cluster runs as user `postgres`.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'kit-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]): void => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(BIN, cmd), ...args]] : [join(BIN, cmd), args];
    execFileSync(file, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const options = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', '-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'];
  const start = (): void => run('pg_ctl', ['-D', data, '-o', options.join(' '), '-l', join(dir, 'log'), '-w', 'start']);
  start();
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // paused (pause()) and never resumed: nothing is running
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  // A test run that ends without calling stop() must not leave a server or its files behind.
  process.once('exit', () => {
    if (stopped) return;
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  });
  const pause = async (mode: 'fast' | 'immediate' = 'fast'): Promise<void> => run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
  const resume = async (): Promise<void> => start();
  const restart = async (downMs: number): Promise<void> => {
    await pause('fast');
    await new Promise((r) => setTimeout(r, downMs));
    await resume();
  };
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop, pause, resume, restart };
}
