import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';

const require = createRequire(import.meta.url);
const AUTOCANNON = require.resolve('autocannon/autocannon.js');

/** What one external load run measured. */
export interface LoadResult {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Responses with a 2xx status. */
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
}

export interface LoadOptions {
  readonly url: string;
  readonly connections: number;
  readonly seconds: number;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/**
 * Drives `url` with autocannon run as its OWN process (the CLI, `--json`), so the load generator never shares an
 * event loop with the server it measures or with the benchmark.
 */
export function autocannon(options: LoadOptions): Promise<LoadResult> {
  const args = [AUTOCANNON, '--json', '-c', String(options.connections), '-d', String(options.seconds), '-m', options.method ?? 'GET'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  if (options.body !== undefined) args.push('-b', options.body);
  args.push(options.url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${err}`));
      const r = JSON.parse(out) as { requests: { average: number }; latency: { p50: number; p99: number }; '2xx': number; non2xx: number; errors: number; timeouts: number };
      resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, ok: r['2xx'], non2xx: r.non2xx, errors: r.errors + r.timeouts });
    });
  });
}

/**
 * A warm-up run (discarded), then the measured run. With `cpu` (a reading of some process's CPU ms, e.g. `cpuOf(pid)`),
 * `cpuMs` is what it grew by over the measured run alone (NaN without it).
 */
export async function measure(options: LoadOptions & { readonly warmupSeconds: number; readonly cpu?: () => number }): Promise<LoadResult & { readonly warmupOk: number; readonly cpuMs: number }> {
  const warm = options.warmupSeconds > 0 ? await autocannon({ ...options, seconds: options.warmupSeconds }) : null;
  const cpu0 = options.cpu?.() ?? NaN;
  const result = await autocannon(options);
  return { ...result, warmupOk: warm?.ok ?? 0, cpuMs: (options.cpu?.() ?? NaN) - cpu0 };
}

/** The median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The 1-minute load average, for the "machine load" note of each table. */
export function load1(): string {
  return loadavg()[0]!.toFixed(2);
}

/** A server in a child process whose output goes to a file (never through a pipe the benchmark must drain). */
export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` with `env`, its stdout and stderr in `logFile`, and resolves once the log shows `pattern`
 * (whose first group is the base URL).
 */
export async function startServer(args: readonly string[], env: Record<string, string>, logFile: string, pattern: RegExp): Promise<ServerProcess> {
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...args], { env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const match = pattern.exec(readFileSync(logFile, 'utf8'));
    if (match) {
      return {
        url: match[1]!.replace('localhost', '127.0.0.1').replace('0.0.0.0', '127.0.0.1'),
        pid: child.pid!,
        async stop() {
          if (!exited) child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
          await exit;
          clearTimeout(timer);
        },
      };
    }
    if (exited || Date.now() > deadline) throw new Error(`server did not start: ${readFileSync(logFile, 'utf8').slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
