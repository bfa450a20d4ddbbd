/**
 * CPU time of every thread of this process's descendants (the browser's processes, the server), from Linux's
 * `/proc/<pid>/task/<tid>/schedstat` (nanoseconds on a CPU), grouped by process kind and thread name — a cheap trace
 * of where a benchmark round's CPU went across the browser (renderer main thread, dedicated worker, network service,
 * browser process's IndexedDB and I/O threads) and the server. Linux only; empty elsewhere.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU ms per "process kind / thread name". */
export type ThreadCpu = Map<string, number>;

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** What a process is: the browser, one of its child types, the Kit server, or another node process. */
function kindOf(pid: number): string {
  // Chromium's child processes rewrite their command line into one space-separated string.
  const cmd = (read(`/proc/${pid}/cmdline`) ?? '').replace(/\0/g, ' ');
  const type = /--type=(\S+)/.exec(cmd)?.[1];
  if (type) {
    const sub = /--utility-sub-type=(\S+)/.exec(cmd)?.[1]?.split('.').pop();
    return sub ? `${type}:${sub}` : type;
  }
  if (/server\/main\.[jt]s/.test(cmd)) return 'server';
  if (/chrom/i.test(cmd)) return 'browser';
  return 'other';
}

/** Every descendant of `root` (not `root` itself). */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (!stat) continue;
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    parent.set(Number(name), ppid);
  }
  const out: number[] = [];
  const seen = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parent) if (!seen.has(pid) && seen.has(ppid)) { seen.add(pid); out.push(pid); grew = true; }
  }
  return out;
}

/** A snapshot of the descendants' threads' CPU time (ms), by "kind / thread name" (numbers in names dropped). */
export function threadCpu(root = process.pid): ThreadCpu {
  const out: ThreadCpu = new Map();
  if (process.platform !== 'linux') return out;
  for (const pid of descendants(root)) {
    const kind = kindOf(pid);
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const ns = Number((read(`/proc/${pid}/task/${tid}/schedstat`) ?? '').split(' ')[0]);
      if (!Number.isFinite(ns)) continue;
      const name = (read(`/proc/${pid}/task/${tid}/comm`) ?? '?').trim().replace(/\d+$/, '');
      const key = `${kind} / ${name}`;
      out.set(key, (out.get(key) ?? 0) + ns / 1e6);
    }
  }
  return out;
}

/** after − before, per key (threads born since count from 0; threads gone since are lost — snapshot before closing). */
export function cpuDelta(before: ThreadCpu, after: ThreadCpu): ThreadCpu {
  const out: ThreadCpu = new Map();
  for (const [k, v] of after) {
    const d = v - (before.get(k) ?? 0);
    if (d > 0.05) out.set(k, d);
  }
  return out;
}
