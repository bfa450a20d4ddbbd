import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Builds dist/sdk when missing or stale (the real bundles are what e2e tests load). */
export function ensureSdkBuilt(): void {
  const r = spawnSync(process.execPath, [join(root, 'scripts/ensure-sdk-built.mjs')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('SDK build failed');
}

export interface KitServer {
  readonly url: string;
  readonly process: ChildProcess;
  /** Everything the server printed so far (start banner, warnings). */
  output(): string;
  /** Signs up a developer and returns a JWT and a new publishable key (allowed origins as given; [] = loopback). */
  developerKey(allowedOrigins?: string[]): Promise<{ token: string; key: string }>;
  stop(): Promise<void>;
}

/** Servers started by this process and not stopped yet, with their data directories. */
const live = new Map<ChildProcess, string>();
let exitHook = false;

/**
 * Stops every server still running when this process exits. A server kept for several files (the console's shared
 * stack) is stopped by a root after-hook that, in a `mocha --parallel` worker, belongs to the first file that
 * loaded it; without this, the servers of a worker's later files outlived the run as orphans.
 */
function killOnExit(child: ChildProcess, dataDir: string): void {
  live.set(child, dataDir);
  child.once('exit', () => live.delete(child));
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    // Each embedded database is ~40 MB: left behind, a suite run leaked hundreds of MB into the temporary directory.
    for (const [c, dir] of live) {
      c.kill('SIGKILL');
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      } catch { /* the killed server still writing: the operating system's temporary-file cleanup takes the rest */ }
    }
  });
}

/**
 * Starts the real Kit server (`server/main.ts`, embedded PGlite database in a temporary directory) as a child process
 * on a free port, exactly as `npm start` runs it, and waits for /healthz.
 */
export async function startKitServer(env: Record<string, string> = {}): Promise<KitServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'kit-e2e-'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', KIT_DATA_DIR: dataDir, KIT_LOG_LEVEL: 'warn', KIT_SIGNUPS_PER_IP_PER_HOUR: '1000', KIT_LOGIN_MAX_PER_IP: '1000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killOnExit(child, dataDir);
  let output = '';
  child.stdout!.on('data', (d) => { output += d; });
  child.stderr!.on('data', (d) => { output += d; });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`kit server exited with ${child.exitCode}:\n${output}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) { child.kill('SIGKILL'); throw new Error(`kit server did not start:\n${output}`); }
    await new Promise((r) => setTimeout(r, 200));
  }
  let n = 0;
  return {
    url,
    process: child,
    output: () => output,
    async developerKey(allowedOrigins = []) {
      const email = `dev${++n}-${Date.now()}@example.com`;
      const signup = await fetch(`${url}/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'correct horse battery staple', name: 'E2E', organization_name: 'E2E Org' }) });
      if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${await signup.text()}`);
      const { token } = (await signup.json()) as { token: string };
      const created = await fetch(`${url}/v1/keys`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ kind: 'publishable', name: 'e2e', allowed_origins: allowedOrigins }) });
      if (created.status !== 201) throw new Error(`create key: ${created.status} ${await created.text()}`);
      const body = (await created.json()) as { key: { value?: string }; secret?: string };
      return { token, key: body.key.value ?? body.secret! };
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => { const t = setTimeout(() => { child.kill('SIGKILL'); r(undefined); }, 10_000); child.once('exit', () => { clearTimeout(t); r(undefined); }); });
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
