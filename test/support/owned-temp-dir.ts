import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Temporary directories that record which test process owns them, so a later run can tell the leftovers of a killed
 * run (owner gone) from the directories of a run still going in another worktree (owner alive), and clean only the
 * former. Several worktrees run suites at once on one machine; a sweep must never break a live run.
 */

const OWNER_FILE = 'kit-owner.json';
/** A directory with no owner file is only a leftover when it is at least this old (older suites wrote none). */
const UNOWNED_GRACE_MS = 6 * 60 * 60 * 1000;

interface Owner {
  readonly pid: number;
  /** The owner's start time in clock ticks since boot (/proc/<pid>/stat field 22): tells a reused pid apart. */
  readonly started: string | null;
}

/** A process's start time in clock ticks since boot (null when it is gone): with its pid, names it uniquely. */
export function processStarted(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name (which may itself contain spaces or parentheses).
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** True while a process with this pid exists (signal 0 probes without signalling; EPERM means it exists). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True while the process that wrote `owner` runs (not another that reuses its pid). */
export function ownerAlive(owner: Owner): boolean {
  if (!pidAlive(owner.pid)) return false;
  if (owner.started === null) return true;
  const now = processStarted(owner.pid);
  return now === null || now === owner.started;
}

function writeOwner(dir: string): void {
  const owner: Owner = { pid: process.pid, started: processStarted(process.pid) };
  writeFileSync(join(dir, OWNER_FILE), JSON.stringify(owner));
}

/** Creates `<tmp>/<prefix>XXXXXX` owned by this process. */
export function createOwnedTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeOwner(dir);
  return dir;
}

/**
 * Creates `<tmp>/<name>` owned by this process and returns its path, or returns null when it exists already (another
 * process claimed it first: mkdir is atomic, so of several processes claiming one name exactly one gets it).
 */
export function claimOwnedDir(name: string): string | null {
  const dir = join(tmpdir(), name);
  try {
    mkdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw e;
  }
  writeOwner(dir);
  return dir;
}

/** The owner record of `dir`: the owner, 'none' when it has no record, 'partial' while the record is being written. */
function ownerOf(dir: string): Owner | 'none' | 'partial' {
  let raw: string;
  try {
    raw = readFileSync(join(dir, OWNER_FILE), 'utf8');
  } catch {
    return 'none';
  }
  try {
    return JSON.parse(raw) as Owner;
  } catch {
    return 'partial';
  }
}

/**
 * Whether the process that owns `dir` may still be running: false only when its owner record names a process that is
 * gone (a directory just claimed, whose record is not written yet, counts as alive).
 */
export function dirOwnerAlive(dir: string): boolean {
  const owner = ownerOf(dir);
  return typeof owner === 'string' || ownerAlive(owner);
}

/** Whether `dir` was left by a run that is gone: its owner died, or (no owner file) it is older than a grace period. */
export function isLeftover(dir: string, now = Date.now()): boolean {
  const owner = ownerOf(dir);
  if (owner === 'none') {
    try {
      return now - statSync(dir).mtimeMs > UNOWNED_GRACE_MS;
    } catch {
      return false; // vanished meanwhile
    }
  }
  if (owner === 'partial') return false; // being written right now
  return typeof owner.pid === 'number' && !ownerAlive(owner);
}

/**
 * Removes every `<tmp>/<prefix>*` directory left by a run that is gone, calling `release(dir)` first (to stop a
 * server still running from it); returns the directories removed. Directories of live runs are not touched.
 */
export function sweepLeftovers(prefix: string, release: (dir: string) => void = () => {}): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const dir = join(tmpdir(), name);
    if (!isLeftover(dir)) continue;
    try {
      release(dir);
    } catch {
      // best effort: the files go either way
    }
    rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

const cleanups = new Set<() => void>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let installed = false;

function runCleanups(): void {
  for (const fn of [...cleanups]) {
    cleanups.delete(fn);
    try {
      fn();
    } catch {
      // keep cleaning the rest
    }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  runCleanups();
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  process.removeListener('exit', runCleanups);
  installed = false;
  // With no other listener, end the way the signal would have ended the process (mocha's parent reads it).
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

/**
 * Runs `cleanup` (synchronous) when the process exits, or on SIGINT/SIGTERM/SIGHUP — where Node would otherwise die
 * without running exit handlers. Returns a function that unregisters it (call it after cleaning up normally).
 */
export function onTermination(cleanup: () => void): () => void {
  if (!installed) {
    installed = true;
    process.once('exit', runCleanups);
    for (const s of SIGNALS) process.on(s, onSignal);
  }
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}
