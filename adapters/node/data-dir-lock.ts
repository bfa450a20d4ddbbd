import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync, constants } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
// fs-native-extensions ships prebuilt binaries (no compiler at install) and locks with fcntl(F_OFD_SETLK) on
// Linux, flock on macOS and LockFileEx on Windows. docs/operations.md compares it with the other options.
import { tryLock, unlock } from 'fs-native-extensions';

/** The file, inside the data directory, whose lock the server holds for its lifetime. */
export const LOCK_FILE = 'kit.lock';
/** How often a waiting process tries the lock again (ms). */
const POLL_MS = 100;

/** Who holds a data directory, as the holder wrote it into the lock file. */
export interface LockHolder {
  readonly pid: number;
  readonly hostname: string;
  readonly since: string;
}

/** Another process holds the data directory (after waiting, if a wait was asked for). */
export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | null,
    /** How long this process waited (KIT_DATA_DIR_LOCK_WAIT_MS); 0 = it did not. */
    readonly waitedMs: number,
  ) {
    const who = holder ? `process ${holder.pid} on ${holder.hostname} (since ${holder.since})` : 'another process';
    const waited = waitedMs > 0 ? ` after waiting ${Math.round(waitedMs)} ms (KIT_DATA_DIR_LOCK_WAIT_MS)` : '';
    super(`the data directory ${dataDir} is in use by ${who}${waited}; two servers must never share one embedded database`);
  }
}

/** A held lock: release() (or the process ending, however it ends) frees it. */
export interface DataDirLock {
  readonly dataDir: string;
  release(): void;
}

export interface LockOptions {
  /** How long to wait for the holder to exit (ms); 0 = fail at once. */
  readonly waitMs?: number;
  /** Called once when the lock is busy and the caller will wait. */
  readonly onWait?: (holder: LockHolder | null) => void;
}

function readHolder(path: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    return typeof parsed.pid === 'number' ? { pid: parsed.pid, hostname: String(parsed.hostname ?? '?'), since: String(parsed.since ?? '?') } : null;
  } catch {
    return null; // the holder has not written it yet, or an older format
  }
}

/**
 * Takes the exclusive OS-level lock on `<dataDir>/kit.lock`. The kernel drops the lock when its file description
 * closes — at release(), or when the process exits, SIGKILL included — so a crashed holder never leaves a stale
 * lock behind, and nothing guesses staleness from PIDs or ages. The holder's PID, host and start time are written
 * into the file for the error message of the next process.
 */
export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o600);
  const started = performance.now();
  const deadline = started + (options.waitMs ?? 0);
  let waiting = false;
  try {
    while (!tryLock(fd)) {
      const holder = readHolder(path);
      if (performance.now() >= deadline) throw new DataDirLockedError(dataDir, holder, waiting ? performance.now() - started : 0);
      if (!waiting) options.onWait?.(holder);
      waiting = true;
      await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(1, deadline - performance.now()))));
    }
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  const holder: LockHolder = { pid: process.pid, hostname: hostname(), since: new Date().toISOString() };
  ftruncateSync(fd, 0);
  writeSync(fd, `${JSON.stringify(holder)}\n`, 0);
  let released = false;
  return {
    dataDir,
    release() {
      if (released) return;
      released = true;
      try {
        ftruncateSync(fd, 0);
        unlock(fd);
      } finally {
        closeSync(fd);
      }
    },
  };
}
