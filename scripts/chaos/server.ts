import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/** A Kit server in its own process, as `npm start` (or `node dist/server/main.js`) runs it. */
export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** The last 64 KB of stdout and stderr. */
  output(): string;
  /** Sends `signal` and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  readonly exited: Promise<number | null>;
}

/** How to start one. */
export interface StartOptions {
  readonly env: Record<string, string>;
  /** Run the built server (`dist/server/main.js`) instead of the sources through tsx. */
  readonly dist?: boolean;
  /** How long to wait for the listening line. Default 120 s (a first PGlite start on a busy machine is slow). */
  readonly timeoutMs?: number;
}

/** The outcome of a start that may be refused (a second process on a locked data directory). */
export type StartOutcome = { readonly ok: true; readonly server: ServerProcess } | { readonly ok: false; readonly code: number | null; readonly output: string; readonly ms: number };

/** Starts the server on a free loopback port; resolves when it listens, or with its exit when it stops first. */
export function tryStartServer(options: StartOptions): Promise<StartOutcome> {
  const args = options.dist ? [resolve(root, 'dist/server/main.js')] : ['--import', 'tsx', resolve(root, 'server/main.ts')];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', KIT_LOG_LEVEL: 'info', KIT_DEMO: 'false', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (c: Buffer): void => {
    out += c.toString();
    if (out.length > 65_536) out = out.slice(-65_536);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const started = Date.now();
  return new Promise<StartOutcome>((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`server did not listen within ${options.timeoutMs ?? 120_000} ms:\n${out.slice(-4000)}`));
    }, options.timeoutMs ?? 120_000);
    const check = (): void => {
      const m = /listening on (http:\/\/[^/"]+)\/v1/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      const url = m[1]!.replace('localhost', '127.0.0.1');
      done({
        ok: true,
        server: {
          url,
          pid: child.pid!,
          child,
          exited,
          output: () => out,
          async stop(signal = 'SIGTERM') {
            if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
            child.kill(signal);
            return exited;
          },
        },
      });
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      done({ ok: false, code, output: out, ms: Date.now() - started });
    });
  });
}

/** Starts the server; throws when it exits before listening. */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const outcome = await tryStartServer(options);
  if (!outcome.ok) throw new Error(`server exited (${outcome.code}) before listening:\n${outcome.output.slice(-4000)}`);
  return outcome.server;
}
