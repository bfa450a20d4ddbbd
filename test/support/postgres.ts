import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createOwnedTempDir, onTermination, sweepLeftovers } from './owned-temp-dir.js';

/** A throw-away PostgreSQL 15 cluster for tests. */
export interface TestPostgres {
  readonly url: string;
  /** The cluster's directory (`<tmp>/kit-pg-…`): data, socket, log and the owner record. */
  readonly dir: string;
  stop(): Promise<void>;
  /** Stops the server but keeps its data (an outage): connections drop, new ones are refused. */
  pause(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts a paused server again on the same port and data. */
  resume(): Promise<void>;
  /** Stops the cluster (fast shutdown: open connections are cut), keeps it down `downMs`, starts it again on the same port. */
  restart(downMs: number): Promise<void>;
}

const BIN = process.env.KIT_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';
/** Prefix of every test cluster's directory under the system temp dir. */
export const CLUSTER_PREFIX = 'kit-pg-';

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

const asRoot = (): boolean => process.getuid?.() === 0;

// initdb refuses to run as root, so as root the cluster's commands run as user `postgres`.
function pgCommand(cmd: string, args: string[]): void {
  const [file, argv] = asRoot() ? ['runuser', ['-u', 'postgres', '--', join(BIN, cmd), ...args]] : [join(BIN, cmd), args];
  execFileSync(file, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Stops the cluster in `dir` if its postmaster still runs (immediate mode: tests keep nothing). */
function stopCluster(dir: string): void {
  const data = join(dir, 'data');
  if (!existsSync(join(data, 'postmaster.pid'))) return;
  try {
    pgCommand('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '20', 'stop']);
  } catch {
    // pg_ctl could not do it (a stale or half-written pid file): signal the postmaster directly.
    try {
      const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (pid > 0) process.kill(pid, 'SIGQUIT');
    } catch {
      // already gone
    }
  }
}

/** Stops and removes the clusters of test runs that are gone (killed, crashed); returns their directories. */
export function sweepStaleClusters(): string[] {
  return sweepLeftovers(CLUSTER_PREFIX, stopCluster);
}

/**
 * Starts PostgreSQL 15 in a temporary directory on a free loopback port, with fsync off (tests only). The cluster
 * is stopped and its directory removed by stop(), at process exit, and on SIGINT/SIGTERM/SIGHUP; clusters that
 * runs killed harder (SIGKILL) left behind are cleaned by the next start — only those whose test process is gone,
 * never a cluster another worktree's live run is using.
 */
export async function startPostgres(): Promise<TestPostgres> {
  sweepStaleClusters();
  const dir = createOwnedTempDir(CLUSTER_PREFIX);
  let stopped = false;
  const cleanup = (): void => {
    stopped = true;
    try {
      stopCluster(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const unregister = onTermination(cleanup);
  try {
    const data = join(dir, 'data');
    if (asRoot()) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      chownSync(dir, uid, gid);
      chmodSync(dir, 0o700);
    }
    const port = await freePort();
    pgCommand('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
    const options = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', '-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'];
    const start = (): void => pgCommand('pg_ctl', ['-D', data, '-o', options.join(' '), '-l', join(dir, 'log'), '-w', 'start']);
    start();
    const stop = async (): Promise<void> => {
      if (stopped) return;
      unregister();
      cleanup();
    };
    const pause = async (mode: 'fast' | 'immediate' = 'fast'): Promise<void> => pgCommand('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
    const resume = async (): Promise<void> => start();
    const restart = async (downMs: number): Promise<void> => {
      await pause('fast');
      await new Promise((r) => setTimeout(r, downMs));
      await resume();
    };
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, dir, stop, pause, resume, restart };
  } catch (e) {
    unregister();
    cleanup();
    throw e;
  }
}
