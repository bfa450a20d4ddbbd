import { spawn, type ChildProcess } from 'node:child_process';

/** `server/main.ts` running in a child process, as `npm start` runs it. */
export interface ChildServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything written to stdout so far (JSON log lines, one object per line). */
  stdout(): string;
  /** Everything written to stderr so far (the start banner). */
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the real server (`node --import tsx server/main.ts`) on a free loopback port with `env` on top of this
 * process's environment, and resolves once it has printed its listening line (and its start banner on stderr,
 * unless the demo is off). `onSpawn` sees the process at once, before it listens (to watch what it logs meanwhile).
 */
export async function startChildServer(env: Record<string, string>, onSpawn?: (child: ChildProcess) => void): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', KIT_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onSpawn?.(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const banner = env.KIT_DEMO !== 'false';
  const url = await new Promise<string>((resolve, reject) => {
    const check = (): void => {
      const m = /listening on (http:\/\/[^/"]+)\/v1/.exec(out);
      if (m && (!banner || err.includes('Kit is running at'))) {
        child.stdout!.off('data', check);
        child.stderr!.off('data', check);
        resolve(m[1]!.replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening:\n${out}\n${err}`)));
  });
  return {
    url,
    child,
    stdout: () => out,
    stderr: () => err,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** Signs up a developer through the API and creates keys: what a new customer does first. */
export async function signupWithKeys(url: string, label: string): Promise<{ token: string; orgId: string; key(kind: 'publishable' | 'secret', extra?: object): Promise<string> }> {
  const res = await fetch(`${url}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`, password: 'child server password' }),
  });
  const body = (await res.json()) as { token: string; organization: { id: string } };
  if (res.status !== 201) throw new Error(`signup ${res.status} ${JSON.stringify(body)}`);
  return {
    token: body.token,
    orgId: body.organization.id,
    async key(kind, extra = {}) {
      const created = await fetch(`${url}/v1/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${body.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kind, name: `${label} ${kind}`, ...extra }),
      });
      return ((await created.json()) as { secret: string }).secret;
    },
  };
}
